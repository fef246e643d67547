package org.sparkbeton.loader.djl;

import ai.djl.ndarray.types.DataType;
import org.sparkbeton.loader.pipeline.DType;

/** The loader's element types as DJL's: the same bytes, little-endian, so an NDArray can wrap a slot as it is. */
final class DataTypes {
  private DataTypes() {}

  static DataType of(DType type) {
    return switch (type) {
      case UINT8 -> DataType.UINT8;
      case INT8 -> DataType.INT8;
      case INT16 -> DataType.INT16;
      case INT32 -> DataType.INT32;
      case INT64 -> DataType.INT64;
      case FLOAT16 -> DataType.FLOAT16;
      case FLOAT32 -> DataType.FLOAT32;
      case FLOAT64 -> DataType.FLOAT64;
    };
  }
}
