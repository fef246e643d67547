package org.sparkbeton.spark.write;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A shard's file, created by its first write ({@link RawFileSystems#create}, without overwrite). A shard's pages
 * are spooled until it is complete, so its file is written all at once at its end; created when the shard was
 * started, it sat in the dataset directory empty for the whole task (minutes under a long task), where a glob of
 * {@code *.beton} or an outside tool saw it, and a driver killed meanwhile left it so.
 */
final class CreateOnFirstWrite extends OutputStream {
  private final FileSystem fs;
  private final Path path;
  private OutputStream out;

  CreateOnFirstWrite(FileSystem fs, Path path) {
    this.fs = fs;
    this.path = path;
  }

  private OutputStream out() throws IOException {
    if (out == null) {
      out = RawFileSystems.create(fs, path, false);
    }
    return out;
  }

  @Override
  public void write(int b) throws IOException {
    out().write(b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out().write(b, off, len);
  }

  @Override
  public void flush() throws IOException {
    if (out != null) {
      out.flush();
    }
  }

  /** Closes the file; a stream never written to made none. */
  @Override
  public void close() throws IOException {
    if (out != null) {
      out.close();
    }
  }
}
