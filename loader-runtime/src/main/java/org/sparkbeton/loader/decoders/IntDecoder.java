package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** An Int field as int64 [1] (FFCV's {@code IntDecoder}). */
public final class IntDecoder implements Decoder {
  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.INT);
    return new ScalarStage(field, TensorSpec.of(DType.INT64, 1));
  }

  /** Copies the 8 metadata bytes of a scalar field. */
  static final class ScalarStage implements Stage {
    private final FieldSource field;
    private final TensorSpec output;

    ScalarStage(FieldSource field, TensorSpec output) {
      this.field = field;
      this.output = output;
    }

    @Override
    public TensorSpec output() {
      return output;
    }

    @Override
    public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx) {
      out.putLong(offset, field.records(sample).getLong(field.at(sample)));
    }
  }
}
