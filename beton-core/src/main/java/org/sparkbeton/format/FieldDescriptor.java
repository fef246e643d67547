package org.sparkbeton.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One 1041-byte entry of the descriptor table: type id, 16-byte name, 1024-byte arguments
 * (docs/format.md#field-descriptors).
 */
public record FieldDescriptor(int typeId, String name, byte[] arguments) {

  /** Parses the descriptor at {@code b}'s position; {@code index}/{@code fileOffset} are for messages. */
  public static FieldDescriptor parse(ByteBuffer b, int index, long fileOffset, String file) {
    int base = b.position();
    int typeId = Byte.toUnsignedInt(b.get(base));
    byte[] nameBytes = new byte[BetonFormat.NAME_SIZE];
    b.get(base + 1, nameBytes);
    int len = 0;
    while (len < nameBytes.length && nameBytes[len] != 0) {
      if (nameBytes[len] < 0) {
        throw new BetonFormatException(file, "field descriptor " + index, fileOffset + 1 + len,
            "field name byte 0x" + Integer.toHexString(nameBytes[len] & 0xff) + " is not ASCII");
      }
      len++;
    }
    byte[] args = new byte[BetonFormat.ARGUMENTS_SIZE];
    b.get(base + 1 + BetonFormat.NAME_SIZE, args);
    return new FieldDescriptor(typeId, new String(nameBytes, 0, len, StandardCharsets.US_ASCII), args);
  }

  public static FieldDescriptor of(BetonField field) {
    byte[] args = field.codec().arguments();
    if (args.length > BetonFormat.ARGUMENTS_SIZE) {
      throw new IllegalArgumentException("Field '" + field.name() + "' has " + args.length
          + " argument bytes; a descriptor holds 1024");
    }
    return new FieldDescriptor(field.typeId(), field.name(), args);
  }

  public void writeTo(ByteBuffer b) {
    int base = b.position();
    b.put(base, (byte) typeId);
    byte[] name = this.name.getBytes(StandardCharsets.US_ASCII);
    b.put(base + 1, name);
    b.put(base + 1 + BetonFormat.NAME_SIZE, arguments);
    b.position(base + BetonFormat.DESCRIPTOR_SIZE);
  }

  /**
   * Checks names the way FFCV should have: 1–16 ASCII bytes, no NUL, unique. FFCV silently cuts
   * longer names to 16 bytes (so two fields can collide) and raises late on non-ASCII.
   */
  public static void validateNames(List<String> names) {
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("Field names must not be empty");
      }
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c == 0 || c > 127) {
          throw new IllegalArgumentException("Field name '" + name + "' has a non-ASCII or NUL character at index " + i
              + "; .beton stores names as ASCII");
        }
      }
      if (name.length() > BetonFormat.NAME_SIZE) {
        throw new IllegalArgumentException("Field name '" + name + "' is " + name.length()
            + " bytes; .beton stores at most 16 (FFCV would silently cut it to '" + name.substring(0, 16) + "')");
      }
      if (!seen.add(name)) {
        throw new IllegalArgumentException("Field name '" + name + "' is used twice");
      }
    }
  }
}
