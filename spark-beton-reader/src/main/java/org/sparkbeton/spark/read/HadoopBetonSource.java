package org.sparkbeton.spark.read;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.format.io.ChannelSource;

/**
 * A {@code .beton} file on any Hadoop {@link FileSystem} (local, HDFS, S3A, ...), read with positional
 * {@code readFully} into fresh heap buffers, so concurrent readers never share a stream position ({@link #open}
 * reads a page-checked local shard through a {@link ChannelSource} instead).
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

  /**
   * Opens a shard for reading, as the constructor does, except where {@code pagesChecked} says the manifest's
   * page checksums will check every page read ({@link org.sparkbeton.format.dataset.CheckedSource}) and the file
   * is on Hadoop's local file system. That one is a checksummed layer over the raw local files, which looks for a
   * {@code .crc} sidecar at every open and reads through 512-byte checksum chunks even when there is none, and its
   * raw layer makes a status call, a buffered stream and statistics per open. Such a shard is read through a
   * {@link ChannelSource} (a {@code FileChannel} of the local file) instead: a thousand shards open in a fraction of the time, and every page
   * is still checked, by our CRC32C.
   */
  static BetonSource open(Path path, Configuration conf, boolean pagesChecked) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    try {
      if (pagesChecked && fs instanceof LocalFileSystem local) {
        return new ChannelSource(local.pathToFile(path).toPath(), path.toString());
      }
      return new HadoopBetonSource(path, conf);
    } catch (FileNotFoundException | NoSuchFileException e) {
      throw missingShard(path, e);
    }
  }

  /**
   * A shard the driver planned from a manifest or a header that is not there when it is opened. Each query plans
   * from the dataset as it is then ({@link DatasetInputs#current}), so the shard went away after that: the dataset
   * was overwritten (which deletes the shards its old manifest listed) since the query was planned (Spark keeps a
   * DataFrame's plan for its repeated actions, so that may be long before), or compacted and the replaced shards
   * deleted after the compaction's keepReplacedFor, or the file was deleted.
   */
  static FileNotFoundException missingShard(Path path, IOException cause) {
    FileNotFoundException missing = new FileNotFoundException("Shard " + path + " does not exist: the dataset was"
        + " overwritten after this query was planned, or compacted longer ago than the compaction's keepReplacedFor,"
        + " or the file was deleted (beton verify lists the shards a dataset's manifest names that are missing). A"
        + " query planned now reads the dataset as it is: load() it again (an action repeated on the same DataFrame,"
        + " such as a second collect(), runs the plan of its first). Option " + BetonReadOptions.IGNORE_MISSING_FILES
        + "=true skips missing shards");
    missing.initCause(cause);
    return missing;
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
