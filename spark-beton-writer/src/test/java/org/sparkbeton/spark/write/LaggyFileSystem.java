package org.sparkbeton.spark.write;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * {@code laggy:///a/b}: the local file {@code /a/b}, each open taking {@link #LAG_MILLIS} as an object store's round
 * trip does, and counting how many opens run at once. Not the local file system to the writer, which reads its files
 * ahead. Register with {@link #register}.
 */
public final class LaggyFileSystem extends FilterFileSystem {
  static final long LAG_MILLIS = 15;
  static final AtomicInteger OPENING = new AtomicInteger();
  static final AtomicInteger MOST_AT_ONCE = new AtomicInteger();

  public LaggyFileSystem() {
    super(new RawLocalFileSystem());
  }

  static Configuration register(Configuration conf) {
    conf.set("fs.laggy.impl", LaggyFileSystem.class.getName());
    conf.setBoolean("fs.laggy.impl.disable.cache", true);
    return conf;
  }

  static void resetCounts() {
    OPENING.set(0);
    MOST_AT_ONCE.set(0);
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    fs.initialize(URI.create("file:///"), conf);
    setConf(conf);
  }

  @Override
  public URI getUri() {
    return URI.create("laggy:///");
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    int now = OPENING.incrementAndGet();
    MOST_AT_ONCE.accumulateAndGet(now, Math::max);
    try {
      Thread.sleep(LAG_MILLIS);
      return fs.open(new Path(f.toUri().getPath()), bufferSize);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    } finally {
      OPENING.decrementAndGet();
    }
  }
}
