package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.loader.decoders.JpegCodecPool;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;

/** SimpleRGB on JPEG payloads through the beton-codec adapter. */
class JpegSimpleRgbTest {
  @TempDir
  Path dir;

  static byte[] fullDecode(JpegCodec codec, byte[] jpeg, int width, int height) {
    ByteBuffer out = ByteBuffer.allocate(width * height * 3);
    codec.decode(ByteBuffer.wrap(jpeg), 8, Idct.FAST, out, 0);
    return out.array();
  }

  @Test
  void sameSizeJpegsEqualTheCodecsOwnFullDecode() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "same", 13, new int[][] {{64, 48}}, payloads);
    DirectBufferAllocator allocator = new DirectBufferAllocator("test", Long.MAX_VALUE, true);
    try (JpegCodec codec = JpegCodecs.fastest();
         Loader loader = Loader.builder(file).batchSize(5).dropLast(false).numThreads(2).allocator(allocator)
             .pipeline("image", new SimpleRgbDecoder()).build()) {
      int n = 0;
      for (int epoch = 0; epoch < 2; epoch++) {
        for (Batch b : loader) {
          assertThat(b.spec("image").shape()).containsExactly(48, 64, 3);
          for (int i = 0; i < b.size(); i++, n++) {
            byte[] row = new byte[64 * 48 * 3];
            b.data("image").get(i * row.length, row);
            assertThat(row).as("sample %d", b.sample(i)).isEqualTo(fullDecode(codec, payloads.get(b.sample(i)), 64, 48));
          }
        }
      }
      assertThat(n).isEqualTo(26);
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void javaCodecEqualsTheJavaCodecsFullDecode() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "java", 6, new int[][] {{40, 56}}, payloads);
    try (JpegCodecPool adapter = JpegCodecPool.java(); JpegCodec codec = JpegCodecs.java();
         Loader loader = Loader.builder(file).batchSize(3).numThreads(2).pipeline("image", new SimpleRgbDecoder(adapter))
             .build()) {
      int n = 0;
      for (Batch b : loader) {
        for (int i = 0; i < b.size(); i++, n++) {
          byte[] row = new byte[40 * 56 * 3];
          b.data("image").get(i * row.length, row);
          assertThat(row).isEqualTo(fullDecode(codec, payloads.get(b.sample(i)), 40, 56));
        }
      }
      assertThat(n).isEqualTo(6);
    }
  }

  @Test
  void adapterKeepsOneHandlePerLiveThreadAndFreesThemWithTheLoader() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "handles", 8, new int[][] {{32, 24}}, payloads);
    try (JpegCodecPool codec = JpegCodecPool.fastest()) {
      SimpleRgbDecoder decoder = new SimpleRgbDecoder(codec);
      try (Loader loader = Loader.builder(file).batchSize(4).numThreads(2).pipeline("image", decoder).build()) {
        for (int epoch = 0; epoch < 4; epoch++) {
          for (Batch ignored : loader) {
            // each epoch runs on new worker threads
          }
        }
        assertThat(codec.handles()).isBetween(1, 2);
      }
      codec.close();
      ByteBuffer src = ByteBuffer.wrap(payloads.get(0));
      assertThatThrownBy(() -> codec.decodeRgb(src, 0, src.capacity(), 32, 24, ByteBuffer.allocate(32 * 24 * 3), 0))
          .isInstanceOf(IllegalStateException.class).hasMessage(codec + " is closed");
    }
  }

  @Test
  void ownedCodecIsFreedWhenTheLastLoaderClosesAndComesBackAfter() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "owned", 8, new int[][] {{32, 24}}, payloads);
    SimpleRgbDecoder decoder = new SimpleRgbDecoder();
    byte[] first;
    try (Loader loader = Loader.builder(file).batchSize(4).numThreads(2).pipeline("image", decoder).build()) {
      Batch b = loader.iterator().next();
      first = new byte[32 * 24 * 3];
      b.data("image").get(0, first);
    }
    // a second loader with the same decoder gets fresh handles
    try (Loader loader = Loader.builder(file).batchSize(4).numThreads(1).pipeline("image", decoder).build()) {
      Batch b = loader.iterator().next();
      byte[] again = new byte[32 * 24 * 3];
      b.data("image").get(0, again);
      assertThat(again).isEqualTo(first);
    }
  }

  @Test
  void metadataSizeMustMatchTheJpeg() {
    try (JpegCodecPool codec = JpegCodecPool.fastest()) {
      ByteBuffer src = ByteBuffer.wrap(JpegDatasets.jpeg(0, 32, 24));
      assertThatThrownBy(() -> codec.decodeRgb(src, 0, src.capacity(), 24, 32, ByteBuffer.allocate(32 * 24 * 3), 0))
          .isInstanceOf(IllegalStateException.class).hasMessage("JPEG is 32x24 but its metadata says 24x32");
    }
  }

  /** Each golden JPEG alone (indices({i})) through SimpleRGB equals FFCV's pixels (native codec, fast IDCT). */
  @Test
  void goldenJpegsDecodeToFfcvPixels() throws Exception {
    assumeTrue(JpegCodecs.nativeAvailable(), "FFCV's exact pixels need the native libjpeg-turbo codec");
    JsonNode samples = GoldenFiles.expected("jpg_labels").get("samples");
    SimpleRgbDecoder decoder = new SimpleRgbDecoder();
    int checked = 0;
    for (int i = 0; i < samples.size(); i++) {
      JsonNode image = samples.get(i).get(0);
      if (!image.get("mode").asText().equals("jpg")) {
        continue;
      }
      try (Loader loader = Loader.builder(GoldenFiles.path("jpg_labels")).batchSize(1).indices(new int[] {i})
          .pipeline("image", decoder).build()) {
        Batch b = loader.iterator().next();
        int bytes = b.spec("image").bytes();
        assertThat(bytes).isEqualTo(image.get("width").asInt() * image.get("height").asInt() * 3);
        assertThat(GoldenLoadTest.sha256(b.data("image"), 0, bytes)).as("sample %d", i)
            .isEqualTo(image.get("rgb_sha256").asText());
        checked++;
      }
    }
    assertThat(checked).isEqualTo(40);
  }
}
