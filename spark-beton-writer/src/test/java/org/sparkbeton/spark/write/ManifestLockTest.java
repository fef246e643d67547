package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;

/** Concurrent publishers of one dataset: every append lands; a lock held too long fails naming its owner. */
class ManifestLockTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE));

  @TempDir Path tmp;

  /** A task's commit message for {@code shard}, which is created (empty): a manifest never lists a missing shard. */
  private BetonCommitMessage message(String shard) throws IOException {
    java.nio.file.Files.createDirectories(tmp.resolve("ds"));
    java.nio.file.Files.write(tmp.resolve("ds").resolve(shard), new byte[0]);
    ShardEntry e = new ShardEntry(shard, 10, 4096, new ShardChecksum(ShardChecksum.SHA256, "0".repeat(64)), Map.of());
    return new BetonCommitMessage(0, 0, List.of(e), 10, 0, 0, null, 0, "test codec");
  }

  private DatasetPublisher publisher(long timeoutMillis) throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(tmp.resolve("ds").toUri());
    FileSystem fs = dir.getFileSystem(new Configuration());
    fs.mkdirs(dir);
    return new DatasetPublisher(fs, dir, timeoutMillis);
  }

  @Test
  void concurrentAppendsAllLand() throws Exception {
    int threads = 4;
    int appends = 15;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit((Callable<Void>) () -> {
          DatasetPublisher p = publisher(60_000);
          for (int i = 0; i < appends; i++) {
            String job = String.format("j%d%03d", thread, i);
            p.commit(job, FIELDS, List.of(message("part-00000-" + job + "-a0-000.beton")), CommitMode.APPEND, Map.of(), null);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    DatasetManifest m = publisher(1000).current();
    Set<String> shards = new HashSet<>();
    m.shards().forEach(s -> shards.add(s.path()));
    assertThat(shards).hasSize(threads * appends);
    assertThat(m.totalSamples()).isEqualTo(10L * threads * appends);
    assertThat(tmp.resolve("ds").resolve(ManifestLock.FILE)).doesNotExist();
  }

  @Test
  void aLockHeldTooLongFailsTheCommitNamingItsOwnerAndNothingIsPublished() throws Exception {
    DatasetPublisher p = publisher(1000);
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(tmp.resolve("ds").toUri());
    FileSystem fs = dir.getFileSystem(new Configuration());
    try (ManifestLock held = ManifestLock.acquire(fs, dir, "a job that hangs", 1000)) {
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> p.commit("late", FIELDS, List.of(message("part-00000-late-a0-000.beton")), CommitMode.APPEND,
          Map.of(), null))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("is locked by another job").hasMessageContaining("a job that hangs")
          .hasMessageContaining("delete " + new org.apache.hadoop.fs.Path(dir, ManifestLock.FILE));
      assertThat((System.nanoTime() - t0) / 1e9).isBetween(0.9, 10.0);
      assertThat(p.current()).isNull();
    }
    assertThat(p.commit("after", FIELDS, List.of(message("part-00000-after-a0-000.beton")), CommitMode.APPEND, Map.of(),
        null)
        .totalSamples()).isEqualTo(10);
  }
}
