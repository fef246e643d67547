package org.sparkbeton.spark.write;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.sparkbeton.format.dataset.PageChecksummer;
import org.sparkbeton.format.dataset.PageChecksums;

/**
 * Counts, SHA-256-hashes and page-checksums what passes through, so a shard's checksums cost no second read.
 */
final class HashingOutputStream extends FilterOutputStream {
  private final MessageDigest sha256;
  private final PageChecksummer pages;
  private long count;

  /** {@code recordSize}: the metadata record size of the file written, for its page checksums. */
  HashingOutputStream(OutputStream out, int recordSize) {
    super(out);
    this.pages = new PageChecksummer(recordSize);
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
    pages.update(b);
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    sha256.update(b, off, len);
    pages.update(b, off, len);
    count += len;
  }

  long count() {
    return count;
  }

  /** The page checksums of what was written; once, after the last byte. */
  PageChecksums pageChecksums() {
    return pages.finish();
  }

  String sha256Hex() {
    return HexFormat.of().formatHex(sha256.digest());
  }
}
