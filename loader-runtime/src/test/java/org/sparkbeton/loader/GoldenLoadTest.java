package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.loader.decoders.BytesDecoder;
import org.sparkbeton.loader.decoders.FloatDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.JsonDecoder;
import org.sparkbeton.loader.decoders.NdArrayDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** FFCV-written golden files through the loader's decoders, checked against their expected.json. */
class GoldenLoadTest {

  static String sha256(ByteBuffer rows, int offset, int length) throws Exception {
    byte[] b = new byte[length];
    rows.get(offset, b);
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  /** Every batch of one sequential epoch, each output's rows as a list of byte arrays per sample. */
  static List<byte[]> rows(Loader loader, String output) {
    List<byte[]> out = new ArrayList<>();
    for (Batch b : loader) {
      ByteBuffer data = b.data(output);
      int row = b.spec(output).bytes();
      for (int i = 0; i < b.size(); i++) {
        byte[] r = new byte[row];
        data.get(i * row, r);
        out.add(r);
      }
    }
    return out;
  }

  @Test
  void jpgLabelsLabelsThroughIntDecoder() throws Exception {
    JsonNode expected = GoldenFiles.expected("jpg_labels").get("samples");
    try (Loader loader = Loader.builder(GoldenFiles.path("jpg_labels")).batchSize(7).dropLast(false).numThreads(2)
        .pipeline("label", new IntDecoder()).build()) {
      assertThat(loader.length()).isEqualTo(6);
      List<byte[]> labels = rows(loader, "label");
      assertThat(labels).hasSize(40);
      for (int i = 0; i < 40; i++) {
        assertThat(ByteBuffer.wrap(labels.get(i)).order(ByteOrder.LITTLE_ENDIAN).getLong())
            .isEqualTo(expected.get(i).get(1).asLong());
      }
    }
  }

  @Test
  void pageSpillArraysThroughNdArrayDecoder() throws Exception {
    JsonNode expected = GoldenFiles.expected("page_spill").get("samples");
    try (Loader loader = Loader.builder(GoldenFiles.path("page_spill")).batchSize(6).dropLast(false).numThreads(2)
        .pipeline("a", new NdArrayDecoder()).pipeline("b", new NdArrayDecoder()).build()) {
      assertThat(loader.pipelines().get(0).spec()).isEqualTo(TensorSpec.of(DType.UINT8, 50_000));
      assertThat(loader.pipelines().get(1).spec()).isEqualTo(TensorSpec.of(DType.FLOAT64, 37_500));
      int n = 0;
      for (Batch b : loader) {
        for (int i = 0; i < b.size(); i++, n++) {
          int s = b.sample(i);
          assertThat(sha256(b.data("a"), i * 50_000, 50_000)).isEqualTo(expected.get(s).get(0).get("sha256").asText());
          assertThat(sha256(b.data("b"), i * 300_000, 300_000)).isEqualTo(expected.get(s).get(1).get("sha256").asText());
        }
      }
      assertThat(n).isEqualTo(20);
    }
  }

  @Test
  void workedExampleRawImagesThroughSimpleRgb() throws Exception {
    JsonNode expected = GoldenFiles.expected("worked_example").get("samples");
    try (Loader loader = Loader.builder(GoldenFiles.path("worked_example")).batchSize(2).numThreads(1)
        .pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder()).build()) {
      assertThat(loader.pipelines().get(0).spec()).isEqualTo(TensorSpec.image(32, 32));
      Batch b = loader.iterator().next();
      for (int i = 0; i < 2; i++) {
        assertThat(sha256(b.data("image"), i * 3072, 3072)).isEqualTo(expected.get(i).get(0).get("rgb_sha256").asText());
        assertThat(b.data("label").getLong(8 * i)).isEqualTo(expected.get(i).get(1).asLong());
      }
    }
  }

