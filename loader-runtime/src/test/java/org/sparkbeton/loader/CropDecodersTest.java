package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.JpegCodecPool;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/** RandomResizedCropRGB and CenterCropRGB against straightforward references, on RAW and JPEG payloads. */
class CropDecodersTest {
  static final int[][] RAW_SIZES = {{90, 70}, {64, 64}, {41, 97}, {200, 8}, {120, 33}};
  static final int[][] JPEG_SIZES = {{300, 220}, {257, 199}, {520, 390}, {96, 80}, {181, 470}};

  @TempDir
  Path dir;

  /** Python's round(): half to even. */
  static double pyRound(double x) {
    double f = Math.floor(x);
    double d = x - f;
    if (d > 0.5) {
      return f + 1;
    }
    if (d < 0.5) {
      return f;
    }
    return f % 2 == 0 ? f : f + 1;
  }

  /** torchvision's RandomResizedCrop.get_params (as FFCV's get_random_crop), transcribed: {top, left, h, w}. */
  static int[] torchvisionBox(int height, int width, double[] scale, double[] ratio, SampleRandom r) {
    double area = height * width;
    double logLo = Math.log(ratio[0]);
    double logHi = Math.log(ratio[1]);
    for (int attempt = 0; attempt < 10; attempt++) {
      double targetArea = area * (scale[0] + (scale[1] - scale[0]) * r.nextDouble());
      double aspectRatio = Math.exp(logLo + (logHi - logLo) * r.nextDouble());
      int w = (int) pyRound(Math.sqrt(targetArea * aspectRatio));
      int h = (int) pyRound(Math.sqrt(targetArea / aspectRatio));
      if (0 < w && w <= width && 0 < h && h <= height) {
        int i = (int) (0 + (height - h + 1) * r.nextDouble());
        int j = (int) (0 + (width - w + 1) * r.nextDouble());
        return new int[] {i, j, h, w};
      }
    }
    double inRatio = (double) width / height;
    int w;
    int h;
    if (inRatio < Math.min(ratio[0], ratio[1])) {
      w = width;
      h = (int) pyRound(w / Math.min(ratio[0], ratio[1]));
    } else if (inRatio > Math.max(ratio[0], ratio[1])) {
      h = height;
      w = (int) pyRound(h * Math.max(ratio[0], ratio[1]));
    } else {
      w = width;
      h = height;
    }
    return new int[] {(height - h) / 2, (width - w) / 2, h, w};
  }

  static int[] centerBox(int height, int width, double ratio) {
    int c = (int) (ratio * Math.min(height, width));
    return new int[] {(height - c) / 2, (width - c) / 2, c, c};
  }

  /** The generator the loader gives pipeline 0's decoder for (seed, epoch, sample). */
  static SampleRandom sampleRandom(long seed, int epoch, long sample) {
    SampleContext ctx = new SampleContext(seed);
    ctx.begin(0, epoch, sample, 0);
    ctx.enterStage(0);
    return ctx.random();
  }

  /** Reference: copy the box out, then INTER_AREA resize of the whole copy (Java resizer). */
  static byte[] cropResize(byte[] rgb, int width, int[] box, int outH, int outW) {
    int top = box[0];
    int left = box[1];
    int h = box[2];
    int w = box[3];
    byte[] crop = new byte[h * w * 3];
    for (int y = 0; y < h; y++) {
      System.arraycopy(rgb, ((top + y) * width + left) * 3, crop, y * w * 3, w * 3);
    }
    ByteBuffer out = ByteBuffer.allocate(outH * outW * 3);
    new Resizer(false).resize(ByteBuffer.wrap(crop), 0, w * 3, 0, 0, w, h, out, 0, outW, outH);
    return out.array();
  }

  record Row(int epoch, int sample, byte[] pixels) {}

  static List<Row> epochs(Loader loader, int epochs) {
    List<Row> rows = new ArrayList<>();
    for (int e = 0; e < epochs; e++) {
      for (Batch b : loader) {
        int bytes = b.spec("image").bytes();
        for (int i = 0; i < b.size(); i++) {
          byte[] r = new byte[bytes];
          b.data("image").get(i * bytes, r);
          rows.add(new Row(e, b.sample(i), r));
        }
      }
    }
    return rows;
  }

  static List<Row> load(Path file, Decoder decoder, int threads, int epochs, long seed) throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("test", Long.MAX_VALUE, true);
    List<Row> rows;
    try (Loader loader = Loader.builder(file).batchSize(4).dropLast(false).numThreads(threads).seed(seed)
        .order(org.sparkbeton.loader.order.OrderOption.RANDOM).allocator(allocator).pipeline("image", decoder).build()) {
      rows = epochs(loader, epochs);
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
    return rows;
  }

