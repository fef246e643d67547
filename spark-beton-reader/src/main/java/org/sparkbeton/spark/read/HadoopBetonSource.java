package org.sparkbeton.spark.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.io.BetonSource;

/**
 * A {@code .beton} file on any Hadoop {@link FileSystem} (local, HDFS, S3A, ...), read with positional
 * {@code readFully} into fresh heap buffers, so concurrent readers never share a stream position.
 * Counts the bytes it hands out: that count is the {@code bytesRead} metric, and how tests prove a
 * query never touched a data page.
 */
public final class HadoopBetonSource implements BetonSource {
  private final String name;
  private final FSDataInputStream in;
  private final long length;
  private final AtomicLong bytesRead = new AtomicLong();

  public HadoopBetonSource(Path path, Configuration conf) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    this.name = path.toString();
    this.length = fs.getFileStatus(path).getLen();
    this.in = fs.open(path);
  }

  @Override public String name() { return name; }
  @Override public long length() { return length; }
  @Override public long bytesRead() { return bytesRead.get(); }

  @Override
  public ByteBuffer read(long position, int len) throws IOException {
    if (position < 0 || len < 0 || position > length - len) {
      throw new IOException(name + ": read of " + len + " bytes at " + position + " is outside the file (" + length
          + " bytes)");
    }
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
