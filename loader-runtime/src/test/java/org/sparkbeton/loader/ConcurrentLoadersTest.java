package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;

/**
 * Several loaders over the same file (several models trained at once): each keeps its own slots, workers
 * and orders, reads through the shared OS page cache (mmap) or its own PROCESS cache, and a loader whose
 * consumer has stopped never holds up another.
 */
class ConcurrentLoadersTest {
  @TempDir Path dir;

  private static LoaderBuilder builder(Path file, long seed) {
    return Loader.builder(file).batchSize(8).numThreads(2).batchesAhead(1).dropLast(false).seed(seed)
        .order(OrderOption.RANDOM).pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder());
  }

  /** Every (sample, first pixel byte, label) of one epoch, checked against the file's known contents. */
  private static List<Integer> epoch(Iterator<Batch> it) {
    List<Integer> samples = new ArrayList<>();
    while (it.hasNext()) {
      samples.addAll(check(it.next()));
    }
    return samples;
  }

  private static List<Integer> check(Batch b) {
    List<Integer> samples = new ArrayList<>();
    ByteBuffer images = b.data("image");
    int imageBytes = b.spec("image").bytes();
    for (int i = 0; i < b.size(); i++) {
      int s = b.sample(i);
      assertThat(b.data("label").getLong(8 * i)).isEqualTo(1000L + s);
      assertThat(images.get(i * imageBytes + 5)).isEqualTo(Datasets.rgb(s, 6, 5)[5]);
      samples.add(s);
    }
    return samples;
  }

  @Test
  void aStalledLoaderHoldsUpNoOtherOverTheSameFile() throws Exception {
    Path file = Datasets.rawImages(dir, 120, 6, 5);
    List<Integer> alone;
    try (Loader reference = builder(file, 7).build()) {
      alone = epoch(reference.iterator());
    }
    try (Loader stalled = builder(file, 7).build();
         Loader mapped = builder(file, 7).build();
         Loader cached = builder(file, 7).processCache(4L << 20).build()) {
      Iterator<Batch> held = stalled.iterator();
      List<Integer> fromStalled = new ArrayList<>(check(held.next())); // then its consumer stops: slots fill up
      Thread.sleep(200);
      // two more models train meanwhile, on other threads, one of them through its own page cache
      List<Integer>[] others = new List[2];
      Thread a = new Thread(() -> others[0] = epoch(mapped.iterator()));
      Thread c = new Thread(() -> others[1] = epoch(cached.iterator()));
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        a.start();
        c.start();
        a.join();
        c.join();
      });
      assertThat(others[0]).as("mmap loader, same seed").isEqualTo(alone);
      assertThat(others[1]).as("PROCESS-cache loader, same seed").isEqualTo(alone);
      fromStalled.addAll(epoch(held)); // the stalled one resumes where it stopped
      assertThat(fromStalled).isEqualTo(alone);
    }
  }
}
