package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.NumpyDtype;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** An NDArray or TorchTensor field with its own shape and dtype (a copy of the stored bytes). */
public final class NdArrayDecoder implements Decoder {
  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.NDARRAY, FieldTypes.TORCH_TENSOR);
    NdArrayField codec = (NdArrayField) field.field().codec();
    long[] shape = codec.shape();
    int[] dims = new int[shape.length];
    for (int i = 0; i < dims.length; i++) {
      if (shape[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("field '" + field.name() + "' has dimension " + shape[i] + ", too large");
      }
      dims[i] = (int) shape[i];
    }
    TensorSpec spec = TensorSpec.of(dtypeOf(codec.dtype(), field.name()), dims);
    return new Stage() {
      @Override
      public TensorSpec output() {
        return spec;
      }

      @Override
      public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx) {
        long ptr = field.records(sample).getLong(field.at(sample));
        field.copyPayload(sample, ptr, spec.bytes(), out, offset);
      }
    };
  }

  static DType dtypeOf(NumpyDtype d, String field) {
    boolean little = d.byteOrder() != '>' || d.itemSize() == 1;
    DType t = !little || !d.unit().isEmpty() ? null : switch (d.kind() + "" + d.itemSize()) {
      case "u1", "b1" -> DType.UINT8;
      case "i1" -> DType.INT8;
      case "i2" -> DType.INT16;
      case "i4" -> DType.INT32;
      case "i8" -> DType.INT64;
      case "f2" -> DType.FLOAT16;
      case "f4" -> DType.FLOAT32;
      case "f8" -> DType.FLOAT64;
      default -> null;
    };
    if (t == null) {
      throw new IllegalArgumentException("field '" + field + "' has dtype " + d
          + "; NdArrayDecoder supports little-endian u1, b1, i1, i2, i4, i8, f2, f4, f8");
    }
    return t;
  }
}
