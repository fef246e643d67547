package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.io.BetonSource;

/**
 * A {@code .beton} file on a Hadoop file system ({@code hdfs://}, {@code s3a://}, ...), read in place with positional
 * reads: {@code inspect} reads its header, metadata and allocation table only (an FFCV file of ImageNet: tens of MB
 * of its 140 GB), {@code dump} the samples asked for, {@code verify} all of it.
 */
final class RemoteFile implements BetonSource {
  private final String name;
  private final FSDataInputStream in;
  private final long length;
  private final AtomicLong bytesRead = new AtomicLong();

  private RemoteFile(String name, FSDataInputStream in, long length) {
    this.name = name;
    this.in = in;
    this.length = length;
  }

  /**
   * The remote file {@code arg} names, open; null where it is a directory (a dataset, which the commands read through
   * its manifest). A path that does not exist is refused.
   */
  static RemoteFile openIfFile(String arg, HadoopFlags flags) {
    RemotePath remote = RemotePath.of(arg, flags);
    if (remote.status().isDirectory()) {
      return null;
    }
    try {
      return new RemoteFile(arg, remote.fs().open(remote.path()), remote.status().getLen());
    } catch (IOException e) {
      throw new CliException(arg + ": " + RemoteManifest.firstLine(e));
    }
  }

  /** The file as a reader, which owns it (closing the reader closes the stream, and so does a failed open). */
  BetonReader reader() throws IOException {
    return BetonReader.open(this, ReadOptions.defaults());
  }

  @Override public String name() { return name; }
  @Override public long length() { return length; }
  @Override public long bytesRead() { return bytesRead.get(); }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    BetonSource.requireInside(name, position, len, length);
    byte[] buf = new byte[len];
    in.readFully(position, buf, 0, len);
    bytesRead.addAndGet(len);
    return ByteBuffer.wrap(buf).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