  @Test
  void everyFieldScalarsBytesJsonAndArrays() throws Exception {
    JsonNode expected = GoldenFiles.expected("every_field").get("samples");
    DirectBufferAllocator allocator = new DirectBufferAllocator("every_field");
    try (Loader loader = Loader.builder(GoldenFiles.path("every_field")).batchSize(8).dropLast(false).numThreads(2)
        .order(org.sparkbeton.loader.order.OrderOption.RANDOM).seed(5).allocator(allocator)
        .pipeline("int", new IntDecoder()).pipeline("float", new FloatDecoder())
        .pipeline("bytes", new BytesDecoder()).pipeline("json", new JsonDecoder())
        .pipeline("array", new NdArrayDecoder()).pipeline("tensor", new NdArrayDecoder()).build()) {
      int n = 0;
      for (Batch b : loader) {
        int bytesRow = b.spec("bytes").bytes();
        int jsonRow = b.spec("json").bytes();
        for (int i = 0; i < b.size(); i++, n++) {
          JsonNode e = expected.get(b.sample(i));
          assertThat(b.data("int").getLong(8 * i)).isEqualTo(e.get(1).asLong());
          long bits = Long.reverseBytes(Long.parseUnsignedLong(e.get(2).get("f64_bits").asText(), 16));
          assertThat(Double.doubleToRawLongBits(b.data("float").getDouble(8 * i))).isEqualTo(bits);
          String hex = e.get(3).get("hex").asText();
          int len = b.length("bytes", i);
          assertThat(len).isEqualTo(hex.length() / 2);
          byte[] stored = new byte[len];
          b.data("bytes").get(i * bytesRow, stored);
          assertThat(HexFormat.of().formatHex(stored)).isEqualTo(hex);
          for (int k = len; k < bytesRow; k++) {
            assertThat(b.data("bytes").get(i * bytesRow + k)).as("padding").isZero();
          }
          assertThat(JsonDecoder.text(b.data("json"), i * jsonRow, b.length("json", i))).isEqualTo(e.get(4).get("text").asText());
          assertThat(sha256(b.data("array"), i * 48, 48)).isEqualTo(e.get(5).get("sha256").asText());
          assertThat(sha256(b.data("tensor"), i * 10, 10)).isEqualTo(e.get(6).get("sha256").asText());
        }
      }
      assertThat(n).isEqualTo(60);
      assertThat(allocator.allocatedBytes()).isEqualTo(loader.offHeapBytes());
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void simpleRgbRefusesMixedSizesNamingThem() {
    assertThatThrownBy(() -> Loader.builder(GoldenFiles.path("jpg_labels")).batchSize(4)
        .pipeline("image", new SimpleRgbDecoder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Pipeline 'image', decoder SimpleRGB: SimpleRGB needs every image of field 'image' to have the same"
            + " size, found 50x40 (sample 0), 61x47 (sample 1), 72x54 (sample 2), 83x61 (sample 3), more (width x height);"
            + " use RandomResizedCropRGB or CenterCropRGB for a fixed output size");
  }

  @Test
  void decodersRefuseFieldsOfTheWrongType() {
    assertThatThrownBy(() -> Loader.builder(GoldenFiles.path("every_field")).batchSize(4)
        .pipeline("json", new NdArrayDecoder()).build())
        .hasMessage("Pipeline 'json', decoder NdArrayDecoder: NdArrayDecoder decodes NDArray or TorchTensor fields,"
            + " but field 'json' is JSON");
    assertThatThrownBy(() -> Loader.builder(GoldenFiles.path("every_field")).batchSize(4)
        .pipeline("nope", new IntDecoder()).build())
        .hasMessageStartingWith("Cannot build a pipeline: No field 'nope' in ");
    assertThatThrownBy(() -> Loader.builder(GoldenFiles.path("every_field")).batchSize(4)
        .pipeline("imag", new IntDecoder()).build())
        .hasMessageStartingWith("Cannot build a pipeline: No field 'imag' in ")
        .hasMessageContaining("every_field.beton; did you mean 'image'?; fields are [image: RGBImage");
  }
}
