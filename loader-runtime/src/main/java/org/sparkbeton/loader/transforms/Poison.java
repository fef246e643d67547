package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code Poison(mask, alpha, indices, clamp)}: for the listed samples (dataset indices),
 * {@code x ← uint8(clip(float32(float32(x · (1 − α)) + mask · α), lo, hi))} per pixel and channel, with
 * {@code α} an H×W opacity and {@code mask} an H×W×3 image; other samples pass unchanged. The float32
 * steps follow FFCV's in-place numpy arithmetic on a float32 temporary. uint8 [H, W, 3], in place.
 */
public final class Poison implements Operation {
  private final byte[] mask;
  private final double[] alpha;
  private final long[] indices;
  private final double lo;
  private final double hi;

  /**
   * @param mask H×W×3 uint8 values, row-major
   * @param alpha H×W opacities
   */
  public Poison(byte[] mask, double[] alpha, long[] indices, double lo, double hi) {
    if (mask.length != alpha.length * 3) {
      throw new IllegalArgumentException("Poison mask has " + mask.length + " values; expected 3 per alpha value ("
          + alpha.length * 3 + ")");
    }
    if (!(lo <= hi)) {
      throw new IllegalArgumentException("Poison clamp range [" + lo + ", " + hi + "] is empty");
    }
    this.mask = mask.clone();
    this.alpha = alpha.clone();
    this.indices = indices.clone();
    Arrays.sort(this.indices);
    this.lo = lo;
    this.hi = hi;
  }

  public Poison(byte[] mask, double[] alpha, long[] indices) {
    this(mask, alpha, indices, 0, 255);
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    int pixels = input.dim(0) * input.dim(1);
    if (pixels != alpha.length) {
      throw new IllegalArgumentException("Poison mask and alpha are for " + alpha.length + " pixels, the image has "
          + input.dim(1) + "x" + input.dim(0) + " = " + pixels);
    }
    double[] weighted = new double[mask.length]; // mask * alpha, per channel
    for (int i = 0; i < mask.length; i++) {
      weighted[i] = (mask[i] & 0xff) * alpha[i / 3];
    }
    return new TransformStage.PerSample(input, TransformStage.Writes.IN_PLACE) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        byte[] src = in.array();
        byte[] dst = out.array();
        int s = in.arrayOffset() + inOffset;
        int d = out.arrayOffset() + outOffset;
        if (Arrays.binarySearch(indices, ctx.sample()) < 0) {
          copyIfDistinct(in, inOffset, out, outOffset, weighted.length);
          return;
        }
        for (int i = 0; i < weighted.length; i++) {
          float t = (float) ((src[s + i] & 0xff) * (1 - alpha[i / 3]));
          t = (float) (t + weighted[i]);
          double v = Math.max(lo, Math.min(hi, t));
          dst[d + i] = (byte) (int) v;
        }
      }
    };
  }
}
