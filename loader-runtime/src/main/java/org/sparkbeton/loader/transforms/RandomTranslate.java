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
  private final RgbFill fill;

  public RandomTranslate(int padding) {
    this(padding, 0, 0, 0);
  }

  public RandomTranslate(int padding, int... fill) {
    if (padding < 0) {
      throw new IllegalArgumentException("RandomTranslate padding must be >= 0, got " + padding);
    }
    this.padding = padding;
    this.fill = RgbFill.of(name(), fill);
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    int h = input.dim(0);
    int w = input.dim(1);
    int pad = padding;
    byte r = fill.r();
    byte g = fill.g();
    byte b = fill.b();
    return new TransformStage.PerSample(input, TransformStage.Writes.SEPARATE_OUTPUT) {
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
            RgbFill.paint(out, row, w, r, g, b);
            continue;
          }
          RgbFill.paint(out, row, xFrom, r, g, b);
          out.put(row + xFrom * 3, in, inOffset + (sy * w + xFrom + dx) * 3, (xTo - xFrom) * 3);
          RgbFill.paint(out, row + xTo * 3, w - xTo, r, g, b);
        }
      }
    };
  }
}
