package org.sparkbeton.codec.image;

import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads {@code [position, limit)} of a buffer without moving the caller's position. */
public final class ByteBufferInputStream extends InputStream {
  private final ByteBuffer buf;

  public ByteBufferInputStream(ByteBuffer src) {
    this.buf = src.duplicate();
  }

  @Override
  public int read() {
    return buf.hasRemaining() ? buf.get() & 0xFF : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (!buf.hasRemaining()) {
      return len == 0 ? 0 : -1;
    }
    int n = Math.min(len, buf.remaining());
    buf.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    return buf.remaining();
  }
}
