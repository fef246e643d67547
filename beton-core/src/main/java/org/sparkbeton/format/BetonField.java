package org.sparkbeton.format;

import java.util.Objects;

/** A named field of a dataset: the unit of the descriptor table. */
public record BetonField(String name, FieldCodec codec) {
  public BetonField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(codec, "codec");
  }

  public int typeId() {
    return codec.typeId();
  }

  @Override
  public String toString() {
    String detail = codec.describe();
    return name + ": " + FieldTypes.name(codec.typeId()) + (detail.isEmpty() ? "" : " " + detail);
  }
}
