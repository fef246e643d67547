package org.sparkbeton.loader;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.PixelOperation;
import org.sparkbeton.loader.pipeline.PixelStage;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** Operations a user might write, each with an unfused {@code apply} and a per-pixel form. */
final class UserPixelOperations {
  private UserPixelOperations() {}

  /** Mirrors uint8 RGB images top-bottom with probability 1/2: a row coordinate mapping drawing randomness. */
  static final class RandomVerticalFlip implements PixelOperation {
    @Override
    public Stage plan(TensorSpec input) {
      requireRgb(input);
      int h = input.dim(0);
      int row = input.dim(1) * 3;
      return new Stage() {
        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          boolean flip = ctx.random().nextInt(2) == 1;
          for (int y = 0; y < h; y++) {
            int from = inOffset + (flip ? h - 1 - y : y) * row;
            out.put(outOffset + y * row, in, from, row);
          }
        }
      };
    }

    @Override
    public PixelStage planPixels(TensorSpec input) {
      requireRgb(input);
      int h = input.dim(0);
      return new PixelStage() {
        private boolean flip;

        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void begin(SampleContext ctx) {
          flip = ctx.random().nextInt(2) == 1;
        }

        @Override
        public void mapRows(int[] rows) {
          for (int y = 0; flip && y < rows.length; y++) {
            rows[y] = h - 1 - rows[y];
          }
        }
      };
    }
  }

  /**
   * Adds a random brightness offset in [-40, 40] to every channel, clamped to 0..255 (uint8 to uint8): a
   * value mapping that changes per sample.
   */
  static final class RandomBrightness implements PixelOperation {
    @Override
    public Stage plan(TensorSpec input) {
      requireRgb(input);
      int n = input.bytes();
      return new Stage() {
        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          int delta = ctx.random().nextInt(-40, 40);
          for (int i = 0; i < n; i++) {
            out.put(outOffset + i, (byte) shift(in.get(inOffset + i) & 0xff, delta));
          }
        }
      };
    }

    @Override
    public PixelStage planPixels(TensorSpec input) {
      requireRgb(input);
      return new PixelStage() {
        private int delta;

        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void begin(SampleContext ctx) {
          delta = ctx.random().nextInt(-40, 40);
        }

        @Override
        public boolean randomValues() {
          return true;
        }

        @Override
        public void mapValues(float[][] table) {
          for (float[] channel : table) {
            for (int v = 0; v < 256; v++) {
              channel[v] = shift((int) channel[v], delta);
            }
          }
        }
      };
    }

    static int shift(int v, int delta) {
      return Math.max(0, Math.min(255, v + delta));
    }
  }

  static void requireRgb(TensorSpec input) {
    if (!input.isImage(DType.UINT8, 3)) {
      throw new IllegalArgumentException("expects a uint8 [H, W, 3] image, got " + input);
    }
  }
}
