package org.sparkbeton.loader.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** Each transform against a plain per-pixel reference written from FFCV's semantics (docs/format.md#transforms). */
class TransformReferenceTest {
  static final int H = 7;
  static final int W = 9;
  static final TensorSpec RGB = TensorSpec.image(H, W);

  static int[][][] image(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int[][][] img = new int[H][W][3];
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        for (int c = 0; c < 3; c++) {
          img[y][x][c] = r.nextInt(256);
        }
      }
    }
    return img;
  }

  static ByteBuffer bytes(int[][][] img, int offset) {
    ByteBuffer b = ByteBuffer.allocate(offset + H * W * 3 + 16).order(ByteOrder.LITTLE_ENDIAN);
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        for (int c = 0; c < 3; c++) {
          b.put(offset + (y * W + x) * 3 + c, (byte) img[y][x][c]);
        }
      }
    }
    return b;
  }

  static int[][][] read(ByteBuffer b, int offset) {
    int[][][] img = new int[H][W][3];
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        for (int c = 0; c < 3; c++) {
          img[y][x][c] = b.get(offset + (y * W + x) * 3 + c) & 0xff;
        }
      }
    }
    return img;
  }

  static SampleContext ctx(long sample) {
    SampleContext ctx = new SampleContext(1234);
    ctx.begin(0, 2, sample, 0);
    ctx.enterStage(1);
    return ctx;
  }

  /** Runs a stage out of place (input at offset 5, output at 11) and in place when it can. */
  static int[][][] run(Operation op, int[][][] img, long sample) {
    Operation.Stage stage = op.plan(RGB);
    ByteBuffer in = bytes(img, 5);
    ByteBuffer out = ByteBuffer.allocate(11 + stage.output().bytes()).order(ByteOrder.LITTLE_ENDIAN);
    stage.apply(in, 5, out, 11, ctx(sample));
    int[][][] result = read(out, 11);
    if (stage.inPlace()) {
      ByteBuffer same = bytes(img, 3);
      stage.apply(same, 3, same, 3, ctx(sample));
      assertThat(read(same, 3)).as("in place equals out of place").isEqualTo(result);
    }
    return result;
  }

  @Test
  void horizontalFlipMirrorsExactlyWhenItsDrawSaysSo() {
    int flipped = 0;
    for (long s = 0; s < 40; s++) {
      int[][][] img = image(s);
      boolean flip = ctx(s).random().nextDouble() < 0.5;
      int[][][] expected = new int[H][W][3];
      for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
          expected[y][x] = img[y][flip ? W - 1 - x : x].clone();
        }
      }
      assertThat(run(new RandomHorizontalFlip(), img, s)).isEqualTo(expected);
      flipped += flip ? 1 : 0;
    }
    assertThat(flipped).isBetween(10, 30);
  }

  @Test
  void cutoutFillsOneSquareInsideTheImage() {
    for (long s = 0; s < 30; s++) {
      int[][][] img = image(s);
      SampleRandom r = ctx(s).random();
      int y0 = r.nextInt(0, H - 4);
      int x0 = r.nextInt(0, W - 4);
      int[][][] expected = image(s);
      for (int y = y0; y < y0 + 4; y++) {
        for (int x = x0; x < x0 + 4; x++) {
          expected[y][x] = new int[] {10, 20, 30};
        }
      }
      assertThat(run(new Cutout(4, 10, 20, 30), img, s)).isEqualTo(expected);
    }
  }

  @Test
  void translateShiftsAPaddedImage() {
    int pad = 3;
    for (long s = 0; s < 30; s++) {
      int[][][] img = image(s);
      SampleRandom r = ctx(s).random();
      int oy = r.nextInt(0, 2 * pad);
      int ox = r.nextInt(0, 2 * pad);
      int[][][] padded = new int[H + 2 * pad][W + 2 * pad][];
      for (int y = 0; y < H + 2 * pad; y++) {
        for (int x = 0; x < W + 2 * pad; x++) {
          boolean inside = y >= pad && y < H + pad && x >= pad && x < W + pad;
          padded[y][x] = inside ? img[y - pad][x - pad].clone() : new int[] {1, 2, 3};
        }
      }
      int[][][] expected = new int[H][W][];
      for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
          expected[y][x] = padded[y + oy][x + ox];
        }
      }
      assertThat(run(new RandomTranslate(pad, 1, 2, 3), img, s)).isEqualTo(expected);
    }
  }

  @Test
  void translateByMoreThanTheImageGivesFill() {
    // padding 20 > image: many draws land entirely outside; the result must then be pure fill
    int[][][] out = null;
    for (long s = 0; s < 50 && out == null; s++) {
      SampleRandom r = ctx(s).random();
      int dy = r.nextInt(0, 40) - 20;
      if (Math.abs(dy) >= H) {
        out = run(new RandomTranslate(20, 9, 9, 9), image(s), s);
      }
    }
    assertThat(out).isNotNull();
    for (int[][] row : out) {
      for (int[] px : row) {
        assertThat(px).containsExactly(9, 9, 9);
      }
    }
  }

  @Test
  void channelsFirstTransposesAnyElementType() {
    TensorSpec f32 = TensorSpec.of(DType.FLOAT32, 2, 3, 4);
    ByteBuffer in = ByteBuffer.allocate(f32.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 24; i++) {
      in.putFloat(4 * i, i);
    }
    Operation.Stage st = new ToChannelsFirst().plan(f32);
    assertThat(st.output()).isEqualTo(TensorSpec.of(DType.FLOAT32, 4, 2, 3).asChannelsFirst());
    ByteBuffer out = ByteBuffer.allocate(f32.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    st.apply(in, 0, out, 0, ctx(0));
    for (int c = 0; c < 4; c++) {
      for (int y = 0; y < 2; y++) {
        for (int x = 0; x < 3; x++) {
          assertThat(out.getFloat(4 * ((c * 2 + y) * 3 + x))).isEqualTo((float) ((y * 3 + x) * 4 + c));
        }
      }
    }
  }

  @Test
  void normalizeMatchesTheFormulaInFloat32AndFloat16() {
    double[] mean = {125.3, 123.0, 113.9};
    double[] std = {63.0, 62.1, 66.7};
    int[][][] img = image(3);
    for (DType type : new DType[] {DType.FLOAT32, DType.FLOAT16}) {
      Operation.Stage st = new NormalizeImage(mean, std, type).plan(RGB);
      assertThat(st.output()).isEqualTo(TensorSpec.of(type, H, W, 3));
      ByteBuffer out = ByteBuffer.allocate(st.output().bytes()).order(ByteOrder.LITTLE_ENDIAN);
      st.apply(bytes(img, 0), 0, out, 0, ctx(0));
      for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
          for (int c = 0; c < 3; c++) {
            float expected = (float) ((img[y][x][c] - mean[c]) / std[c]);
            int i = (y * W + x) * 3 + c;
            if (type == DType.FLOAT32) {
              assertThat(out.getFloat(4 * i)).isEqualTo(expected);
            } else {
              assertThat(out.getShort(2 * i)).isEqualTo(Float16.fromFloat(expected));
              assertThat(Float16.toFloat(out.getShort(2 * i))).isCloseTo(expected, org.assertj.core.data.Offset.offset(0.002f));
            }
          }
        }
      }
    }
  }

  @Test
  void replaceLabelChangesOnlyListedSamples() {
    Operation.Stage st = new ReplaceLabel(new long[] {7, 3}, 99).plan(TensorSpec.of(DType.INT64, 1));
    assertThat(st.inPlace()).isTrue();
    for (long s : new long[] {3, 4, 7}) {
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 5);
      st.apply(b, 0, b, 0, ctx(s));
      assertThat(b.getLong(0)).isEqualTo(s == 4 ? 5 : 99);
    }
  }

  @Test
  void plansRefuseWrongInputsSayingWhatTheyExpected() {
    TensorSpec f32 = TensorSpec.of(DType.FLOAT32, 4, 4, 3);
    assertThatThrownBy(() -> new NormalizeImage(new double[3], new double[] {1, 1, 1}, DType.FLOAT32).plan(f32))
        .hasMessage("NormalizeImage expects a uint8 [H, W, 3] image, got float32[4, 4, 3]");
    assertThatThrownBy(() -> new Cutout(10).plan(RGB)).hasMessage("Cutout square of 10 does not fit a 9x7 image");
    assertThatThrownBy(() -> new ReplaceLabel(new long[0], 1).plan(RGB))
        .hasMessage("ReplaceLabel expects an int64 [1] label, got uint8[7, 9, 3]");
    assertThatThrownBy(() -> new ToChannelsFirst().plan(TensorSpec.of(DType.INT64, 1)))
        .hasMessage("ToChannelsFirst expects an [H, W, C] image, got int64[1]");
    assertThatThrownBy(() -> new RandomHorizontalFlip(1.5))
        .hasMessage("RandomHorizontalFlip probability must be in [0, 1], got 1.5");
    assertThatThrownBy(() -> new Cutout(2, 1, 2))
        .hasMessage("Cutout fill needs 3 values (R, G, B), got 2");
    assertThatThrownBy(() -> new NormalizeImage(new double[3], new double[] {1, 0, 1}, DType.FLOAT32))
        .hasMessage("NormalizeImage standard deviations must be positive finite numbers, got 0.0");
  }

  /** NaN means gave NaN pixels, an infinite deviation zeros, a tiny one infinities: each refused at build time. */
  @Test
  void normalizeRefusesNonFiniteValuesAndOutputsItsTypeCannotHold() {
    double[] mean = {123.675, 116.28, 103.53};
    double[] std = {58.395, 57.12, 57.375};
    assertThatThrownBy(() -> new NormalizeImage(new double[] {123.675, Double.NaN, 103.53}, std, DType.FLOAT32))
        .hasMessage("NormalizeImage means must be finite numbers, got NaN");
    assertThatThrownBy(() -> new NormalizeImage(mean, new double[] {58.395, Double.POSITIVE_INFINITY, 57.375},
        DType.FLOAT32)).hasMessage("NormalizeImage standard deviations must be positive finite numbers, got Infinity");
    assertThatThrownBy(() -> new NormalizeImage(mean, new double[] {1e-40, 57.12, 57.375}, DType.FLOAT32))
        .hasMessageStartingWith("NormalizeImage channel 0 (mean 123.675, standard deviation 1.0E-40) gives values up"
            + " to 1.31325")
        .hasMessageEndingWith("E42, more than " + DType.FLOAT32 + " holds (3.4028234663852886E38)");
    assertThatThrownBy(() -> new NormalizeImage(mean, new double[] {0.001, 57.12, 57.375}, DType.FLOAT16))
        .hasMessageStartingWith("NormalizeImage channel 0 (mean 123.675, standard deviation 0.001) gives values up to"
            + " 131325");
    new NormalizeImage(mean, new double[] {0.01, 57.12, 57.375}, DType.FLOAT32); // large, but float32 holds it
  }

  @Test
  void normalizeRefusesTorchvisionZeroToOneUnitsShowingThe255Values() {
    assertThatThrownBy(() -> new NormalizeImage(new double[] {0.485, 0.456, 0.406}, new double[] {0.229, 0.224, 0.225},
        DType.FLOAT16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NormalizeImage got means [0.485, 0.456, 0.406] and standard deviations [0.229, 0.224, 0.225],"
            + " torchvision's units for images scaled to 0..1; its input is uint8 pixels (0..255), so values would"
            + " reach 1136. Give them in 0..255 units, as FFCV: means [123.675, 116.28, 103.53], standard deviations"
            + " [58.395, 57.12, 57.375]");
    assertThatThrownBy(() -> new NormalizeImage(new double[] {0.5, 0.5, 0.5}, new double[] {0.5, 0.5, 0.5},
        DType.FLOAT32))
        .hasMessageContaining("values would reach 509. Give them in 0..255 units, as FFCV: means [127.5, 127.5, 127.5]");
    // 0..255 units are taken, and so are a plain conversion to float (mean 0, std 1) and scaling to 0..1
    for (double[][] ok : new double[][][] {{{123.675, 116.28, 103.53}, {58.395, 57.12, 57.375}}, {{0, 0, 0}, {1, 1, 1}},
        {{0, 0, 0}, {255, 255, 255}}, {{0.5, 0.5, 0.5}, {0.5, 0.5, 2}}}) {
      Operation.Stage st = new NormalizeImage(ok[0], ok[1], DType.FLOAT32).plan(RGB);
      ByteBuffer in = ByteBuffer.allocate(RGB.bytes());
      in.put(0, (byte) 255);
      ByteBuffer out = ByteBuffer.allocate(st.output().bytes()).order(ByteOrder.LITTLE_ENDIAN);
      st.apply(in, 0, out, 0, ctx(0));
      assertThat(out.getFloat(0)).isEqualTo((float) ((255 - ok[0][0]) / ok[1][0]));
    }
  }
}
