package org.sparkbeton.loader.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.PhotoDatasets;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.codec.memory.BufferCleaner;

/**
 * {@code Loader.close()} unmaps its shards at once: counted in {@code /proc/self/maps} (Linux), where a mapping of a
 * file, deleted or not, shows with its path. Before, each closed loader kept its mappings until a garbage
 * collection, and a deleted shard's disk space with them.
 */
class UnmapOnCloseTest {
  @TempDir Path tmp;

  @BeforeEach
  void linux() {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "needs /proc/self/maps (Linux)");
    Assumptions.assumeTrue(BufferCleaner.available(), "needs Unsafe.invokeCleaner");
  }

  static long mappings(Path dir) throws IOException {
    String prefix = dir.toRealPath().toString();
    return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(prefix)).count();
  }

  private static void epoch(Loader loader) {
    for (Batch b : loader) {
      b.size();
    }
  }

  @Test
  void closeUnmapsEveryShardInBothCacheModes() throws Exception {
    Path dir = PhotoDatasets.write(tmp.resolve("ds"), List.of(PhotoDatasets.samples(2, 20), PhotoDatasets.samples(3, 20)));
    for (boolean processCache : new boolean[] {false, true}) {
      var builder = Loader.builder(dir).batchSize(8).numThreads(2)
          .pipeline("image", new RandomResizedCropRgbDecoder(16, 16)).pipeline("label", new IntDecoder());
      Loader loader = (processCache ? builder.processCache(4 << 20) : builder).build();
      epoch(loader);
      assertThat(mappings(dir)).as("while open, process cache %s", processCache).isGreaterThanOrEqualTo(2);
      loader.close();
      assertThat(mappings(dir)).as("after close, process cache %s", processCache).isZero();
    }
  }

  @Test
  void manyLoadersKeepNoMappingAndADeletedShardKeepsNone() throws Exception {
    Path dir = PhotoDatasets.write(tmp.resolve("many"), List.of(PhotoDatasets.samples(4, 16)));
    for (int i = 0; i < 60; i++) {
      try (Loader loader = Loader.builder(dir).batchSize(4).numThreads(1)
          .pipeline("image", new RandomResizedCropRgbDecoder(8, 8)).pipeline("label", new IntDecoder()).build()) {
        epoch(loader);
      }
      assertThat(mappings(dir)).as("after loader %d", i).isZero();
    }
    Path shard = dir.resolve("part-00000.beton");
    Loader last = Loader.builder(dir).batchSize(4).numThreads(1).pipeline("label", new IntDecoder()).build();
    epoch(last);
    Files.delete(shard);
    assertThat(mappings(dir)).as("a deleted shard still mapped by an open loader").isGreaterThanOrEqualTo(1);
    last.close();
    assertThat(mappings(dir)).as("its space is released at close").isZero();
  }
}