  @Test
  void randomResizedCropOnRawEqualsTorchvisionBoxThenAreaResize() throws IOException {
    List<byte[]> pixels = JpegDatasets.list();
    Path file = JpegDatasets.raws(dir, "raw", 15, RAW_SIZES, pixels);
    double[] scale = {0.08, 1};
    double[] ratio = {3.0 / 4, 4.0 / 3};
    List<Row> rows = load(file, new RandomResizedCropRgbDecoder(24, 20), 2, 2, 11);
    assertThat(rows).hasSize(30);
    for (Row r : rows) {
      int[] size = RAW_SIZES[r.sample % RAW_SIZES.length];
      int[] box = torchvisionBox(size[1], size[0], scale, ratio, sampleRandom(11, r.epoch, r.sample));
      assertThat(r.pixels).as("epoch %d sample %d box %s", r.epoch, r.sample, java.util.Arrays.toString(box))
          .isEqualTo(cropResize(pixels.get(r.sample), size[0], box, 24, 20));
    }
  }

  @Test
  void randomResizedCropFallsBackToTheClampedCentreCrop() throws IOException {
    List<byte[]> pixels = JpegDatasets.list();
    Path file = JpegDatasets.raws(dir, "thin", 4, new int[][] {{200, 8}, {9, 150}}, pixels);
    double[] scale = {0.9, 1};
    double[] ratio = {3.0 / 4, 4.0 / 3};
    List<Row> rows = load(file, new RandomResizedCropRgbDecoder(6, 6, 0.9, 1, 3.0 / 4, 4.0 / 3), 1, 1, 5);
    for (Row r : rows) {
      int[] size = r.sample % 2 == 0 ? new int[] {200, 8} : new int[] {9, 150};
      int[] box = torchvisionBox(size[1], size[0], scale, ratio, sampleRandom(5, r.epoch, r.sample));
      int[] centre = r.sample % 2 == 0 ? new int[] {0, (200 - 11) / 2, 8, 11} : new int[] {(150 - 12) / 2, 0, 12, 9};
      assertThat(box).isEqualTo(centre); // every try fails on these thin images
      assertThat(r.pixels).isEqualTo(cropResize(pixels.get(r.sample), size[0], box, 6, 6));
    }
  }

  @Test
  void boxesDependOnSeedEpochAndSampleOnly() {
    // the same (seed, epoch, sample) always gives the same box; another epoch or seed gives others
    int same = 0;
    for (int s = 0; s < 200; s++) {
      int[] a = torchvisionBox(300, 400, new double[] {0.08, 1}, new double[] {0.75, 4.0 / 3}, sampleRandom(1, 0, s));
      int[] b = torchvisionBox(300, 400, new double[] {0.08, 1}, new double[] {0.75, 4.0 / 3}, sampleRandom(1, 0, s));
      int[] c = torchvisionBox(300, 400, new double[] {0.08, 1}, new double[] {0.75, 4.0 / 3}, sampleRandom(1, 1, s));
      assertThat(a).isEqualTo(b);
      same += java.util.Arrays.equals(a, c) ? 1 : 0;
      assertThat(a[2]).isBetween(1, 300);
      assertThat(a[3]).isBetween(1, 400);
      assertThat(a[0] + a[2]).isLessThanOrEqualTo(300);
      assertThat(a[1] + a[3]).isLessThanOrEqualTo(400);
    }
    assertThat(same).isLessThan(5);
  }

  @Test
  void centerCropOnRawEqualsReference() throws IOException {
    List<byte[]> pixels = JpegDatasets.list();
    Path file = JpegDatasets.raws(dir, "raw", 10, RAW_SIZES, pixels);
    List<Row> rows = load(file, new CenterCropRgbDecoder(7, 9, 224.0 / 256), 2, 1, 0);
    assertThat(rows).hasSize(10);
    for (Row r : rows) {
      int[] size = RAW_SIZES[r.sample % RAW_SIZES.length];
      assertThat(r.pixels).as("sample %d", r.sample)
          .isEqualTo(cropResize(pixels.get(r.sample), size[0], centerBox(size[1], size[0], 224.0 / 256), 7, 9));
    }
  }

