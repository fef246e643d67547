package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code NormalizeImage(mean, std, type)}: uint8 [H, W, 3] → float32 or float16 [H, W, 3],
 * {@code (v - mean[c]) / std[c]} with mean and std in 0–255 units, through a 256×3 lookup table
 * computed when planning. float16 is rounded to nearest even from the float32 value.
 */
public final class NormalizeImage implements Operation {
  private final double[] mean;
  private final double[] std;
  private final DType type;

  public NormalizeImage(double[] mean, double[] std, DType type) {
    if (mean.length != 3 || std.length != 3) {
      throw new IllegalArgumentException("NormalizeImage needs 3 means and 3 standard deviations, got "
          + mean.length + " and " + std.length);
    }
    for (double s : std) {
      if (!(s > 0)) {
        throw new IllegalArgumentException("NormalizeImage standard deviations must be positive, got " + s);
      }
    }
    if (type != DType.FLOAT32 && type != DType.FLOAT16) {
      throw new IllegalArgumentException("NormalizeImage outputs FLOAT32 or FLOAT16, not " + type);
    }
    this.mean = mean.clone();
    this.std = std.clone();
    this.type = type;
  }

  /** The table entry for value {@code v} of channel {@code c}. */
  float normalized(int v, int c) {
    return (float) ((v - mean[c]) / std[c]);
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    TensorSpec output = TensorSpec.of(type, input.shape());
    int values = (int) input.elements();
    if (type == DType.FLOAT32) {
      float[] lut = new float[256 * 3];
      for (int v = 0; v < 256; v++) {
        for (int c = 0; c < 3; c++) {
          lut[v * 3 + c] = normalized(v, c);
        }
      }
      return new Stage() {
        @Override
        public TensorSpec output() {
          return output;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          for (int i = 0, c = 0; i < values; i++, c = c == 2 ? 0 : c + 1) {
            out.putFloat(outOffset + 4 * i, lut[(in.get(inOffset + i) & 0xff) * 3 + c]);
          }
        }
      };
    }
    short[] lut = new short[256 * 3];
    for (int v = 0; v < 256; v++) {
      for (int c = 0; c < 3; c++) {
        lut[v * 3 + c] = Float16.fromFloat(normalized(v, c));
      }
    }
    return new Stage() {
      @Override
      public TensorSpec output() {
        return output;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        for (int i = 0, c = 0; i < values; i++, c = c == 2 ? 0 : c + 1) {
          out.putShort(outOffset + 2 * i, lut[(in.get(inOffset + i) & 0xff) * 3 + c]);
        }
      }
    };
  }
}
