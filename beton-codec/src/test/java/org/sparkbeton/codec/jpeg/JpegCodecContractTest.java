package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.TestImages;
import org.sparkbeton.codec.image.RgbPixels;

/** The contract every {@link JpegCodec} meets; one subclass per implementation runs it. */
abstract class JpegCodecContractTest {
  static final int[][] QUADRANTS = {{220, 30, 40}, {30, 200, 60}, {40, 50, 210}, {128, 128, 128}};

  JpegCodec codec;

  abstract JpegCodec newCodec();

  /** Max abs difference between a region+scale decode and the same box cut from a full decode at that scale. */
  abstract int regionMaxDiff();

  /** Mean abs difference bound for the same comparison. */
  abstract double regionMeanDiff();

  @BeforeEach
  void open() {
    codec = newCodec();
  }

  @AfterEach
  void closeCodec() {
    codec.close();
  }

  byte[] decodeFull(byte[] jpeg, int scale, Idct idct) {
    JpegHeader h = new JpegHeader();
    codec.probe(ByteBuffer.wrap(jpeg), h);
    int w = JpegGeometry.scaledDim(h.width(), scale);
    int hh = JpegGeometry.scaledDim(h.height(), scale);
    ByteBuffer dst = ByteBuffer.allocateDirect(w * hh * 3);
    long size = codec.decode(ByteBuffer.wrap(jpeg), scale, idct, dst, 0);
    assertThat(ImageSize.width(size)).isEqualTo(w);
    assertThat(ImageSize.height(size)).isEqualTo(hh);
    return TestImages.bytes(dst, 0, w * hh * 3);
  }

  @Test
  void probesGoldenHeaders() {
    JpegHeader h = new JpegHeader();
    for (TestImages.Golden g : TestImages.golden()) {
      codec.probe(ByteBuffer.wrap(g.bytes()), h);
      assertThat(h.width()).as(g.name()).isEqualTo(g.width());
      assertThat(h.height()).as(g.name()).isEqualTo(g.height());
      assertThat(h.components()).isEqualTo(3);
      assertThat(h.colorSpace()).isEqualTo(JpegColorSpace.YCBCR);
      assertThat(h.subsampling()).isEqualTo(ChromaSubsampling.S420);
      assertThat(h.progressive()).isFalse();
    }
  }

  @Test
  void probesSpecialInputs() {
    JpegHeader h = new JpegHeader();
    codec.probe(ByteBuffer.wrap(TestImages.image("quad-gray.jpg")), h);
    assertThat(h.toString()).isEqualTo("64x48 1ch GRAYSCALE GRAY baseline");
    codec.probe(TestImages.direct(TestImages.image("quad-cmyk-adobe.jpg")), h);
    assertThat(h.components()).isEqualTo(4);
    assertThat(h.colorSpace()).isEqualTo(JpegColorSpace.CMYK);
    codec.probe(ByteBuffer.wrap(TestImages.image("quad-ycck-adobe.jpg")), h);
    assertThat(h.toString()).isEqualTo("64x48 4ch YCCK S420 baseline");
    codec.probe(ByteBuffer.wrap(TestImages.image("quad-progressive.jpg")), h);
    assertThat(h.progressive()).isTrue();
    assertThat(h.subsampling()).isEqualTo(ChromaSubsampling.S420);
    codec.probe(ByteBuffer.wrap(TestImages.image("quad-444.jpg")), h);
    assertThat(h.subsampling()).isEqualTo(ChromaSubsampling.S444);
  }

  @Test
  void decodesEveryColourModelToRgb() {
    for (String name : List.of("quad-420.jpg", "quad-444.jpg", "quad-progressive.jpg", "quad-cmyk-adobe.jpg",
        "quad-ycck-adobe.jpg")) {
      byte[] rgb = decodeFull(TestImages.image(name), 8, Idct.FAST);
      assertQuadrants(name, rgb, 64, 48, colourTolerance(name), false);
    }
    byte[] gray = decodeFull(TestImages.image("quad-gray.jpg"), 8, Idct.FAST);
    assertQuadrants("quad-gray.jpg", gray, 64, 48, 4, true);
  }

  /** CMYK goes through an ICC transform in TwelveMonkeys, so the Java path is looser there. */
  int colourTolerance(String name) {
    return 6;
  }

  static void assertQuadrants(String name, byte[] rgb, int w, int h, int tol, boolean gray) {
    int[][] centres = {{w / 4, h / 4}, {3 * w / 4, h / 4}, {w / 4, 3 * h / 4}, {3 * w / 4, 3 * h / 4}};
    for (int q = 0; q < 4; q++) {
      int[] px = TestImages.pixel(rgb, w, centres[q][0], centres[q][1]);
      int[] want = QUADRANTS[q];
      if (gray) {
        int l = (want[0] * 299 + want[1] * 587 + want[2] * 114 + 500) / 1000;
        want = new int[] {l, l, l};
      }
      for (int c = 0; c < 3; c++) {
        assertThat((double) px[c]).as("%s quadrant %d channel %d", name, q, c).isCloseTo(want[c], within(
            (double) tol));
      }
    }
  }

