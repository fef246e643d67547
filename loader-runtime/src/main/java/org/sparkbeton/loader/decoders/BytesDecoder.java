package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.pipeline.BadSampleException;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * A Bytes (or JSON) field as uint8 [maxSize], maxSize over the samples the loader reads, each row
 * zero-padded (FFCV leaves stale bytes), with the value's length in the batch's lengths column. A value whose
 * metadata claims a size larger than its allocation (or than a batch can hold) does not widen the rows: it is a
 * bad sample when read.
 */
public class BytesDecoder implements Decoder {
  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.BYTES, FieldTypes.JSON);
    long max = field.fact(BytesDecoder.class, BytesDecoder::largestPlausible); // scanned once per field source
    return new BytesStage(field, (int) max, trailingBytes());
  }

  /** The largest size among the samples' values that is plausible; others are bad samples when read. */
  private static long largestPlausible(FieldSource field) {
    long[] largest = {0};
    field.scan((s, rec, at) -> {
      long size = rec.getLong(at + 8);
      if (plausible(field, s, rec.getLong(at), size)) { // others are bad samples when read, never a row width
        largest[0] = Math.max(largest[0], size);
      }
    });
    return largest[0];
  }

  /** Bytes at the end of each stored value that are not part of it (JSON's NUL). */
  int trailingBytes() {
    return 0;
  }

  /** A size a value can have: batchable, and within the allocation its pointer names. */
  private static boolean plausible(FieldSource field, long sample, long ptr, long size) {
    if (size < 0 || size > Integer.MAX_VALUE / 2) {
      return false;
    }
    if (size == 0) {
      return true;
    }
    try {
      return size <= field.allocationSize(sample, ptr);
    } catch (RuntimeException noSuchAllocation) {
      return false;
    }
  }

  private static final class BytesStage implements Stage {
    private final FieldSource field;
    private final int maxSize;
    private final int trailing;
    private final TensorSpec output;

    BytesStage(FieldSource field, int maxSize, int trailing) {
      this.field = field;
      this.maxSize = maxSize;
      this.trailing = trailing;
      this.output = TensorSpec.of(DType.UINT8, Math.max(1, maxSize));
    }

    @Override
    public TensorSpec output() {
      return output;
    }

    @Override
    public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx) {
      ByteBuffer rec = field.records(sample);
      int at = field.at(sample);
      long ptr = rec.getLong(at);
      long size = rec.getLong(at + 8);
      if (size < 0 || size > maxSize) {
        throw new BadSampleException(field.where(sample) + ", field '" + field.name() + "': its metadata claims "
            + Long.toUnsignedString(size) + " bytes, more than the " + maxSize + " planned (the largest plausible"
            + " value among the samples scanned: within its allocation, at most " + Integer.MAX_VALUE / 2 + ")");
      }
      field.copyPayload(sample, ptr, size, out, offset);
      int length = (int) Math.max(0, size - trailing);
      for (int i = length; i < output.bytes(); i++) {
        out.put(offset + i, (byte) 0);
      }
      ctx.setLength(length);
    }
  }
}
