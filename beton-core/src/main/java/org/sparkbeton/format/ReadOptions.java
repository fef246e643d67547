package org.sparkbeton.format;

import java.util.HashMap;
import java.util.Map;

/**
 * How to open a file. {@link #customField} maps a field name to the codec factory that decodes it,
 * exactly like FFCV's {@code custom_fields}: required for fields of type 255, and it overrides the
 * built-in codec of any other field with that name.
 */
public final class ReadOptions {
  private final Map<String, FieldCodecFactory> customFields = new HashMap<>();

  public static ReadOptions defaults() {
    return new ReadOptions();
  }

  public ReadOptions customField(String name, FieldCodecFactory factory) {
    customFields.put(name, factory);
    return this;
  }

  FieldCodecFactory customFactory(String name) {
    return customFields.get(name);
  }
}
