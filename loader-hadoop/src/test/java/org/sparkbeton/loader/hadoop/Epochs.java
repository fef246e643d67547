package org.sparkbeton.loader.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.store.StagingListener;

/** Reading epochs in tests: labels and raw output bytes per batch, and a listener that counts staging events. */
final class Epochs {
  private Epochs() {}

  /** One batch: its labels and every output's bytes. */
  record Rows(long[] labels, List<byte[]> outputs) {}

  static List<Rows> read(Iterator<Batch> it, int limit) {
    List<Rows> out = new ArrayList<>();
    while (out.size() < limit && it.hasNext()) {
      Batch b = it.next();
      long[] labels = new long[b.size()];
      for (int i = 0; i < labels.length; i++) {
        labels[i] = b.data("label").getLong(i * 8);
      }
      List<byte[]> outputs = new ArrayList<>();
      for (String name : List.of("image", "label")) {
        try {
          ByteBuffer d = b.data(name);
          byte[] bytes = new byte[b.size() * b.spec(name).bytes()];
          d.get(0, bytes);
          outputs.add(bytes);
        } catch (IllegalArgumentException noSuchOutput) {
          // label-only loaders
        }
      }
      out.add(new Rows(labels, outputs));
    }
    return out;
  }

  static List<Rows> read(Loader loader) {
    return read(loader.iterator(), Integer.MAX_VALUE);
  }

  static long[] sortedLabels(List<Rows> rows) {
    return rows.stream().flatMapToLong(r -> Arrays.stream(r.labels())).sorted().toArray();
  }

  static long[] range(int n) {
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  static void assertSame(List<Rows> actual, List<Rows> expected, String what) {
    org.assertj.core.api.Assertions.assertThat(actual).as(what).hasSameSizeAs(expected);
    for (int b = 0; b < expected.size(); b++) {
      org.assertj.core.api.Assertions.assertThat(actual.get(b).labels()).as("%s batch %d labels", what, b)
          .isEqualTo(expected.get(b).labels());
      for (int o = 0; o < expected.get(b).outputs().size(); o++) {
        org.assertj.core.api.Assertions.assertThat(actual.get(b).outputs().get(o)).as("%s batch %d output %d", what, b, o)
            .isEqualTo(expected.get(b).outputs().get(o));
      }
    }
  }

  /** Counts downloads, cache hits and retries per shard. */
  static class Counting implements StagingListener {
    final Map<String, AtomicInteger> downloads = new ConcurrentHashMap<>();
    final Set<String> hits = ConcurrentHashMap.newKeySet();
    final Map<String, long[]> resumed = new ConcurrentHashMap<>();
    final AtomicInteger retries = new AtomicInteger();

    @Override
    public void cached(String shard) {
      hits.add(shard);
    }

    @Override
    public void downloaded(String shard, long fetched, long resumedFrom) {
      downloads.computeIfAbsent(shard, k -> new AtomicInteger()).incrementAndGet();
      resumed.put(shard, new long[] {fetched, resumedFrom});
    }

    @Override
    public void retrying(String shard, int attempt, IOException cause) {
      retries.incrementAndGet();
    }

    int downloadCount() {
      return downloads.values().stream().mapToInt(AtomicInteger::get).sum();
    }
  }
}
