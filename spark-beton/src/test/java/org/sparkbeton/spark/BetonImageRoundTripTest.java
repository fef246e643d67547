package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.spark.prepare.ShapesGenerator;

/**
 * Images through {@code write.format("beton")} and back through {@code read.format("beton")}, for each
 * write mode × read image mode: sizes, modes and pixels survive (exactly for raw storage, within JPEG
 * loss for jpg storage).
 */
class BetonImageRoundTripTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final int N = 6;
  static final List<byte[]> PIXELS = new ArrayList<>();
  static final List<int[]> SIZES = new ArrayList<>();
  static List<Row> rows = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonImageRoundTripTest");
    ShapesGenerator gen = new ShapesGenerator(9, 40, 120);
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < N; i++) {
        java.awt.image.BufferedImage img = gen.image(i);
        byte[] rgb = gen.rgb(img);
        PIXELS.add(rgb);
        SIZES.add(new int[] {img.getWidth(), img.getHeight()});
        byte[] jpeg = codec.encode(ByteBuffer.wrap(rgb), 0, img.getWidth(), img.getHeight(), 98, ChromaSubsampling.S444);
        rows.add(RowFactory.create(jpeg, (long) i));
      }
    }
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @ParameterizedTest(name = "write {0}, read {1}")
  @CsvSource({"raw,binary", "raw,raw", "raw,image", "jpg,binary", "jpg,raw", "jpg,image"})
  void imagesSurviveTheRoundTrip(String writeMode, String imageMode) {
    StructType schema = new StructType().add("img", DataTypes.BinaryType).add("id", DataTypes.LongType);
    String path = tmp.resolve("rt-" + writeMode + "-" + imageMode).toString();
    // q98 4:4:4 sources; jpg storage re-encodes nothing at their own size (passed through)
    spark.createDataFrame(rows, schema).coalesce(1).write().format("beton").option("imageColumns", "img")
        .option("writeMode", writeMode).save(path);
    List<Row> back = spark.read().format("beton").option("imageMode", imageMode).load(path).orderBy("id").collectAsList();
    assertThat(back).hasSize(N);
    for (int i = 0; i < N; i++) {
      Row r = back.get(i);
      int w = SIZES.get(i)[0];
      int h = SIZES.get(i)[1];
      byte[] rgb;
      switch (imageMode) {
        case "binary" -> {
          assertThat(r.<Integer>getAs("img_width")).isEqualTo(w);
          assertThat(r.<Integer>getAs("img_height")).isEqualTo(h);
          assertThat(r.<String>getAs("img_mode")).isEqualTo(writeMode);
          rgb = writeMode.equals("raw") ? (byte[]) r.getAs("img") : null;
          if (writeMode.equals("jpg")) {
            assertThat((byte[]) r.getAs("img")).isEqualTo(rows.get(i).get(0)); // the source JPEG, untouched
          }
        }
        case "raw" -> rgb = (byte[]) r.getAs("img");
        default -> {
          Row img = r.getAs("img");
          assertThat(img.<Integer>getAs("width")).isEqualTo(w);
          assertThat(img.<Integer>getAs("height")).isEqualTo(h);
          assertThat(img.<Integer>getAs("nChannels")).isEqualTo(3);
          byte[] bgr = img.getAs("data");
          rgb = new byte[bgr.length];
          for (int p = 0; p < bgr.length; p += 3) {
            rgb[p] = bgr[p + 2];
            rgb[p + 1] = bgr[p + 1];
            rgb[p + 2] = bgr[p];
          }
        }
      }
      if (rgb != null) {
        assertThat(rgb).hasSize(w * h * 3);
        // raw storage keeps the decoded source pixels; q98 JPEG stays close to the drawn pixels either way
        assertThat(meanAbsDiff(rgb, PIXELS.get(i))).as("mean |diff| of image %d", i).isLessThan(3.0);
      }
    }
  }

  static double meanAbsDiff(byte[] a, byte[] b) {
    long sum = 0;
    for (int k = 0; k < a.length; k++) {
      sum += Math.abs((a[k] & 0xff) - (b[k] & 0xff));
    }
    return (double) sum / a.length;
  }
}
