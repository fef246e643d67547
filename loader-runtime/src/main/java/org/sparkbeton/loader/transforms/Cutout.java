package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * Fills one random {@code size × size} square, kept fully inside the image, with {@code fill}
 * (FFCV's {@code Cutout}). uint8 [H, W, 3], in place.
 */
public final class Cutout implements Operation {
  private final int size;
  private final RgbFill fill;

  public Cutout(int size) {
    this(size, 0, 0, 0);
  }

  public Cutout(int size, int... fill) {
    if (size < 1) {
      throw new IllegalArgumentException("Cutout size must be at least 1, got " + size);
    }
    this.size = size;
    this.fill = RgbFill.of(name(), fill);
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    int h = input.dim(0);
    int w = input.dim(1);
    if (size > h || size > w) {
      throw new IllegalArgumentException("Cutout square of " + size + " does not fit a " + w + "x" + h + " image");
    }
    byte r = fill.r();
    byte g = fill.g();
    byte b = fill.b();
    int c = size;
    return new TransformStage.PerSample(input, TransformStage.Writes.IN_PLACE) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        copyIfDistinct(in, inOffset, out, outOffset, input.bytes());
        SampleRandom rnd = ctx.random();
        int y0 = rnd.nextInt(0, h - c);
        int x0 = rnd.nextInt(0, w - c);
        for (int y = y0; y < y0 + c; y++) {
          RgbFill.paint(out, outOffset + (y * w + x0) * 3, c, r, g, b);
        }
      }
    };
  }
}