  /** Reference for JPEGs: full decode at the DCT scale the decoder picks, crop the mapped box, resize. */
  static byte[] jpegReference(JpegCodec codec, byte[] jpeg, int width, int height, int[] box, int outH, int outW,
      int[] scaleCount) {
    int m = JpegGeometry.bestScale(box[3], box[2], outW, outH, JpegGeometry.FAST_SCALES);
    scaleCount[m]++;
    int sw = JpegGeometry.scaledDim(width, m);
    int sh = JpegGeometry.scaledDim(height, m);
    ByteBuffer full = ByteBuffer.allocate(sw * sh * 3);
    codec.decode(ByteBuffer.wrap(jpeg), m, Idct.FAST, full, 0);
    long b = JpegGeometry.scaledBox(width, height, box[1], box[0], box[3], box[2], m);
    int x0 = JpegGeometry.scaledOrigin(box[1], m);
    int y0 = JpegGeometry.scaledOrigin(box[0], m);
    ByteBuffer out = ByteBuffer.allocate(outH * outW * 3);
    new Resizer(false).resize(full, 0, sw * 3, x0, y0, ImageSize.width(b), ImageSize.height(b), out, 0, outW, outH);
    return out.array();
  }

  static void assertClose(byte[] actual, byte[] expected, boolean exact, String what, double[] stats) {
    int max = 0;
    long sum = 0;
    for (int i = 0; i < actual.length; i++) {
      int d = Math.abs((actual[i] & 0xff) - (expected[i] & 0xff));
      max = Math.max(max, d);
      sum += d;
    }
    stats[0] = Math.max(stats[0], max);
    stats[1] += (double) sum / actual.length;
    stats[2]++;
    if (exact) {
      assertThat(actual).as(what).isEqualTo(expected);
    } else {
      // the codec README's bound for region vs crop of a scaled full decode (native: max 16, mean 0.1)
      assertThat(max).as(what + " max difference").isLessThanOrEqualTo(16);
      assertThat((double) sum / actual.length).as(what + " mean difference").isLessThanOrEqualTo(0.5);
    }
  }

