package org.sparkbeton.loader.io;

import java.nio.ByteBuffer;

/** A reusable (buffer, offset) pair: where a payload lies, filled by {@link PayloadStore#view}. */
public final class PayloadView {
  ByteBuffer buffer;
  int offset;

  public ByteBuffer buffer() {
    return buffer;
  }

  public int offset() {
    return offset;
  }

  public void set(ByteBuffer buffer, int offset) {
    this.buffer = buffer;
    this.offset = offset;
  }
}
