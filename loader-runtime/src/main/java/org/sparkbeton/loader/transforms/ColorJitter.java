package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's RandomBrightness / RandomContrast / RandomSaturation (docs/format.md#transforms) on uint8 [H, W, 3]: with
 * probability {@code p}, a factor {@code f ~ U[max(0, 1 - m), 1 + m]} and
 * {@code out = clip(f * x + (1 - f) * base, 0, 255)} truncated to uint8, where base is 0
 * (brightness), the image's mean luma (contrast) or the pixel's luma (saturation); luma is
 * {@code uint8(0.2989 R + 0.587 G + 0.114 B)}. In place.
 */
abstract class ColorJitter implements Operation {
  private final double magnitude;
  private final double p;

  ColorJitter(double magnitude, double p) {
    if (!(magnitude >= 0) || !(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(name() + " needs magnitude >= 0 and p in [0, 1], got " + magnitude + " and " + p);
    }
    this.magnitude = magnitude;
    this.p = p;
  }

  /** 0 = brightness, 1 = contrast, 2 = saturation. */
  abstract int kind();

  static int luma(byte[] a, int at) {
    return (int) (0.2989 * (a[at] & 0xff) + 0.587 * (a[at + 1] & 0xff) + 0.114 * (a[at + 2] & 0xff));
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    int pixels = (int) (input.elements() / 3);
    int kind = kind();
    double lo = Math.max(0, 1 - magnitude);
    double hi = 1 + magnitude;
    double prob = p;
    return new TransformStage.PerSample(input, TransformStage.Writes.IN_PLACE) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        byte[] src = in.array();
        byte[] dst = out.array();
        int s0 = in.arrayOffset() + inOffset;
        int d0 = out.arrayOffset() + outOffset;
        SampleRandom r = ctx.random();
        boolean apply = r.nextDouble() < prob;
        double f = lo + (hi - lo) * r.nextDouble();
        if (!apply) {
          copyIfDistinct(in, inOffset, out, outOffset, pixels * 3);
          return;
        }
        double base = 0;
        if (kind == 1) {
          long sum = 0;
          for (int i = 0; i < pixels; i++) {
            sum += luma(src, s0 + 3 * i);
          }
          base = (double) sum / pixels;
        }
        for (int i = 0; i < pixels; i++) {
          int at = 3 * i;
          double b = kind == 2 ? luma(src, s0 + at) : base;
          double offset = (1 - f) * b;
          for (int c = 0; c < 3; c++) {
            double v = f * (src[s0 + at + c] & 0xff) + offset;
            dst[d0 + at + c] = (byte) (v <= 0 ? 0 : v >= 255 ? 255 : (int) v);
          }
        }
      }
    };
  }
}
