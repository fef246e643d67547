package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.PixelOperation;
import org.sparkbeton.loader.pipeline.PixelStage;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * Mirrors an [H, W, C] image left-right with probability {@code p} (FFCV, default 0.5). Fused, it is a
 * coordinate mapping: a flipped sample reads column {@code W - 1 - x}.
 */
public final class RandomHorizontalFlip implements PixelOperation {
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
  public PixelStage planPixels(TensorSpec input) {
    Images.requireHwc(name(), input);
    int width = input.dim(1);
    double prob = p;
    return new PixelStage() {
      private boolean flip;

      @Override
      public TensorSpec output() {
        return input;
      }

      @Override
      public void begin(SampleContext ctx) {
        flip = ctx.random().nextDouble() < prob; // the draw apply makes
      }

      @Override
      public void mapColumns(int[] columns) {
        if (flip) {
          for (int x = 0; x < columns.length; x++) {
            columns[x] = width - 1 - columns[x];
          }
        }
      }
    };
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireHwc(name(), input);
    int h = input.dim(0);
    int pixel = input.dim(2) * input.dtype().size();
    int row = input.dim(1) * pixel;
    double prob = p;
    return new TransformStage.PerSample(input, TransformStage.Writes.SEPARATE_OUTPUT) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        boolean flip = ctx.random().nextDouble() < prob;
        byte[] src = in.array();
        byte[] dst = out.array();
        int s0 = in.arrayOffset() + inOffset;
        int d0 = out.arrayOffset() + outOffset;
        if (!flip) {
          System.arraycopy(src, s0, dst, d0, h * row);
        } else if (pixel == 3) {
          for (int y = 0; y < h; y++) {
            int s = s0 + y * row + row - 3;
            int d = d0 + y * row;
            for (int x = 0; x < row; x += 3, s -= 3) {
              dst[d + x] = src[s];
              dst[d + x + 1] = src[s + 1];
              dst[d + x + 2] = src[s + 2];
            }
          }
        } else {
          for (int y = 0; y < h; y++) {
            int s = s0 + y * row + row - pixel;
            int d = d0 + y * row;
            for (int x = 0; x < row; x += pixel, s -= pixel) {
              System.arraycopy(src, s, dst, d + x, pixel);
            }
          }
        }
      }
    };
  }
}
