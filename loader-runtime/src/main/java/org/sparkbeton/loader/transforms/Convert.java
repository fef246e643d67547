package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * Converts every element to {@code target} (FFCV's {@code Convert}, torch {@code tensor.type}):
 * numeric value kept; floats to integers truncate toward zero and saturate at the type's range (torch
 * leaves out-of-range values undefined); integers narrow by keeping the low bits, as torch does.
 */
public final class Convert implements Operation {
  private final DType target;

  public Convert(DType target) {
    this.target = java.util.Objects.requireNonNull(target, "target");
  }

  @Override
  public String name() {
    return "Convert(" + target + ")";
  }

  @Override
  public Stage plan(TensorSpec input) {
    TensorSpec output = input.withDType(target);
    DType from = input.dtype();
    int n = (int) input.elements();
    return new TransformStage.PerSample(output, TransformStage.Writes.SEPARATE_OUTPUT) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        int fs = from.size();
        int ts = target.size();
        boolean floating = from == DType.FLOAT16 || from == DType.FLOAT32 || from == DType.FLOAT64;
        for (int i = 0; i < n; i++) {
          int at = inOffset + i * fs;
          int to = outOffset + i * ts;
          if (floating) {
            writeDouble(out, to, readDouble(in, at, from));
          } else {
            writeLong(out, to, readLong(in, at, from));
          }
        }
      }
    };
  }

  static double readDouble(ByteBuffer b, int at, DType t) {
    return switch (t) {
      case FLOAT16 -> Float16.toFloat(b.getShort(at));
      case FLOAT32 -> b.getFloat(at);
      case FLOAT64 -> b.getDouble(at);
      default -> readLong(b, at, t);
    };
  }

  static long readLong(ByteBuffer b, int at, DType t) {
    return switch (t) {
      case UINT8 -> b.get(at) & 0xff;
      case INT8 -> b.get(at);
      case INT16 -> b.getShort(at);
      case INT32 -> b.getInt(at);
      case INT64 -> b.getLong(at);
      default -> (long) readDouble(b, at, t);
    };
  }

  private void writeLong(ByteBuffer b, int at, long v) {
    switch (target) {
      case UINT8, INT8 -> b.put(at, (byte) v);
      case INT16 -> b.putShort(at, (short) v);
      case INT32 -> b.putInt(at, (int) v);
      case INT64 -> b.putLong(at, v);
      default -> writeDouble(b, at, v);
    }
  }

  private void writeDouble(ByteBuffer b, int at, double v) {
    switch (target) {
      case FLOAT16 -> b.putShort(at, Float16.fromFloat((float) v));
      case FLOAT32 -> b.putFloat(at, (float) v);
      case FLOAT64 -> b.putDouble(at, v);
      case UINT8 -> b.put(at, (byte) Math.max(0, Math.min(255, (long) v)));
      case INT8 -> b.put(at, (byte) Math.max(Byte.MIN_VALUE, Math.min(Byte.MAX_VALUE, (long) v)));
      case INT16 -> b.putShort(at, (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, (long) v)));
      case INT32 -> b.putInt(at, (int) v);
      default -> b.putLong(at, (long) v);
    }
  }
}
