package org.sparkbeton.format.fields;

import java.nio.ByteOrder;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A numpy array-protocol type string such as {@code <f4}, {@code |u1} or {@code <M8[ns]}: byte order,
 * kind, item size and an optional unit. NDArray and TorchTensor fields store it as the JSON of
 * {@code dtype.descr}: {@code [["", "<f4"]]} (docs/format.md#arguments).
 */
public record NumpyDtype(char byteOrder, char kind, int itemSize, String unit) {
  private static final Pattern TYPESTR = Pattern.compile("([<>|=])([biufcmMSUV])(\\d{1,6})(\\[[A-Za-z0-9]{1,8}\\])?");
  private static final Pattern DESCR = Pattern.compile("\\[\\s*\\[\\s*\"([^\"\\\\]*)\"\\s*,\\s*\"([^\"\\\\]*)\"\\s*\\]\\s*\\]");
  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("bool", "|b1"), Map.entry("int8", "|i1"), Map.entry("uint8", "|u1"),
      Map.entry("int16", "<i2"), Map.entry("uint16", "<u2"), Map.entry("int32", "<i4"),
      Map.entry("uint32", "<u4"), Map.entry("int64", "<i8"), Map.entry("uint64", "<u8"),
      Map.entry("float16", "<f2"), Map.entry("float32", "<f4"), Map.entry("float64", "<f8"),
      Map.entry("complex64", "<c8"), Map.entry("complex128", "<c16"));

  public NumpyDtype {
    if (itemSize < 1) {
      throw new IllegalArgumentException("dtype item size must be positive, got " + itemSize);
    }
    unit = unit == null ? "" : unit;
  }

  /** Parses a type string ({@code <f4}) or a numpy name ({@code float32}, little-endian). */
  public static NumpyDtype of(String spec) {
    String typestr = NAMES.getOrDefault(spec, spec);
    Matcher m = TYPESTR.matcher(typestr);
    if (!m.matches()) {
      throw new IllegalArgumentException("Not a numpy type string or name: '" + spec
          + "' (expected e.g. '<f4', '|u1', 'float32')");
    }
    String unit = m.group(4) == null ? "" : m.group(4);
    return new NumpyDtype(m.group(1).charAt(0), m.group(2).charAt(0), Integer.parseInt(m.group(3)), unit);
  }

  /** Parses FFCV's descr JSON {@code [["", "<f4"]]}; structured (multi-entry) dtypes are refused as in FFCV. */
  public static NumpyDtype fromDescrJson(String json) {
    Matcher m = DESCR.matcher(json.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("dtype descr is not a single-entry list like [[\"\", \"<f4\"]]: " + json);
    }
    return of(m.group(2));
  }

  /** The exact text Python's {@code json.dumps(dtype.descr)} writes. */
  public String descrJson() {
    return "[[\"\", \"" + typestr() + "\"]]";
  }

  public String typestr() {
    return "" + byteOrder + kind + itemSize + unit;
  }

  /** Java byte order of the stored elements; single-byte types count as little-endian. */
  public ByteOrder order() {
    return byteOrder == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
  }

  @Override
  public String toString() {
    return typestr();
  }
}