  @Test
  void randomResizedCropOnJpegsEqualsScaledFullDecodeCropResize() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "jpegs", 20, JPEG_SIZES, payloads);
    List<Row> rows = load(file, new RandomResizedCropRgbDecoder(48, 40), 2, 2, 3);
    int[] scales = new int[9];
    double[] stats = new double[3];
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (Row r : rows) {
        int[] size = JPEG_SIZES[r.sample % JPEG_SIZES.length];
        int[] box = torchvisionBox(size[1], size[0], new double[] {0.08, 1}, new double[] {0.75, 4.0 / 3},
            sampleRandom(3, r.epoch, r.sample));
        byte[] expected = jpegReference(codec, payloads.get(r.sample), size[0], size[1], box, 48, 40, scales);
        assertClose(r.pixels, expected, !codec.isNative(), "epoch " + r.epoch + " sample " + r.sample, stats);
      }
    }
    assertThat(rows).hasSize(40);
    assertThat(scales[1] + scales[2] + scales[4]).as("boxes decoded DCT-scaled").isGreaterThan(5);
    System.out.printf("RRC on JPEGs vs scaled full decode+crop+resize: max %d, mean %.4f over %d; scales 1/8:%d 2/8:%d 4/8:%d 8/8:%d%n",
        (int) stats[0], stats[1] / stats[2], (int) stats[2], scales[1], scales[2], scales[4], scales[8]);
  }

  /** The same vectors on the pure-Java codec, whatever is installed: region decode is exact there. */
  @Test
  void javaCodecCropsEqualTheJavaReferenceExactly() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "jpegs", 10, JPEG_SIZES, payloads);
    int[] scales = new int[9];
    double[] stats = new double[3];
    try (JpegCodecPool adapter = JpegCodecPool.java();
         JpegCodec codec = JpegCodecs.java()) {
      assertThat(adapter.isNative()).isFalse();
      List<Row> rows = load(file, new RandomResizedCropRgbDecoder(48, 40, 0.08, 1, 0.75, 4.0 / 3, adapter), 2, 1, 3);
      for (Row r : rows) {
        int[] size = JPEG_SIZES[r.sample % JPEG_SIZES.length];
        int[] box = torchvisionBox(size[1], size[0], new double[] {0.08, 1}, new double[] {0.75, 4.0 / 3},
            sampleRandom(3, r.epoch, r.sample));
        assertClose(r.pixels, jpegReference(codec, payloads.get(r.sample), size[0], size[1], box, 48, 40, scales),
            true, "sample " + r.sample, stats);
      }
      List<Row> centre = load(file, new CenterCropRgbDecoder(64, 64, 0.875, adapter), 1, 1, 0);
      for (Row r : centre) {
        int[] size = JPEG_SIZES[r.sample % JPEG_SIZES.length];
        assertClose(r.pixels, jpegReference(codec, payloads.get(r.sample), size[0], size[1],
            centerBox(size[1], size[0], 0.875), 64, 64, scales), true, "sample " + r.sample, stats);
      }
    }
    assertThat(scales[1] + scales[2] + scales[4]).as("boxes decoded DCT-scaled").isGreaterThan(0);
  }

  @Test
  void centerCropOnJpegsEqualsScaledFullDecodeCropResize() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "jpegs", 10, JPEG_SIZES, payloads);
    List<Row> rows = load(file, new CenterCropRgbDecoder(64, 64, 0.875), 2, 1, 0);
    int[] scales = new int[9];
    double[] stats = new double[3];
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (Row r : rows) {
        int[] size = JPEG_SIZES[r.sample % JPEG_SIZES.length];
        byte[] expected = jpegReference(codec, payloads.get(r.sample), size[0], size[1],
            centerBox(size[1], size[0], 0.875), 64, 64, scales);
        assertClose(r.pixels, expected, !codec.isNative(), "sample " + r.sample, stats);
      }
    }
    assertThat(scales[2] + scales[4]).as("boxes decoded DCT-scaled").isGreaterThan(0);
  }

  @Test
  void outputIsBitIdenticalForOneAndTwoThreads() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "jpegs", 22, JPEG_SIZES, payloads);
    List<Row> one = load(file, new RandomResizedCropRgbDecoder(32, 32), 1, 2, 9);
    List<Row> two = load(file, new RandomResizedCropRgbDecoder(32, 32), 2, 2, 9);
    assertThat(two).hasSameSizeAs(one);
    for (int i = 0; i < one.size(); i++) {
      assertThat(two.get(i).sample).isEqualTo(one.get(i).sample);
      assertThat(two.get(i).pixels).as("row %d", i).isEqualTo(one.get(i).pixels);
    }
  }

  @Test
  void outputSizeMayChangeBetweenEpochs() throws IOException {
    List<byte[]> payloads = JpegDatasets.list();
    Path file = JpegDatasets.jpegs(dir, "jpegs", 8, JPEG_SIZES, payloads);
    RandomResizedCropRgbDecoder rrc = new RandomResizedCropRgbDecoder(16, 16);
    try (Loader loader = Loader.builder(file).batchSize(4).numThreads(2).pipeline("image", rrc, new RandomHorizontalFlip())
        .build()) {
      for (Batch b : loader) {
        assertThat(b.spec("image").shape()).containsExactly(16, 16, 3);
      }
      rrc.outputSize(40, 24);
      for (Batch b : loader) {
        assertThat(b.spec("image").shape()).containsExactly(40, 24, 3);
      }
    }
  }

  @Test
  void badArgumentsAreRefused() {
    assertThatThrownBy(() -> new RandomResizedCropRgbDecoder(0, 224))
        .hasMessage("RandomResizedCropRGB output size must be 1..65535 on each side, got 0x224 (height x width)");
    assertThatThrownBy(() -> new RandomResizedCropRgbDecoder(224, 224, 0.5, 0.2, 0.75, 1.33))
        .hasMessage("RandomResizedCropRGB scale must satisfy 0 < min <= max <= 1, got (0.5, 0.2)");
    assertThatThrownBy(() -> new CenterCropRgbDecoder(224, 224, 1.5))
        .hasMessage("CenterCropRGB ratio must be in (0, 1], got 1.5");
  }

  @Test
  void anOutputOverTwoGibPerSampleIsRefusedWithItsSize() {
    assertThatThrownBy(() -> new RandomResizedCropRgbDecoder(30000, 30000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("RandomResizedCropRGB output size 30000x30000 (height x width) needs 2700000000 bytes per sample"
            + " (height x width x 3), over the limit of 2147483647 bytes (2 GiB)");
    assertThatThrownBy(() -> new CenterCropRgbDecoder(65535, 65535, 0.875))
        .hasMessage("CenterCropRGB output size 65535x65535 (height x width) needs 12884508675 bytes per sample"
            + " (height x width x 3), over the limit of 2147483647 bytes (2 GiB)");
    RandomResizedCropRgbDecoder rrc = new RandomResizedCropRgbDecoder(224, 224);
    assertThatThrownBy(() -> rrc.outputSize(26755, 26755)) // progressive resizing: refused when set
        .hasMessageStartingWith("RandomResizedCropRGB output size 26755x26755 (height x width) needs 2147490075 bytes");
    rrc.outputSize(26754, 26754); // 2147329548 bytes: one buffer holds it
    assertThat(rrc.outputHeight()).isEqualTo(26754);
  }
}
