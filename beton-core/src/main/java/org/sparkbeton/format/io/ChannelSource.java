package org.sparkbeton.format.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/** A local file read with positional reads into fresh heap buffers: no mapping, exact byte accounting. */
public final class ChannelSource implements BetonSource {
  private final String name;
  private final FileChannel channel;
  private final long length;
  private final AtomicLong bytesRead = new AtomicLong();

  public ChannelSource(Path path) throws IOException {
    this(path, path.toString());
  }

  /** {@code path}, named {@code name} in messages (a caller's own spelling of it, such as a Hadoop path). */
  public ChannelSource(Path path, String name) throws IOException {
    this.name = name;
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
    this.length = channel.size();
  }

  @Override public String name() { return name; }
  @Override public long length() { return length; }
  @Override public long bytesRead() { return bytesRead.get(); }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    BetonSource.requireInside(name, position, len, length);
    ByteBuffer out = ByteBuffer.allocate(len);
    long pos = position;
    while (out.hasRemaining()) {
      int n = channel.read(out, pos);
      if (n < 0) {
        throw new EOFException(name + ": file shrank while reading at " + pos);
      }
      pos += n;
    }
    bytesRead.addAndGet(len);
    return out.flip().asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
