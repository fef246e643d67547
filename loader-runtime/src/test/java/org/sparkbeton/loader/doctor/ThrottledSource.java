package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.format.io.ChannelSource;
import org.sparkbeton.loader.io.SourceOpener;

/**
 * A local file read as if over a link of {@code bytesPerSecond}: every read of every source the opener makes takes
 * its turn on one shared link and returns when its bytes would have arrived (a slow network disk, for tests).
 */
final class ThrottledSource implements BetonSource {
  private final ChannelSource file;
  private final Link link;

  private ThrottledSource(ChannelSource file, Link link) {
    this.file = file;
    this.link = link;
  }

  /** Sources of local files sharing one link of {@code bytesPerSecond}. */
  static SourceOpener opener(long bytesPerSecond) {
    Link link = new Link(bytesPerSecond);
    return path -> new ThrottledSource(new ChannelSource(path), link);
  }

  @Override
  public String name() {
    return file.name();
  }

  @Override
  public long length() {
    return file.length();
  }

  @Override
  public ByteBuffer read(long position, int length) throws IOException {
    ByteBuffer bytes = file.read(position, length);
    link.transfer(length);
    return bytes;
  }

  @Override
  public long bytesRead() {
    return file.bytesRead();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }

  /** One link: transfers queue behind each other. */
  static final class Link {
    private final double nanosPerByte;
    private long free = System.nanoTime();

    Link(long bytesPerSecond) {
      this.nanosPerByte = 1e9 / bytesPerSecond;
    }

    void transfer(long bytes) {
      long done;
      synchronized (this) {
        free = Math.max(free, System.nanoTime()) + (long) (bytes * nanosPerByte);
        done = free;
      }
      for (long left = done - System.nanoTime(); left > 0; left = done - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
    }
  }
}
