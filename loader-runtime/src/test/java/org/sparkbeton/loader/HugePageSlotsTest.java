package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.nativeimpl.HugePageMemory;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/**
 * Batch slots in huge-page mappings (the default allocator's, for slots of 8 MiB and more) hold the same batches
 * as slots from {@code allocateDirect}, and a loader's slots are all unmapped when it closes.
 */
class HugePageSlotsTest {
  // 64 samples of 224 x 224 x 3 bytes: 9.6 MB slots, above DirectBufferAllocator.HUGE_PAGE_MIN_BYTES
  private static final int BATCH = 64;

  @TempDir
  static Path dir;

  @BeforeAll
  static void dataset() throws IOException {
    List<List<Object[]>> shards = new ArrayList<>();
    shards.add(PhotoDatasets.samples(3, 2 * BATCH + 5));
    PhotoDatasets.write(dir, shards);
  }

  private static LoaderBuilder builder() {
    return Loader.builder(dir).batchSize(BATCH).numThreads(2).seed(5).order(OrderOption.RANDOM).dropLast(false)
        .pipeline("image", new RandomResizedCropRgbDecoder(224, 224), new RandomHorizontalFlip())
        .pipeline("label", new IntDecoder());
  }

  @Test
  void hugePageSlotsHoldTheSameBatchesAsDirectBuffers() throws IOException {
    assumeTrue(HugePageMemory.isAvailable(), "libbetoncodec is not loaded");
    int before = HugePageMemory.outstanding();
    List<byte[]> plain;
    List<byte[]> huge;
    try (BufferAllocator direct = new DirectBufferAllocator("direct", Long.MAX_VALUE, true, false);
        Loader loader = builder().allocator(direct).build()) {
      assertThat(HugePageMemory.outstanding()).isEqualTo(before);
      plain = BatchBytes.epochs(loader, 2, "image", "label");
    }
    try (Loader loader = builder().build()) { // the default allocator
      assertThat(HugePageMemory.outstanding()).as("slots in huge-page mappings").isGreaterThanOrEqualTo(before + 3);
      huge = BatchBytes.epochs(loader, 2, "image", "label");
    }
    assertThat(HugePageMemory.outstanding()).as("unmapped on close").isEqualTo(before);
    assertThat(huge).hasSameSizeAs(plain);
    for (int i = 0; i < plain.size(); i++) {
      assertThat(huge.get(i)).as("buffer %d", i).isEqualTo(plain.get(i));
    }
  }
}
