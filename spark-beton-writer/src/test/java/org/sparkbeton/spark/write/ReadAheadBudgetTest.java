package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory a task's read-ahead holds for large image files: bounded by its budget plus the one file the task takes
 * next, whatever the files' sizes, with every file still read whole and in turn.
 */
class ReadAheadBudgetTest {
  static final int DEPTH = 8;
  /** Larger than a slot's first buffer: its reader grows to 1 MiB for it, 768 KiB over the first 256 KiB. */
  static final int FILE_BYTES = 600_000;
  static final long GROWTH = (1 << 20) - ImageFileReader.INITIAL_BYTES;

  @TempDir Path tmp;

  private List<byte[]> files(int n) throws Exception {
    List<byte[]> contents = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < n; i++) {
      byte[] b = new byte[FILE_BYTES];
      random.nextBytes(b);
      Files.write(tmp.resolve("f" + i + ".jpg"), b);
      contents.add(b);
    }
    return contents;
  }

  /**
   * Reads {@code rounds} of {@link #DEPTH} files through a read-ahead of {@code budget} bytes as the writer does (every
   * slot started, then each taken in turn and settled, started again with the next round's file), checking each
   * file's bytes; its budget afterwards.
   */
  private ReadAheadBudget readAll(List<byte[]> contents, int rounds, long budget) throws Exception {
    Configuration conf = LaggyFileSystem.register(new Configuration());
    try (ImageReadAhead ahead = new ImageReadAhead(conf, DEPTH, 0, budget)) {
      for (int k = 0; k < DEPTH; k++) {
        ahead.start(k, "laggy://" + tmp.resolve("f" + k + ".jpg"));
      }
      for (int i = 0; i < rounds * DEPTH; i++) {
        int k = i % DEPTH;
        ByteBuffer got = ahead.take(k);
        byte[] b = new byte[got.remaining()];
        got.get(b);
        assertThat(b).as("file %d", i % contents.size()).isEqualTo(contents.get(i % contents.size()));
        ahead.settle(k);
        if (i + DEPTH < rounds * DEPTH) {
          ahead.start(k, "laggy://" + tmp.resolve("f" + ((i + DEPTH) % contents.size()) + ".jpg"));
        }
      }
      return ahead.budget();
    }
  }

  @Test
  void largeFilesAreHeldOnlyAsFarAsTheBudgetAllows() throws Exception {
    List<byte[]> contents = files(DEPTH);
    long budget = 2 * GROWTH;

    ReadAheadBudget unbounded = readAll(contents, 2, Long.MAX_VALUE);
    assertThat(unbounded.peak()).as("every slot grown at once").isEqualTo(DEPTH * GROWTH);

    ReadAheadBudget bounded = readAll(contents, 2, budget);
    assertThat(bounded.peak()).as("the budget, plus the file taken next").isGreaterThanOrEqualTo(GROWTH)
        .isLessThanOrEqualTo(budget + GROWTH);
    // a slot keeps no more than budget / depth (256 KiB here) beyond its first buffer: each grown one is given back
    assertThat(bounded.held()).isZero();
  }

  @Test
  void aBudgetSmallerThanOneFileReadsThemOneAfterTheOther() throws Exception {
    List<byte[]> contents = files(DEPTH);
    ReadAheadBudget none = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> readAll(contents, 2, 0));
    assertThat(none.peak()).isEqualTo(GROWTH);
    assertThat(none.held()).isZero();
  }

  @Test
  void smallFilesNeverTouchTheBudget() throws Exception {
    Random random = new Random(3);
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < DEPTH; i++) {
      byte[] b = new byte[100_000];
      random.nextBytes(b);
      Files.write(tmp.resolve("f" + i + ".jpg"), b);
      contents.add(b);
    }
    assertThat(readAll(contents, 3, 0).peak()).isZero();
  }
}
