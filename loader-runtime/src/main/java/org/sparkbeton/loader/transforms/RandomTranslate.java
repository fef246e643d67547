package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code RandomTranslate(padding, fill)}: pads the image by {@code padding} on every side
 * with {@code fill}, then crops the original size at a random offset in [0, 2·padding] per axis.
 * uint8 [H, W, 3]; writes a new buffer (no padded intermediate is materialised).
 */
public final class RandomTranslate implements Operation {
  private final int padding;
  private final int[] fill;

  public RandomTranslate(int padding) {
    this(padding, 0, 0, 0);
  }

  public RandomTranslate(int padding, int... fill) {
    if (padding < 0) {
      throw new IllegalArgumentException("RandomTranslate padding must be >= 0, got " + padding);
    }
    this.padding = padding;
    this.fill = Images.rgb(name(), "fill", fill);
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    int h = input.dim(0);
    int w = input.dim(1);
    int pad = padding;
    byte r = (byte) fill[0];
    byte g = (byte) fill[1];
    byte b = (byte) fill[2];
    return new Stage() {
      @Override
      public TensorSpec output() {
        return input;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        SampleRandom rnd = ctx.random();
        int dy = rnd.nextInt(0, 2 * pad) - pad; // output (y, x) shows input (y + dy, x + dx)
        int dx = rnd.nextInt(0, 2 * pad) - pad;
        int xFrom = Math.max(0, -dx);
        int xTo = Math.min(w, w - dx); // exclusive range of x whose source column is inside
        for (int y = 0; y < h; y++) {
          int sy = y + dy;
          int row = outOffset + y * w * 3;
          if (sy < 0 || sy >= h || xFrom >= xTo) {
            fillRun(out, row, w, r, g, b);
            continue;
          }
          fillRun(out, row, xFrom, r, g, b);
          out.put(row + xFrom * 3, in, inOffset + (sy * w + xFrom + dx) * 3, (xTo - xFrom) * 3);
          fillRun(out, row + xTo * 3, w - xTo, r, g, b);
        }
      }
    };
  }

  private static void fillRun(ByteBuffer out, int at, int pixels, byte r, byte g, byte b) {
    for (int i = 0; i < pixels; i++, at += 3) {
      out.put(at, r);
      out.put(at + 1, g);
      out.put(at + 2, b);
    }
  }
}
