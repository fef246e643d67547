package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Iterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;

/**
 * {@link HandedBatches}: a loader closed from another thread leaves the memory of the two batches its consumer
 * may still be reading until the consumer is done with them; closed from the consumer's thread, it frees
 * everything at once. A buffer from {@link Batch#data} cannot be checked, so a close that freed it under the
 * consumer read freed memory. The timeout only guards against a hang.
 */
@Timeout(120)
class HandedBatchesTest {
  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 40, 4, 4);
  }

  /** batchesAhead(1): a ring of 3 slots; labels are 1000 + sample, in order. */
  private static Loader loader(DirectBufferAllocator allocator) throws IOException {
    return Loader.builder(file).batchSize(4).numThreads(2).batchesAhead(1).allocator(allocator)
        .pipeline("label", new IntDecoder()).build();
  }

  private static void closeOnAnotherThread(Loader loader) throws InterruptedException {
    Thread closer = new Thread(loader::close, "closer");
    closer.start();
    closer.join();
  }

  @Test
  void aCloseFromAnotherThreadKeepsTheConsumersTwoLatestBatchesUntilItCallsAgain() throws Exception {
    DirectBufferAllocator allocator = new DirectBufferAllocator("handed");
    Loader l = loader(allocator);
    Iterator<Batch> it = l.iterator();
    it.next();
    Batch before = it.next();
    Batch latest = it.next();
    ByteBuffer reading = latest.data("label"); // what a consumer reads with no check left
    closeOnAnotherThread(l);
    assertThat(allocator.outstanding()).isEqualTo(2); // batches 1 and 2; batch 0 and the free slot are gone
    assertThat(reading.getLong(0)).isEqualTo(1008);
    assertThat(before.data("label").getLong(0)).isEqualTo(1004);
    assertThatThrownBy(it::hasNext).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Epoch 0 was closed after 3 of its 10 batches");
    assertThat(allocator.outstanding()).isZero();
    assertThat(latest.isValid()).isFalse();
    allocator.close();
  }

  @Test
  void aCloseFromTheConsumersOwnThreadFreesEverythingAtOnce() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("handed");
    Batch latest;
    try (Loader l = loader(allocator)) {
      Iterator<Batch> it = l.iterator();
      it.next();
      latest = it.next();
    }
    assertThat(allocator.outstanding()).isZero();
    assertThat(latest.isValid()).isFalse();
    allocator.close();
  }

  @Test
  void aConsumerWhoseThreadEndedHoldsNothingAtTheClose() throws Exception {
    DirectBufferAllocator allocator = new DirectBufferAllocator("handed");
    Loader l = loader(allocator);
    Iterator<Batch> it = l.iterator();
    Thread consumer = new Thread(() -> {
      it.next();
      it.next();
    }, "consumer");
    consumer.start();
    consumer.join();
    closeOnAnotherThread(l);
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void aFinishedLoopHoldsNothingAndANewEpochReleasesTheLastOnesSlots() throws Exception {
    DirectBufferAllocator allocator = new DirectBufferAllocator("handed");
    Loader l = loader(allocator);
    long sum = 0;
    for (Batch b : l) {
      sum += b.data("label").getLong(0);
    }
    assertThat(sum).isEqualTo(10 * 1000 + 4 * 45);
    assertThat(l.core().handedBatches().held()).isZero(); // hasNext() false ended the loop
    Iterator<Batch> second = l.iterator();
    second.next();
    second.next();
    assertThat(l.core().handedBatches().held()).isEqualTo(2);
    Iterator<Batch> third = l.iterator(); // a new epoch: the last one's batches go
    assertThat(l.core().handedBatches().held()).isZero(); // their slots are the new epoch's to recycle
    assertThat(third.next().data("label").getLong(0)).isEqualTo(1000);
    closeOnAnotherThread(l); // this thread is alive and mid-epoch: batch 0 of the third stays until it calls again
    assertThat(allocator.outstanding()).isEqualTo(1);
    assertThatThrownBy(third::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("was closed");
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void aBatchTheConsumerRetainsIsHeldByItsHoldAlone() throws Exception {
    DirectBufferAllocator allocator = new DirectBufferAllocator("handed");
    Loader l = loader(allocator);
    Iterator<Batch> it = l.iterator();
    Batch.Hold first = it.next().retain();
    Batch second = it.next();
    Batch.Hold hold = second.retain();
    assertThat(l.core().handedBatches().held()).isZero();
    first.close();
    closeOnAnotherThread(l); // this thread is alive and mid-epoch, but holds nothing here
    assertThat(allocator.outstanding()).isEqualTo(1);
    assertThat(second.data("label").getLong(0)).isEqualTo(1004);
    hold.close();
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }
}
