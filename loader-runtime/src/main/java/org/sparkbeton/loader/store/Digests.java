package org.sparkbeton.loader.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.sparkbeton.format.dataset.ShardChecksum;

/** The checksums a manifest may name, computed as bytes stream by, in the manifest's hex form. */
final class Digests {
  private Digests() {}

  /** A checksum being computed. */
  interface Running {
    void update(byte[] b, int off, int len);

    /** Lower-case hex, as {@link ShardChecksum} stores it. */
    String hex();
  }

  static Running running(String algorithm) {
    if (algorithm.equals(ShardChecksum.CRC32C)) {
      CRC32C crc = new CRC32C();
      return new Running() {
        @Override
        public void update(byte[] b, int off, int len) {
          crc.update(b, off, len);
        }

        @Override
        public String hex() {
          return String.format("%08x", crc.getValue());
        }
      };
    }
    MessageDigest sha = sha256();
    return new Running() {
      @Override
      public void update(byte[] b, int off, int len) {
        sha.update(b, off, len);
      }

      @Override
      public String hex() {
        return HexFormat.of().formatHex(sha.digest());
      }
    };
  }

  static byte[] sha256(byte[] b) {
    return sha256().digest(b);
  }

  static String sha256Hex(String s) {
    return HexFormat.of().formatHex(sha256(s.getBytes(StandardCharsets.UTF_8)));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has SHA-256", e);
    }
  }
}
