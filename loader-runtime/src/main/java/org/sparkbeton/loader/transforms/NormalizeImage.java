package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.PixelOperation;
import org.sparkbeton.loader.pipeline.PixelStage;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code NormalizeImage(mean, std, type)}: uint8 [H, W, 3] → float32 or float16 [H, W, 3],
 * {@code (v - mean[c]) / std[c]} with mean and std in 0–255 units, through a 256×3 lookup table
 * computed when planning. float16 is rounded to nearest even from the float32 value. Fused, it is a
 * value mapping: the table entry replaces the value.
 */
public final class NormalizeImage implements PixelOperation {
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
  public PixelStage planPixels(TensorSpec input) {
    Images.requireRgb(name(), input);
    TensorSpec output = TensorSpec.of(type, input.shape());
    return new PixelStage() {
      @Override
      public TensorSpec output() {
        return output;
      }

      @Override
      public void mapValues(float[][] table) {
        for (int c = 0; c < 3; c++) {
          for (int v = 0; v < 256; v++) {
            table[c][v] = normalized((int) table[c][v], c); // uint8 in: the entries are integers 0..255
          }
        }
      }
    };
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireRgb(name(), input);
    TensorSpec output = TensorSpec.of(type, input.shape());
    int pixels = (int) (input.elements() / 3);
    float[][] table = new float[3][256];
    short[][] halves = new short[3][256];
    for (int c = 0; c < 3; c++) {
      for (int v = 0; v < 256; v++) {
        table[c][v] = normalized(v, c);
        halves[c][v] = Float16.fromFloat(table[c][v]);
      }
    }
    float[] r = table[0];
    float[] g = table[1];
    float[] b = table[2];
    if (type == DType.FLOAT32) {
      return new Stage() {
        @Override
        public TensorSpec output() {
          return output;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          byte[] src = in.array();
          byte[] dst = out.array();
          int s = in.arrayOffset() + inOffset;
          int d = out.arrayOffset() + outOffset;
          for (int p = 0; p < pixels; p++, s += 3, d += 12) {
            ArrayViews.FLOATS.set(dst, d, r[src[s] & 0xff]);
            ArrayViews.FLOATS.set(dst, d + 4, g[src[s + 1] & 0xff]);
            ArrayViews.FLOATS.set(dst, d + 8, b[src[s + 2] & 0xff]);
          }
        }
      };
    }
    short[] hr = halves[0];
    short[] hg = halves[1];
    short[] hb = halves[2];
    return new Stage() {
      @Override
      public TensorSpec output() {
        return output;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        byte[] src = in.array();
        byte[] dst = out.array();
        int s = in.arrayOffset() + inOffset;
        int d = out.arrayOffset() + outOffset;
        for (int p = 0; p < pixels; p++, s += 3, d += 6) {
          ArrayViews.SHORTS.set(dst, d, hr[src[s] & 0xff]);
          ArrayViews.SHORTS.set(dst, d + 2, hg[src[s + 1] & 0xff]);
          ArrayViews.SHORTS.set(dst, d + 4, hb[src[s + 2] & 0xff]);
        }
      }
    };
  }
}
