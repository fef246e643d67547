package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** Mirrors an [H, W, C] image left-right with probability {@code p} (FFCV, default 0.5). In place. */
public final class RandomHorizontalFlip implements Operation {
  private final double p;

  public RandomHorizontalFlip() {
    this(0.5);
  }

  public RandomHorizontalFlip(double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("RandomHorizontalFlip probability must be in [0, 1], got " + p);
    }
    this.p = p;
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireHwc(name(), input);
    int h = input.dim(0);
    int pixel = input.dim(2) * input.dtype().size();
    int row = input.dim(1) * pixel;
    double prob = p;
    return new Stage() {
      @Override
      public TensorSpec output() {
        return input;
      }

      @Override
      public boolean inPlace() {
        return true;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        boolean flip = ctx.random().nextDouble() < prob;
        if (!flip) {
          if (in != out || inOffset != outOffset) {
            out.put(outOffset, in, inOffset, h * row);
          }
          return;
        }
        for (int y = 0; y < h; y++) {
          int src = inOffset + y * row;
          int dst = outOffset + y * row;
          for (int l = 0, r = row - pixel; l <= r; l += pixel, r -= pixel) {
            for (int b = 0; b < pixel; b++) {
              byte left = in.get(src + l + b);
              byte right = in.get(src + r + b);
              out.put(dst + l + b, right);
              out.put(dst + r + b, left);
            }
          }
        }
      }
    };
  }
}
