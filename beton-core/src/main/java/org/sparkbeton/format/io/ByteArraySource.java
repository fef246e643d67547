package org.sparkbeton.format.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

/** A whole file held in memory: for tests, fuzzing and small files fetched in one piece. */
public final class ByteArraySource implements BetonSource {
  private final String name;
  private final byte[] bytes;
  private final AtomicLong bytesRead = new AtomicLong();

  public ByteArraySource(String name, byte[] bytes) {
    this.name = name;
    this.bytes = bytes;
  }

  @Override public String name() { return name; }
  @Override public long length() { return bytes.length; }
  @Override public long bytesRead() { return bytesRead.get(); }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    BetonSource.requireInside(name, position, len, bytes.length);
    bytesRead.addAndGet(len);
    return ByteBuffer.wrap(bytes, (int) position, len).slice().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }
}
