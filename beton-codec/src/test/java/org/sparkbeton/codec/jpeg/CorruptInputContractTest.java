package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;

/**
 * A corrupt-input corpus built in the test (truncations at every 1/16th, bit flips, header edits, non-JPEG
 * bytes), run on each codec through probe, decode, region decode and plane decode: only {@link JpegException},
 * never a crash, never a hang.
 */
abstract class CorruptInputContractTest {
  static final String[] BASES = {"texture-420.jpg", "texture-progressive.jpg", "quad-gray.jpg",
      "quad-cmyk-adobe.jpg", "quad-444.jpg"};

  JpegCodec codec;
  final ByteBuffer dst = ByteBuffer.allocateDirect(2 << 20);

  abstract JpegCodec newCodec();

  @BeforeEach
  void open() {
    codec = newCodec();
  }

  @AfterEach
  void closeCodec() {
    codec.close();
  }

  static List<byte[]> corpus(byte[] jpeg, Random rnd) {
    List<byte[]> out = new ArrayList<>();
    for (int k = 0; k < 16; k++) {
      out.add(Arrays.copyOf(jpeg, jpeg.length * k / 16));
    }
    for (int i = 0; i < 40; i++) {
      byte[] b = jpeg.clone();
      int flips = 1 + rnd.nextInt(4);
      for (int f = 0; f < flips; f++) {
        int p = 2 + rnd.nextInt(b.length - 2);
        b[p] ^= (byte) (1 << rnd.nextInt(8));
      }
      out.add(b);
    }
    int sof = sofOffset(jpeg);
    int[][] edits = {
        {sof + 5, 0xFF, 0xDC, 0xFF, 0xDC}, // 65500x65500
        {sof + 5, 0, 0, 0, 0}, // 0x0
        {sof + 9, 0}, // zero components
        {sof + 9, 7}, // seven components
        {sof + 11, 0x00}, // sampling factor 0
        {sof + 11, 0x55}, // sampling factor 5x5
        {sof + 2, 0xFF, 0xFF}, // SOF length past the end
        {sof + 12, 9}, // quantisation table 9
    };
    for (int[] e : edits) {
      byte[] b = jpeg.clone();
      for (int i = 1; i < e.length; i++) {
        b[e[0] + i - 1] = (byte) e[i];
      }
      out.add(b);
    }
    out.add(Arrays.copyOf(jpeg, jpeg.length - 2)); // no EOI
    byte[] noise = new byte[4096];
    rnd.nextBytes(noise);
    out.add(noise);
    out.add(TestImages.image("quad.png"));
    out.add(new byte[] {(byte) 0xFF, (byte) 0xD8});
    out.add(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xD9});
    out.add(absurdHeader(200));
    out.add(absurdHeader(sosEnd(TestImages.image("quad-420.jpg")) + 40));
    return out;
  }

  /** The first {@code length} bytes of quad-420.jpg with the SOF saying 65500x65500. */
  static byte[] absurdHeader(int length) {
    return Arrays.copyOf(hugeSof("quad-420.jpg"), length);
  }

  /** {@code base} with its SOF saying 65500x65500. */
  static byte[] hugeSof(String base) {
    byte[] b = TestImages.image(base);
    int sof = sofOffset(b);
    b[sof + 5] = (byte) 0xFF;
    b[sof + 6] = (byte) 0xDC;
    b[sof + 7] = (byte) 0xFF;
    b[sof + 8] = (byte) 0xDC;
    return b;
  }

  /** Offset just past the SOS segment, where entropy-coded data starts. */
  static int sosEnd(byte[] jpeg) {
    int p = 2;
    while (p + 4 < jpeg.length) {
      int len = ((jpeg[p + 2] & 0xFF) << 8) | (jpeg[p + 3] & 0xFF);
      if ((jpeg[p + 1] & 0xFF) == 0xDA) {
        return p + 2 + len;
      }
      p += 2 + len;
    }
    throw new IllegalStateException("no SOS");
  }

  /** Offset of the SOF0/SOF2 marker's 0xFF byte. */
  static int sofOffset(byte[] jpeg) {
    int p = 2;
    while (p + 4 < jpeg.length) {
      int m = jpeg[p + 1] & 0xFF;
      if (m == 0xC0 || m == 0xC2) {
        return p;
      }
      p += 2 + (((jpeg[p + 2] & 0xFF) << 8) | (jpeg[p + 3] & 0xFF));
    }
    throw new IllegalStateException("no SOF");
  }

  @Test
  void corruptInputsGiveOnlyJpegExceptions() {
    int[] outcome = new int[2];
    assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
      Random rnd = new Random(99L);
      JpegHeader h = new JpegHeader();
      for (String base : BASES) {
        List<byte[]> corpus = corpus(TestImages.image(base), rnd);
        for (int i = 0; i < corpus.size(); i++) {
          byte[] bad = corpus.get(i);
          for (int op = 0; op < 6; op++) {
            try {
              ByteBuffer src = op % 2 == 0 ? ByteBuffer.wrap(bad) : TestImages.direct(bad);
              switch (op) {
                case 0 -> codec.probe(src, h);
                case 1 -> codec.decode(src, 8, Idct.FAST, dst, 0);
                case 2 -> codec.decode(src, 2, Idct.ACCURATE, dst, 0);
                case 3 -> codec.decodeRegion(src, 1, 1, 16, 16, 4, Idct.FAST, dst, 0);
                case 4 -> codec.decodePlanes(src, 8, Idct.ACCURATE, dst, 0, new YccPlanes());
                default -> codec.decodePlanes(src, 4, Idct.ACCURATE, dst, 0, new YccPlanes());
              }
              outcome[0]++;
            } catch (JpegException e) {
              assertThat(e.getMessage()).isNotBlank();
              outcome[1]++;
            } catch (Throwable t) {
              fail("%s variant %d op %d: expected JpegException or success, got %s", base, i, op, t);
            }
          }
        }
      }
    });
    System.out.printf("%s corrupt corpus: %d succeeded, %d JpegException%n", codec.getClass().getSimpleName(),
        outcome[0], outcome[1]);
    assertThat(outcome[1]).isGreaterThan(100);
  }

  @Test
  void emptyInputIsNamed() {
    assertThatThrownBy(() -> codec.decode(ByteBuffer.allocate(0), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class).hasMessageContaining("empty input (0 bytes)");
    assertThatThrownBy(() -> codec.probe(ByteBuffer.allocateDirect(0), new JpegHeader()))
        .isInstanceOf(JpegException.class).hasMessageContaining("empty input (0 bytes)");
  }

  @Test
  void nonJpegBytesAreNamed() {
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(TestImages.image("quad.png")), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class).hasMessageContaining("Not a JPEG");
  }

  @Test
  void truncatedJpegIsAnError() {
    byte[] jpeg = TestImages.image("texture-420.jpg");
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(Arrays.copyOf(jpeg, jpeg.length / 2)), 8, Idct.FAST, dst,
        0)).isInstanceOf(JpegException.class).hasMessageContaining("Premature end of JPEG file");
  }

  @Test
  void absurdDimensionsOnATinyFileFailBeforeDecoding() {
    byte[] tiny = absurdHeader(sosEnd(TestImages.image("quad-420.jpg")) + 40);
    assertThat(tiny.length).isLessThan(700);
    JpegHeader h = new JpegHeader();
    codec.probe(ByteBuffer.wrap(tiny), h);
    assertThat(h.width()).isEqualTo(65500);
    assertThat(h.height()).isEqualTo(65500);
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(tiny), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class)
        .hasMessageEndingWith(" failed: image is too large to decode: 65500x65500 = 4.3 gigapixels (the limit is 268"
            + " megapixels)");
    // cut inside the Huffman tables: native fails reading the header, Java (whose probe stops at SOF) on the size
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(absurdHeader(200)), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class)
        .hasMessageMatching(".*(Premature end of JPEG file|image is too large to decode: 65500x65500).*");
  }

  /**
   * A whole photo (baseline and progressive) whose header claims 65500x65500: every decode refuses it before
   * decoding, in plain words with the size; libjpeg-turbo used to spend 18 s on the baseline one and say "Backing
   * store not supported" of the progressive one.
   */
  @Test
  void imagesOverTheDecodeLimitAreTooLargeToDecode() {
    String expected = "image is too large to decode: 65500x65500 = 4.3 gigapixels (the limit is 268 megapixels)";
    for (String base : new String[] {"texture-420.jpg", "texture-progressive.jpg"}) {
      byte[] huge = resized(TestImages.image(base), 65500, 65500);
      assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(huge), 1, Idct.FAST, dst, 0)).as(base)
          .isInstanceOf(JpegException.class).hasMessageEndingWith(" decode failed: " + expected);
      assertThatThrownBy(() -> codec.decodeRegion(TestImages.direct(huge), 0, 0, 64, 64, 8, Idct.FAST, dst, 0))
          .as(base).isInstanceOf(JpegException.class).hasMessageEndingWith(" decode failed: " + expected);
      assertThatThrownBy(() -> codec.decodePlanes(ByteBuffer.wrap(huge), 1, Idct.ACCURATE, dst, 0, new YccPlanes()))
          .as(base).isInstanceOf(JpegException.class).hasMessageEndingWith(" plane decode failed: " + expected);
    }
    byte[] large = resized(TestImages.image("texture-420.jpg"), 20000, 14000);
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(large), 1, Idct.FAST, dst, 0))
        .hasMessageEndingWith("image is too large to decode: 20000x14000 = 280 megapixels (the limit is 268 megapixels)");
  }

  /** {@code jpeg} with its SOF saying {@code w x h}. */
  static byte[] resized(byte[] jpeg, int w, int h) {
    byte[] b = jpeg.clone();
    int sof = sofOffset(b);
    b[sof + 5] = (byte) (h >> 8);
    b[sof + 6] = (byte) h;
    b[sof + 7] = (byte) (w >> 8);
    b[sof + 8] = (byte) w;
    return b;
  }

  @Test
  void progressiveHeaderDeclaringAHugeImageIsRefusedEvenForASmallRegion() {
    // 65500x65500 is over the pixel limit: both codecs refuse it from the header, before any decoding
    byte[] lying = hugeSof("texture-progressive.jpg");
    assertThatThrownBy(() -> codec.decodeRegion(ByteBuffer.wrap(lying), 1, 1, 16, 16, 4, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class)
        .hasMessageEndingWith("image is too large to decode: 65500x65500 = 4.3 gigapixels (the limit is 268 megapixels)");
  }
}
