package org.sparkbeton.loader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.io.MappedPayloadStore;

/** A field source keeps what a scan of its samples found, so that plans after the first (every epoch) skip it. */
class FieldSourceFactTest {
  @TempDir Path dir;

  @Test
  void aFactIsComputedOncePerKeyAndFieldSource() throws IOException {
    Path file = org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 20, 16, 12);
    try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
      int[] samples = {0, 3, 5};
      FieldSource field = new FieldSource(reader, 0, samples, store);
      AtomicInteger scans = new AtomicInteger();
      AtomicInteger visited = new AtomicInteger();
      for (int i = 0; i < 3; i++) {
        int seen = field.fact("visits", f -> {
          scans.incrementAndGet();
          f.scan((s, rec, at) -> visited.incrementAndGet());
          return visited.get();
        });
        assertThat(seen).isEqualTo(3);
      }
      assertThat(scans).hasValue(1);
      int another = field.fact("another", f -> 7);
      assertThat(another).isEqualTo(7);
      // another field source over the same file scans again: the facts belong to one source (its samples)
      FieldSource other = new FieldSource(reader, 0, new int[] {1}, store);
      assertThat(other.<Integer>fact("visits", f -> -1)).isEqualTo(-1);
    }
  }

  @Test
  void progressiveResizingStillPlansEachEpochWithTheNewSize() throws IOException {
    Path file = org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 20, 16, 12);
    RandomResizedCropRgbDecoder crop = new RandomResizedCropRgbDecoder(8, 8);
    try (Loader loader = Loader.builder(file).batchSize(4).numThreads(2).pipeline("image", crop)
        .pipeline("label", new IntDecoder()).build()) {
      Batch first = loader.iterator().next();
      assertThat(first.spec("image").shape()).containsExactly(8, 8, 3);
      crop.outputSize(10, 6);
      Batch second = loader.iterator().next();
      assertThat(second.spec("image").shape()).containsExactly(10, 6, 3);
    }
  }
}
