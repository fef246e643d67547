package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * A Bytes (or JSON) field as uint8 [maxSize], maxSize over the samples the loader reads, each row
 * zero-padded (FFCV leaves stale bytes), with the value's length in the batch's lengths column.
 */
public class BytesDecoder implements Decoder {
  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.BYTES, FieldTypes.JSON);
    long[] largest = {0};
    field.scan((s, rec, at) -> largest[0] = Math.max(largest[0], rec.getLong(at + 8)));
    long max = largest[0];
    if (max > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("field '" + field.name() + "' holds a value of " + max + " bytes, too large to batch");
    }
    return new BytesStage(field, (int) max, trailingBytes());
  }

  /** Bytes at the end of each stored value that are not part of it (JSON's NUL). */
  int trailingBytes() {
    return 0;
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
      if (size > maxSize) {
        throw new IllegalStateException("Sample " + sample + " of field '" + field.name() + "' holds " + size
            + " bytes, more than the " + maxSize + " planned: it was not among the samples scanned when planning");
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
