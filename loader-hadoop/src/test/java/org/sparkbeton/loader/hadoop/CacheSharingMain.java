package org.sparkbeton.loader.hadoop;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;

/**
 * A second loader process for {@code HdfsLoaderTest}: builds a loader over a remote dataset and a shared
 * cache directory, prints READY, waits for a go-file so that both processes stage at the same time, runs
 * one epoch and writes what it downloaded, what it found in the cache and the labels it saw.
 * Arguments: dataset URI, cache directory, go-file, result file.
 */
public final class CacheSharingMain {
  private CacheSharingMain() {}

  public static void main(String[] args) throws Exception {
    URI uri = URI.create(args[0]);
    Path go = Path.of(args[2]);
    Epochs.Counting counting = new Epochs.Counting();
    try (Loader loader = sharedCacheLoader(uri, Path.of(args[1]), counting)) {
      System.out.println("READY");
      System.out.flush();
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!Files.exists(go) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      long[] labels = Epochs.sortedLabels(Epochs.read(loader));
      Files.write(Path.of(args[3]), List.of(
          "downloaded=" + String.join(",", new TreeSet<>(counting.downloads.keySet())),
          "hits=" + String.join(",", new TreeSet<>(counting.hits)),
          "labels=" + labels.length + ":" + java.util.Arrays.stream(labels).distinct().count()));
    }
  }

  /** The loader both processes run: the same order and seed, so they want the same shards at the same time. */
  static Loader sharedCacheLoader(URI uri, Path cache, Epochs.Counting counting) throws java.io.IOException {
    return Loader.builder(uri).cacheDir(cache).downloads(4).stagingListener(counting).batchSize(16).numThreads(1)
        .dropLast(false).order(OrderOption.RANDOM).seed(1).pipeline("label", new IntDecoder()).build();
  }
}
