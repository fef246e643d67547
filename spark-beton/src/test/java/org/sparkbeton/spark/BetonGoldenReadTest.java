package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.format.testing.GoldenFiles;
import scala.collection.Seq;
import scala.collection.JavaConverters;

/** Every FFCV-written golden file reads through {@code format("beton")} with the values of its expected.json. */
class BetonGoldenReadTest {
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonGoldenReadTest");
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @ParameterizedTest
  @ValueSource(strings = {"worked_example", "jpg_labels", "every_field", "scalars_only", "page_spill"})
  void readsWithTheExpectedValues(String name) throws Exception {
    JsonNode expected = GoldenFiles.expected(name);
    List<Row> rows = spark.read().format("beton").option("maxSamplesPerPartition", "7")
        .load(GoldenFiles.path(name).toString()).collectAsList();
    JsonNode fields = expected.get("fields");
    assertThat(rows).hasSize(expected.get("num_samples").asInt());
    for (int s = 0; s < rows.size(); s++) {
      Row row = rows.get(s);
      JsonNode sample = expected.get("samples").get(s);
      for (int f = 0; f < fields.size(); f++) {
        String field = fields.get(f).get("name").asText();
        JsonNode want = sample.get(f);
        String at = name + " sample " + s + " field " + field;
        switch (fields.get(f).get("type_id").asInt()) {
          case 1 -> assertThat(row.getLong(row.fieldIndex(field))).as(at).isEqualTo(want.asLong());
          case 0 -> assertThat(f64Bits(row.getDouble(row.fieldIndex(field)))).as(at).isEqualTo(want.get("f64_bits").asText());
          case 3 -> assertThat(HexFormat.of().formatHex((byte[]) row.get(row.fieldIndex(field)))).as(at)
              .isEqualTo(want.get("hex").asText());
          case 5 -> assertThat(row.getString(row.fieldIndex(field))).as(at).isEqualTo(want.get("text").asText());
          case 2 -> {
            assertThat(sha256((byte[]) row.get(row.fieldIndex(field)))).as(at).isEqualTo(want.get("payload_sha256").asText());
            assertThat(row.getInt(row.fieldIndex(field + "_width"))).as(at).isEqualTo(want.get("width").asInt());
            assertThat(row.getInt(row.fieldIndex(field + "_height"))).as(at).isEqualTo(want.get("height").asInt());
            assertThat(row.getString(row.fieldIndex(field + "_mode"))).as(at).isEqualTo(want.get("mode").asText());
          }
          case 4, 6 -> {
            NumpyDtype dtype = NumpyDtype.of(fields.get(f).get("dtype").asText());
            List<Object> values = JavaConverters.seqAsJavaList(row.<Seq<Object>>getAs(field));
            assertThat(sha256(storedBytes(values, dtype))).as(at).isEqualTo(want.get("sha256").asText());
            if (want.has("values")) {
              for (int i = 0; i < values.size(); i++) {
                assertThat(((Number) values.get(i)).doubleValue()).as(at + "[" + i + "]")
                    .isEqualTo(want.get("values").get(i).asDouble());
              }
            }
          }
          default -> throw new AssertionError("unexpected type in " + at);
        }
      }
    }
  }

  @Test
  void arrayColumnsKeepDtypeAndShapeInMetadata() {
    StructField array = spark.read().format("beton").load(GoldenFiles.path("every_field").toString())
        .schema().apply("array");
    assertThat(array.metadata().getString("beton.dtype")).isEqualTo("<f4");
    assertThat(array.metadata().getLongArray("beton.shape")).containsExactly(3, 4);
  }

