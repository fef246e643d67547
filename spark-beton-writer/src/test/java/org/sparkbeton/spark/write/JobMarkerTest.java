package org.sparkbeton.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.dataset.DatasetFiles;

class JobMarkerTest {
  @TempDir java.nio.file.Path dir;

  /** A file system whose writes after the first take a while, as an object store's do; interruptible, as S3A's are. */
  static final class SlowWrites extends FilterFileSystem {
    final AtomicInteger creates = new AtomicInteger();
    final CountDownLatch beatUnderWay = new CountDownLatch(1);
    final AtomicBoolean interrupted = new AtomicBoolean();

    SlowWrites() throws IOException {
      super(new RawLocalFileSystem());
      fs.initialize(URI.create("file:///"), new Configuration());
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
        short replication, long blockSize, Progressable progress) throws IOException {
      if (creates.incrementAndGet() > 1) {
        beatUnderWay.countDown();
        try {
          Thread.sleep(400);
        } catch (InterruptedException e) {
          interrupted.set(true);
          throw new InterruptedIOException("interrupted while deleting directory markers");
        }
      }
      return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }
  }

  @Test
  void closeLetsABeatUnderWayFinishAndLeavesNoMarker() throws Exception {
    SlowWrites fs = new SlowWrites();
    Path datasetDir = new Path(dir.toUri());
    JobMarker marker = JobMarker.start(fs, datasetDir, "job-1", Duration.ofMillis(20));
    java.nio.file.Path file = dir.resolve(DatasetFiles.jobMarker("job-1"));
    assertTrue(Files.exists(file));

    assertTrue(fs.beatUnderWay.await(10, TimeUnit.SECONDS), "no beat started");
    marker.close();

    assertFalse(fs.interrupted.get(), "close interrupted the beat under way (S3A logs that as a failure)");
    assertFalse(Files.exists(file), "the marker outlived its job");
    int creates = fs.creates.get();
    Thread.sleep(100);
    assertEquals(creates, fs.creates.get(), "a beat ran after close");
  }
}