  @Test
  void heapAndDirectBuffersGiveTheSamePixelsAndRespectTheOffset() {
    byte[] jpeg = TestImages.image("texture-420.jpg");
    int n = 333 * 251 * 3;
    ByteBuffer heap = ByteBuffer.allocate(n + 10);
    ByteBuffer direct = ByteBuffer.allocateDirect(n + 10);
    for (int i = 0; i < n + 10; i++) {
      heap.put(i, (byte) 0x5A);
      direct.put(i, (byte) 0x5A);
    }
    long s1 = codec.decode(ByteBuffer.wrap(jpeg), 8, Idct.FAST, heap, 7);
    long s2 = codec.decode(TestImages.direct(jpeg), 8, Idct.FAST, direct, 7);
    assertThat(s1).isEqualTo(s2).isEqualTo(ImageSize.pack(333, 251));
    assertThat(TestImages.bytes(heap, 0, n + 10)).isEqualTo(TestImages.bytes(direct, 0, n + 10));
    assertThat(TestImages.bytes(heap, 0, 7)).containsOnly((byte) 0x5A);
    assertThat(TestImages.bytes(heap, 7 + n, 3)).containsOnly((byte) 0x5A);
  }

  @Test
  void sourcePositionAndLimitDelimitTheJpeg() {
    byte[] jpeg = TestImages.image("quad-420.jpg");
    byte[] padded = new byte[jpeg.length + 20];
    System.arraycopy(jpeg, 0, padded, 13, jpeg.length);
    ByteBuffer src = ByteBuffer.wrap(padded, 13, jpeg.length);
    ByteBuffer a = ByteBuffer.allocate(64 * 48 * 3);
    codec.decode(src, 8, Idct.FAST, a, 0);
    assertThat(src.position()).isEqualTo(13);
    assertThat(TestImages.bytes(a, 0, a.capacity())).isEqualTo(decodeFull(jpeg, 8, Idct.FAST));
  }

  @Test
  void scaledDecodeHasLibjpegSizesAndKeepsColours() {
    byte[] jpeg = TestImages.image("quad-444.jpg");
    for (int m = 1; m <= 8; m++) {
      byte[] rgb = decodeFull(jpeg, m, Idct.FAST);
      int w = JpegGeometry.scaledDim(64, m);
      int h = JpegGeometry.scaledDim(48, m);
      assertThat(rgb).hasSize(w * h * 3);
      if (m >= 2) {
        assertQuadrants("scale " + m + "/8", rgb, w, h, 8, false);
      }
    }
  }

  @Test
  void regionDecodeEqualsCropOfFullDecode() {
    Random rnd = new Random(20261122L);
    String[] files = {"texture-420.jpg", "texture-444.jpg", "texture-progressive.jpg"};
    double worstMean = 0;
    int worstMax = 0;
    for (int i = 0; i < 60; i++) {
      byte[] jpeg = TestImages.image(files[i % files.length]);
      int[] b = randomBox(rnd);
      int x = b[0];
      int y = b[1];
      int w = b[2];
      int h = b[3];
      int m = 1 + rnd.nextInt(8);
      byte[] full = decodeFull(jpeg, m, Idct.FAST);
      long box = JpegGeometry.scaledBox(333, 251, x, y, w, h, m);
      int bw = ImageSize.width(box);
      int bh = ImageSize.height(box);
      ByteBuffer dst = ByteBuffer.allocateDirect(bw * bh * 3);
      long got = codec.decodeRegion(ByteBuffer.wrap(jpeg), x, y, w, h, m, Idct.FAST, dst, 0);
      assertThat(got).isEqualTo(box);
      byte[] expected = TestImages.crop(full, JpegGeometry.scaledDim(333, m), JpegGeometry.scaledOrigin(x, m),
          JpegGeometry.scaledOrigin(y, m), bw, bh);
      double[] d = TestImages.diff(TestImages.bytes(dst, 0, bw * bh * 3), expected);
      String what = String.format("%s box %d,%d %dx%d scale %d/8", files[i % files.length], x, y, w, h, m);
      assertThat(d[0]).as(what + " max").isLessThanOrEqualTo(regionMaxDiff());
      assertThat(d[1]).as(what + " mean").isLessThanOrEqualTo(regionMeanDiff());
      worstMax = Math.max(worstMax, (int) d[0]);
      worstMean = Math.max(worstMean, d[1]);
    }
    System.out.printf("%s region vs crop-of-full: worst max %d, worst mean %.3f%n", codec.getClass().getSimpleName(),
        worstMax, worstMean);
  }

