package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;

/**
 * A {@code build()} that fails after it allocated (the slot ring refused, the allocator out of memory) frees what it
 * allocated and throws its own reason; a close that fails on the way is suppressed in that reason, never thrown
 * instead of it (the loader's allocator used to report the plan's stage memory as a leak, hiding the reason).
 */
class FailedBuildTest {
  /** Bytes of one 224x224 RGB sample: a batch of 15000 needs more than 2 GiB. */
  static final int SAMPLE = 224 * 224 * 3;

  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 20, 12, 10);
  }

  static LoaderBuilder crops(int batchSize) {
    return Loader.builder(file).batchSize(batchSize).dropLast(false).numThreads(2)
        .pipeline("image", new RandomResizedCropRgbDecoder(224, 224)).pipeline("label", new IntDecoder());
  }

  @Test
  void aBatchOverTwoGibThrowsItsOwnReasonAndNoLeakReport() {
    Throwable e = catchThrowable(() -> crops(15000).build());
    assertThat(e).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A batch of 15000 samples needs more than 2 GiB; lower the batch size");
    assertThat(e.getSuppressed()).as("nothing was left to report as leaked").isEmpty();
  }

  @Test
  void aRingOverTheAllocatorsLimitFreesTheStageMemoryAlreadyAllocated() {
    try (DirectBufferAllocator allocator = new DirectBufferAllocator("limited", 1 << 20)) {
      // the stage memory (two workers' crop and resize boxes, about 300 KB) fits; the first slot (8 samples) does not
      Throwable e = catchThrowable(() -> crops(8).allocator(allocator).build());
      // a slot: 8 images, 8 int32 lengths (64-byte aligned), 8 labels, 8 lengths; in use: 2 x (10x12x3 + SAMPLE)
      assertThat(e).isInstanceOf(IllegalStateException.class)
          .hasMessage("Allocating " + (8 * SAMPLE + 64 + 64 + 64) + " bytes for 'batch slot 0 of 5' would exceed the"
              + " 1048576-byte limit of allocator limited (" + 2 * (360 + SAMPLE) + " bytes in use)");
      assertThat(allocator.outstanding()).isZero();
      assertThat(allocator.allocatedBytes()).isZero();
    }
  }

  @Test
  void aCloseThatFailsAfterAFailedBuildIsSuppressedInTheReason() {
    IOException closeFailure = new IOException("cannot close the source");
    Throwable e = catchThrowable(() -> crops(15000).readThrough(f -> failingToClose(f, closeFailure)).build());
    assertThat(e).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A batch of 15000 samples needs more than 2 GiB; lower the batch size");
    assertThat(e.getSuppressed()).singleElement().satisfies(s -> assertThat(s).hasRootCause(closeFailure));
  }

  @Test
  void aCloseThatFailsStillFreesEverythingElseAndThrowsItsFirstFailure() throws IOException {
    IOException closeFailure = new IOException("cannot close the source");
    try (DirectBufferAllocator allocator = new DirectBufferAllocator("closing")) {
      Loader loader = crops(8).allocator(allocator).readThrough(f -> failingToClose(f, closeFailure)).build();
      loader.iterator().next();
      assertThatThrownBy(loader::close).isInstanceOf(java.io.UncheckedIOException.class).hasCause(closeFailure);
      assertThat(allocator.outstanding()).as("the slots and stage memory were freed all the same").isZero();
      loader.close(); // closed once: nothing more to do, nothing thrown
    }
  }

  /** A source of {@code file} whose close throws {@code failure} (after closing the file). */
  private static BetonSource failingToClose(Path file, IOException failure) throws IOException {
    return ReadThroughTest.closingThen(file, () -> {
      throw failure;
    });
  }
}
