package org.sparkbeton.format.dataset;

import java.util.Locale;
import java.util.Objects;

/**
 * Checksum of a whole shard file: {@code sha256} (64 hex digits) or {@code crc32c} (8 hex digits,
 * big-endian value), lower-case hex.
 */
public record ShardChecksum(String algorithm, String value) implements java.io.Serializable {
  public static final String SHA256 = "sha256";
  public static final String CRC32C = "crc32c";

  public ShardChecksum {
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(value, "value");
    int digits = switch (algorithm) {
      case SHA256 -> 64;
      case CRC32C -> 8;
      default -> throw new IllegalArgumentException("checksum algorithm must be \"sha256\" or \"crc32c\", got \""
          + algorithm + "\"");
    };
    value = value.toLowerCase(Locale.ROOT);
    if (value.length() != digits || !isHex(value)) {
      throw new IllegalArgumentException(algorithm + " checksum must be " + digits + " hex digits, got \"" + value + "\"");
    }
  }

  private static boolean isHex(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (Character.digit(value.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
