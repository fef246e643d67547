package org.sparkbeton.format.dataset;

import java.util.Arrays;
import java.util.Objects;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.NdArrayField;

/**
 * One field of a dataset as the manifest records it: name, FFCV type id, and for NDArray (4) and
 * TorchTensor (6) the numpy type string and shape. Enough to build a Spark schema without opening a
 * shard; every shard's descriptors must agree with it.
 *
 * @param dtype numpy type string such as {@code <f4}; null unless the type is 4 or 6
 * @param shape dimensions, all positive; null unless the type is 4 or 6
 */
public record ManifestField(String name, int typeId, String dtype, long[] shape) {
  public ManifestField {
    Objects.requireNonNull(name, "name");
    boolean array = typeId == FieldTypes.NDARRAY || typeId == FieldTypes.TORCH_TENSOR;
    if (array != (dtype != null) || array != (shape != null)) {
      throw new IllegalArgumentException("Field '" + name + "' of type " + FieldTypes.name(typeId)
          + (array ? " needs a dtype and a shape" : " must not have a dtype or shape"));
    }
    shape = shape == null ? null : shape.clone();
  }

  /** A scalar, image, bytes, JSON or custom field. */
  public static ManifestField of(String name, int typeId) {
    return new ManifestField(name, typeId, null, null);
  }

  /** The manifest entry describing a file's field. */
  public static ManifestField of(BetonField field) {
    if (field.codec() instanceof NdArrayField a) {
      return new ManifestField(field.name(), field.typeId(), a.dtype().typestr(), a.shape());
    }
    return of(field.name(), field.typeId());
  }

  @Override
  public long[] shape() {
    return shape == null ? null : shape.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ManifestField f && f.name.equals(name) && f.typeId == typeId
        && Objects.equals(f.dtype, dtype) && Arrays.equals(f.shape, shape);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, typeId, dtype, Arrays.hashCode(shape));
  }

  @Override
  public String toString() {
    return name + ": " + FieldTypes.name(typeId) + (dtype == null ? "" : " " + dtype + " " + Arrays.toString(shape));
  }
}
