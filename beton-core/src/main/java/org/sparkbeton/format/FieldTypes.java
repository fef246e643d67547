package org.sparkbeton.format;

import java.util.Map;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.JsonField;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.RgbImageField;

/** The type-id registry of FFCV's built-in fields ({@code TYPE_ID_HANDLER} in ffcv/types.py). */
public final class FieldTypes {
  public static final int FLOAT = 0;
  public static final int INT = 1;
  public static final int RGB_IMAGE = 2;
  public static final int BYTES = 3;
  public static final int NDARRAY = 4;
  public static final int JSON = 5;
  public static final int TORCH_TENSOR = 6;
  /** FFCV's id for any field class that is not exactly one of the built-ins. */
  public static final int CUSTOM = 255;

  private static final Map<Integer, FieldCodecFactory> BUILT_IN = Map.of(
      FLOAT, args -> FloatField.INSTANCE,
      INT, args -> IntField.INSTANCE,
      RGB_IMAGE, args -> RgbImageField.INSTANCE,
      BYTES, args -> BytesField.INSTANCE,
      NDARRAY, args -> NdArrayField.fromArguments(NDARRAY, args),
      JSON, args -> JsonField.INSTANCE,
      TORCH_TENSOR, args -> NdArrayField.fromArguments(TORCH_TENSOR, args));

  private FieldTypes() {}

  /** The factory for a built-in type id, or null when the id is not built in (255 or unknown). */
  public static FieldCodecFactory builtIn(int typeId) {
    return BUILT_IN.get(typeId);
  }

  public static String name(int typeId) {
    return switch (typeId) {
      case FLOAT -> "Float";
      case INT -> "Int";
      case RGB_IMAGE -> "RGBImage";
      case BYTES -> "Bytes";
      case NDARRAY -> "NDArray";
      case JSON -> "JSON";
      case TORCH_TENSOR -> "TorchTensor";
      case CUSTOM -> "Custom";
      default -> "Unknown(" + typeId + ")";
    };
  }
}