  /** The padded form gives decodeRegion's pixels exactly, read through its layout; padding happens somewhere. */
  @Test
  void paddedRegionDecodeHoldsTheSamePixelsAtItsLayout() {
    Random rnd = new Random(7L);
    String[] files = {"texture-420.jpg", "texture-444.jpg", "texture-progressive.jpg"};
    int padded = 0;
    for (int i = 0; i < 60; i++) {
      byte[] jpeg = TestImages.image(files[i % files.length]);
      int[] b = randomBox(rnd);
      int x = b[0];
      int y = b[1];
      int w = b[2];
      int h = b[3];
      int m = new int[] {1, 2, 4, 8}[rnd.nextInt(4)];
      long box = JpegGeometry.scaledBox(333, 251, x, y, w, h, m);
      int bw = ImageSize.width(box);
      int bh = ImageSize.height(box);
      ByteBuffer plain = ByteBuffer.allocateDirect(bw * bh * 3);
      codec.decodeRegion(ByteBuffer.wrap(jpeg), x, y, w, h, m, Idct.FAST, plain, 0);
      // room for rows as wide as the scaled image
      ByteBuffer wide = ByteBuffer.allocateDirect(5 + JpegGeometry.scaledDim(333, m) * bh * 3);
      int[] layout = {-1, -1};
      long got = codec.decodeRegionPadded(ByteBuffer.wrap(jpeg), x, y, w, h, m, Idct.FAST, wide, 5, layout);
      assertThat(got).isEqualTo(box);
      assertThat(layout[0]).isGreaterThanOrEqualTo(0);
      assertThat(layout[0] + bw).isLessThanOrEqualTo(layout[1]);
      byte[] rows = new byte[bw * bh * 3];
      for (int r = 0; r < bh; r++) {
        wide.get(5 + (r * layout[1] + layout[0]) * 3, rows, r * bw * 3, bw * 3);
      }
      String what = String.format("%s box %d,%d %dx%d scale %d/8, layout %d/%d", files[i % files.length], x, y, w,
          h, m, layout[0], layout[1]);
      assertThat(rows).as(what).isEqualTo(TestImages.bytes(plain, 0, bw * bh * 3));
      padded += layout[1] != bw ? 1 : 0;
    }
    assertThat(padded).as("boxes decoded with padded rows").isEqualTo(paddedRowsExpected() ? padded : 0);
    if (paddedRowsExpected()) {
      assertThat(padded).isGreaterThan(20);
    }
  }

  /** x, y, w, h of a random non-empty box of the 333x251 test textures. */
  private static int[] randomBox(Random rnd) {
    int w = 1 + rnd.nextInt(333);
    int h = 1 + rnd.nextInt(251);
    return new int[] {rnd.nextInt(333 - w + 1), rnd.nextInt(251 - h + 1), w, h};
  }

  /** Whether this codec leaves rows padded (the native one does; the default form never does). */
  boolean paddedRowsExpected() {
    return false;
  }

