package org.sparkbeton.loader.decoders;

import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** A Float field as float64 [1] (FFCV's {@code FloatDecoder}). */
public final class FloatDecoder implements Decoder {
  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.FLOAT);
    return new IntDecoder.ScalarStage(field, TensorSpec.of(DType.FLOAT64, 1));
  }
}
