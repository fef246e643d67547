package org.sparkbeton.spark.write;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Counts and SHA-256-hashes what passes through, so a shard's checksum costs no second read. */
final class HashingOutputStream extends FilterOutputStream {
  private final MessageDigest sha256;
  private long count;

  HashingOutputStream(OutputStream out) {
    super(out);
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    sha256.update((byte) b);
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    sha256.update(b, off, len);
    count += len;
  }

  long count() {
    return count;
  }

  String sha256Hex() {
    return HexFormat.of().formatHex(sha256.digest());
  }
}
