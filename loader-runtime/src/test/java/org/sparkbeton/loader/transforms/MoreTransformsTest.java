package org.sparkbeton.loader.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.sparkbeton.loader.transforms.TransformReferenceTest.H;
import static org.sparkbeton.loader.transforms.TransformReferenceTest.W;
import static org.sparkbeton.loader.transforms.TransformReferenceTest.ctx;
import static org.sparkbeton.loader.transforms.TransformReferenceTest.image;
import static org.sparkbeton.loader.transforms.TransformReferenceTest.run;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleRandom;
import org.sparkbeton.loader.pipeline.TensorSpec;

class MoreTransformsTest {

  static int luma(int[] px) {
    return (int) (0.2989 * px[0] + 0.587 * px[1] + 0.114 * px[2]);
  }

  /** Reference for the three colour jitters: kind 0 brightness, 1 contrast, 2 saturation. */
  static int[][][] jitter(int[][][] img, int kind, double m, double p, long sample) {
    SampleRandom r = ctx(sample).random();
    boolean apply = r.nextDouble() < p;
    double lo = Math.max(0, 1 - m);
    double f = lo + (1 + m - lo) * r.nextDouble();
    if (!apply) {
      return img;
    }
    double mean = 0;
    for (int[][] row : img) {
      for (int[] px : row) {
        mean += luma(px);
      }
    }
    mean /= H * W;
    int[][][] out = new int[H][W][3];
    for (int y = 0; y < H; y++) {
      for (int x = 0; x < W; x++) {
        double base = kind == 0 ? 0 : kind == 1 ? mean : luma(img[y][x]);
        for (int c = 0; c < 3; c++) {
          double v = f * img[y][x][c] + (1 - f) * base;
          out[y][x][c] = (int) Math.max(0, Math.min(255, v));
        }
      }
    }
    return out;
  }

  @Test
  void brightnessContrastAndSaturationMatchTheirFormulas() {
    Operation[] ops = {new RandomBrightness(0.4), new RandomContrast(0.4), new RandomSaturation(0.4)};
    for (int kind = 0; kind < 3; kind++) {
      int applied = 0;
      for (long s = 0; s < 30; s++) {
        int[][][] img = image(s);
        int[][][] expected = jitter(img, kind, 0.4, 0.5, s);
        assertThat(run(ops[kind], img, s)).as("%s sample %d", ops[kind].name(), s).isEqualTo(expected);
        applied += expected == img ? 0 : 1;
      }
      assertThat(applied).as("applied about half the time").isBetween(7, 23);
    }
    assertThatThrownBy(() -> new RandomContrast(-1))
        .hasMessage("RandomContrast needs magnitude >= 0 and p in [0, 1], got -1.0 and 0.5");
  }

  @Test
  void convertKeepsValuesTruncatesAndSaturates() {
    TensorSpec f32 = TensorSpec.of(DType.FLOAT32, 4);
    ByteBuffer in = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
        .putFloat(0, -3.7f).putFloat(4, 300.2f).putFloat(8, 12.9f).putFloat(12, 0.1f);
    Operation.Stage toU8 = new Convert(DType.UINT8).plan(f32);
    assertThat(toU8.output()).isEqualTo(TensorSpec.of(DType.UINT8, 4));
    ByteBuffer out = ByteBuffer.allocate(4);
    toU8.apply(in, 0, out, 0, ctx(0));
    assertThat(new int[] {out.get(0) & 0xff, out.get(1) & 0xff, out.get(2) & 0xff, out.get(3) & 0xff})
        .containsExactly(0, 255, 12, 0);
    Operation.Stage toF16 = new Convert(DType.FLOAT16).plan(f32);
    ByteBuffer half = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    toF16.apply(in, 0, half, 0, ctx(0));
    assertThat(half.getShort(6)).isEqualTo(Float16.fromFloat(0.1f));

    ByteBuffer u8 = ByteBuffer.wrap(new byte[] {(byte) 200, 7});
    ByteBuffer f = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    new Convert(DType.FLOAT32).plan(TensorSpec.of(DType.UINT8, 2)).apply(u8, 0, f, 0, ctx(0));
    assertThat(f.getFloat(0)).isEqualTo(200f);
    assertThat(f.getFloat(4)).isEqualTo(7f);

    ByteBuffer l = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 70_000L);
    ByteBuffer s = ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN);
    new Convert(DType.INT16).plan(TensorSpec.of(DType.INT64, 1)).apply(l, 0, s, 0, ctx(0));
    assertThat(s.getShort(0)).isEqualTo((short) 70_000); // low bits, as torch
  }

  @Test
  void poisonBlendsListedSamplesOnly() {
    byte[] mask = new byte[H * W * 3];
    double[] alpha = new double[H * W];
    for (int i = 0; i < alpha.length; i++) {
      alpha[i] = (i % 4) / 3.0;
      for (int c = 0; c < 3; c++) {
        mask[3 * i + c] = (byte) (250 - 20 * c);
      }
    }
    Poison op = new Poison(mask, alpha, new long[] {9, 2}, 10, 240);
    for (long s : new long[] {2, 5, 9}) {
      int[][][] img = image(s);
      int[][][] expected = new int[H][W][3];
      for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
          for (int c = 0; c < 3; c++) {
            double a = alpha[y * W + x];
            double v = (float) ((float) (img[y][x][c] * (1 - a)) + (mask[(y * W + x) * 3 + c] & 0xff) * a);
            expected[y][x][c] = s == 5 ? img[y][x][c] : (int) Math.max(10, Math.min(240, v));
          }
        }
      }
      assertThat(run(op, img, s)).as("sample %d", s).isEqualTo(expected);
    }
    assertThatThrownBy(() -> new Poison(new byte[6], new double[3], new long[0]))
        .hasMessage("Poison mask has 6 values; expected 3 per alpha value (9)");
    assertThatThrownBy(() -> new Poison(new byte[9], new double[3], new long[0]).plan(TensorSpec.image(2, 2)))
        .hasMessage("Poison mask and alpha are for 3 pixels, the image has 2x2 = 4");
  }

  @Test
  void squeezeDropsUnitDimensionsWithoutMovingData() {
    assertThat(new Squeeze().plan(TensorSpec.of(DType.INT64, 1)).output()).isEqualTo(TensorSpec.of(DType.INT64));
    Operation.Stage st = new Squeeze().plan(TensorSpec.of(DType.UINT8, 1, 5, 1, 2));
    assertThat(st.output()).isEqualTo(TensorSpec.of(DType.UINT8, 5, 2));
    assertThat(st.inPlace()).isTrue();
  }
}