  @Test
  void regionOutsideTheImageIsRejected() {
    ByteBuffer dst = ByteBuffer.allocate(64 * 48 * 3);
    assertThatThrownBy(() -> codec.decodeRegion(ByteBuffer.wrap(TestImages.image("quad-420.jpg")), 40, 0, 30, 10, 8,
        Idct.FAST, dst, 0)).isInstanceOf(JpegException.class).hasMessageContaining("40,0 30x10")
        .hasMessageContaining("outside the 64x48 image");
    assertThatThrownBy(() -> codec.decodeRegion(ByteBuffer.wrap(TestImages.image("quad-420.jpg")), -1, 0, 30, 10, 8,
        Idct.FAST, dst, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("non-negative origin");
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(TestImages.image("quad-420.jpg")), 9, Idct.FAST, dst, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("M in 1..8, got 9/8");
  }

  @Test
  void tooSmallDestinationIsAnExceptionNotAnOverflow() {
    ByteBuffer dst = ByteBuffer.allocateDirect(64 * 48 * 3 - 1);
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(TestImages.image("quad-420.jpg")), 8, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class).hasMessageContaining("destination too small: need 9216 bytes");
  }

  /** Smooth synthetic photo-like content (no grain), deterministic. */
  static byte[] smoothImage(int w, int h) {
    byte[] rgb = new byte[w * h * 3];
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int p = (y * w + x) * 3;
        rgb[p] = (byte) (128 + 100 * Math.sin(x / 13.0) * Math.cos(y / 19.0));
        rgb[p + 1] = (byte) (128 + 100 * Math.sin((x + y) / 31.0));
        rgb[p + 2] = (byte) (128 + 100 * Math.cos(x / 23.0 - y / 41.0));
      }
    }
    return rgb;
  }

  @Test
  void encodeThenDecodeKeepsTheImageAtQuality90() {
    byte[] src = smoothImage(320, 240);
    for (ChromaSubsampling ss : List.of(ChromaSubsampling.S420, ChromaSubsampling.S444)) {
      byte[] jpeg = codec.encode(ByteBuffer.wrap(src), 0, 320, 240, 90, ss);
      assertThat(jpeg[0] & 0xFF).isEqualTo(0xFF);
      assertThat(jpeg[1] & 0xFF).isEqualTo(0xD8);
      assertThat(new String(jpeg, 6, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("JFIF");
      JpegHeader h = new JpegHeader();
      codec.probe(ByteBuffer.wrap(jpeg), h);
      assertThat(h.toString()).isEqualTo("320x240 3ch YCBCR " + ss + " baseline");
      byte[] back = decodeFull(jpeg, 8, Idct.ACCURATE);
      double psnr = TestImages.psnr(src, back);
      System.out.printf("%s encode q90 %s: %d bytes, PSNR %.2f dB%n", codec.getClass().getSimpleName(), ss,
          jpeg.length, psnr);
      assertThat(psnr).as("PSNR at q90 " + ss).isGreaterThan(40);
    }
  }

  @Test
  void encodeFromHeapOrDirectIntoHeapOrDirectGivesTheSameBytes() {
    byte[] src = smoothImage(97, 61);
    ByteBuffer heapSrc = ByteBuffer.wrap(src);
    ByteBuffer directSrc = TestImages.direct(src);
    byte[] reference = codec.encode(heapSrc, 0, 97, 61, 85, ChromaSubsampling.S420);
    ByteBuffer directDst = ByteBuffer.allocateDirect(JpegCodec.maxEncodedSize(97, 61) + 3);
    int n = codec.encode(directSrc, 0, 97, 61, 85, ChromaSubsampling.S420, directDst, 3);
    assertThat(TestImages.bytes(directDst, 3, n)).isEqualTo(reference);
    ByteBuffer heapDst = ByteBuffer.allocate(JpegCodec.maxEncodedSize(97, 61));
    int m = codec.encode(directSrc, 0, 97, 61, 85, ChromaSubsampling.S420, heapDst, 0);
    assertThat(TestImages.bytes(heapDst, 0, m)).isEqualTo(reference);
  }

  @Test
  void encodedJpegIsReadByAnotherDecoder() throws Exception {
    RgbPixels src = ImageDecoder.decode(TestImages.image("quad.png"));
    byte[] jpeg = codec.encode(ByteBuffer.wrap(src.pixels()), 0, 64, 48, 90);
    JpegHeader h = new JpegHeader();
    codec.probe(ByteBuffer.wrap(jpeg), h);
    assertThat(h.subsampling()).as("default subsampling").isEqualTo(ChromaSubsampling.S420);
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(jpeg));
    assertThat(img.getWidth()).isEqualTo(64);
    assertThat(img.getHeight()).isEqualTo(48);
    int rgb = img.getRGB(16, 12);
    assertThat((double) ((rgb >> 16) & 0xFF)).isCloseTo(220, within(6.0));
    assertThat((double) ((rgb >> 8) & 0xFF)).isCloseTo(30, within(6.0));
  }

  @Test
  void encodeIntoATooSmallBufferFailsWithAMessage() {
    RgbPixels src = ImageDecoder.decode(TestImages.image("texture.png"));
    ByteBuffer dst = ByteBuffer.allocateDirect(1000);
    assertThatThrownBy(() -> codec.encode(ByteBuffer.wrap(src.pixels()), 0, 333, 251, 90, ChromaSubsampling.S420,
        dst, 0)).isInstanceOf(JpegException.class).hasMessageContaining("destination too small");
  }

  @Test
  void encodeValidatesItsArguments() {
    ByteBuffer rgb = ByteBuffer.allocate(30);
    assertThatThrownBy(() -> codec.encode(rgb, 0, 4, 4, 90, ChromaSubsampling.S420))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RGB source too small: 4x4 needs 48 bytes");
    assertThatThrownBy(() -> codec.encode(rgb, 0, 2, 2, 0, ChromaSubsampling.S420))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("JPEG quality must be 1..100, got 0");
    assertThatThrownBy(() -> codec.encode(rgb, 0, 2, 2, 90, ChromaSubsampling.S422))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got S422");
  }

  @Test
  void closeIsIdempotentAndUseAfterCloseIsDetected() {
    codec.close();
    codec.close();
    assertThatThrownBy(() -> codec.probe(ByteBuffer.wrap(TestImages.image("quad-420.jpg")), new JpegHeader()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
  }
}
