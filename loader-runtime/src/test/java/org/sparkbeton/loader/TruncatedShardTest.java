package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;

/**
 * A shard file cut short in place under a loader (cp or rsync --inplace over a dataset in training): its mapping
 * faults where the file is gone, which killed the JVM (SIGBUS) when the native JPEG codec read there, or failed the
 * epoch with an {@link InternalError} reported as the loader's bug.
 */
class TruncatedShardTest {
  @TempDir Path dir;

  @Test
  void anEpochStartsOnlyOverFilesAsTheLoaderOpenedThem() throws IOException {
    Path file = Datasets.rawImages(dir, 40, 4, 4);
    long size = Files.size(file);
    try (Loader loader = Loader.builder(file).batchSize(4).numThreads(2).pipeline("label", new IntDecoder()).build()) {
      int batches = 0;
      for (Batch b : loader) {
        batches++;
      }
      assertThat(batches).isEqualTo(10);
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(size / 2);
      }
      assertThatThrownBy(loader::iterator).isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining(file + " is now " + size / 2 + " bytes, not the " + size + " it had when the loader"
              + " opened it: it was truncated or rewritten in place");
    }
  }

  @Test
  void aFaultReadingAMappingIsTheDatasetsErrorNamingTheFile() {
    InternalError fault = new InternalError("a fault occurred in a recent unsafe memory access operation in compiled"
        + " Java code");
    Throwable explained = MappedFault.explained(fault, "/data/part-00003.beton");
    assertThat(explained).isInstanceOf(UncheckedIOException.class).hasRootCause(fault)
        .hasMessageContaining("A fault reading the memory-mapped file /data/part-00003.beton (a fault occurred in a"
            + " recent unsafe memory access operation in compiled Java code): it was truncated or rewritten in place");
    assertThat(new LoaderFailedException(1, 2, 3, "image", explained).isDataError()).isTrue();
    assertThat(new LoaderFailedException(1, 2, 3, "image", fault).isDataError()).isFalse();
    InternalError other = new InternalError("something else");
    assertThat(MappedFault.explained(other, "f")).isSameAs(other);
  }
}