  @Test
  void rawModeDecodesRawImagesToTheExpectedPixels() throws Exception {
    JsonNode expected = GoldenFiles.expected("worked_example");
    List<Row> rows = spark.read().format("beton").option("imageMode", "raw")
        .load(GoldenFiles.path("worked_example").toString()).collectAsList();
    for (int s = 0; s < rows.size(); s++) {
      assertThat(sha256((byte[]) rows.get(s).getAs("image")))
          .isEqualTo(expected.get("samples").get(s).get(0).get("rgb_sha256").asText());
    }
    Row image = spark.read().format("beton").option("imageMode", "image")
        .load(GoldenFiles.path("worked_example").toString()).select("image.*").first();
    assertThat(image.<Integer>getAs("width")).isEqualTo(32);
    assertThat(image.<Integer>getAs("nChannels")).isEqualTo(3);
    assertThat(image.<String>getAs("origin")).endsWith("worked_example.beton");
    // nested schema pruning asks for part of the struct; the reader still returns what readSchema() says
    List<Row> widths = spark.read().format("beton").option("imageMode", "image")
        .load(GoldenFiles.path("worked_example").toString()).selectExpr("image.width", "image.height", "label")
        .collectAsList();
    assertThat(widths).extracting(r -> r.getInt(0)).containsExactly(32, 32);
    assertThat(widths).extracting(r -> r.getInt(1)).containsExactly(32, 32);
    assertThat(widths).extracting(r -> r.getLong(2))
        .containsExactly(expected.get("samples").get(0).get(1).asLong(), expected.get("samples").get(1).get(1).asLong());
  }

  /** beton-codec registers the pixel decoder: JPEGs decode to FFCV's pixels (fast IDCT, native path). */
  @Test
  void jpegPixelsEqualFfcvsThroughTheCodecService() throws Exception {
    JsonNode expected = GoldenFiles.expected("jpg_labels");
    List<Row> rows = spark.read().format("beton").option("imageMode", "raw")
        .load(GoldenFiles.path("jpg_labels").toString()).select("image", "label").collectAsList(); // file order
    assertThat(rows).hasSize(40);
    for (int s = 0; s < rows.size(); s++) {
      JsonNode image = expected.get("samples").get(s).get(0);
      byte[] rgb = (byte[]) rows.get(s).getAs("image");
      assertThat(rgb).hasSize(3 * image.get("width").asInt() * image.get("height").asInt());
      if (org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable()) {
        assertThat(sha256(rgb)).as("pixels of sample %d", s).isEqualTo(image.get("rgb_sha256").asText());
      }
    }
    List<Row> sizes = spark.read().format("beton").option("imageMode", "image")
        .load(GoldenFiles.path("jpg_labels").toString()).selectExpr("image.width", "image.height", "length(image.data)")
        .collectAsList();
    for (int s = 0; s < sizes.size(); s++) {
      JsonNode image = expected.get("samples").get(s).get(0);
      assertThat(sizes.get(s).getInt(0)).isEqualTo(image.get("width").asInt());
      assertThat(sizes.get(s).getInt(1)).isEqualTo(image.get("height").asInt());
      assertThat(sizes.get(s).getInt(2)).isEqualTo(3 * image.get("width").asInt() * image.get("height").asInt());
    }
  }

  static String f64Bits(double v) {
    return HexFormat.of().formatHex(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(v).array());
  }

  static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  /** The stored bytes of an array column, re-encoded from the Spark values in the file's dtype. */
  static byte[] storedBytes(List<Object> values, NumpyDtype dtype) {
    ByteBuffer b = ByteBuffer.allocate(values.size() * dtype.itemSize()).order(dtype.order());
    for (Object v : values) {
      Number n = (Number) v;
      switch (dtype.kind() + "" + dtype.itemSize()) {
        case "u1", "i1" -> b.put((byte) n.intValue());
        case "i2", "u2" -> b.putShort((short) n.intValue());
        case "i4", "u4" -> b.putInt((int) n.longValue());
        case "i8", "u8" -> b.putLong(n.longValue());
        case "f4" -> b.putFloat(n.floatValue());
        case "f8" -> b.putDouble(n.doubleValue());
        default -> throw new AssertionError("dtype " + dtype);
      }
    }
    return b.array();
  }
}
