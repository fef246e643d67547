package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;

/**
 * {@link Batch#retain()}: a held batch's slot is not recycled until the hold is closed (what loader-djl needs to
 * hand a slot's memory to DJL without a copy). The timeout only guards against a hang if a release failed to wake
 * the workers; nothing here is timed.
 */
@Timeout(120)
class BatchHoldTest {
  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 40, 4, 4);
  }

  /** batchesAhead(1): a ring of 3 slots, batch b in slot b % 3; labels are 1000 + sample. */
  private static LoaderBuilder loader(DirectBufferAllocator allocator) {
    return Loader.builder(file).batchSize(4).numThreads(2).batchesAhead(1).allocator(allocator)
        .pipeline("label", new IntDecoder());
  }

  private static long label0(Batch b) {
    return b.data("label").getLong(0);
  }

  @Test
  void aHeldBatchOutlivesTheWindowAndItsSlotWaitsForTheRelease() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    try (Loader l = loader(allocator).build()) {
      Iterator<Batch> it = l.iterator();
      Batch first = it.next();
      Batch.Hold hold = first.retain();
      it.next();
      it.next(); // without the hold, the worker would now refill slot 0 with batch 3
      assertThat(first.isValid()).isTrue();
      assertThat(label0(first)).isEqualTo(1000);
      // batch 3 needs slot 0: waiting would never end on this thread, so the loader says why
      assertThatThrownBy(it::next).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Batch 3 of epoch 0 needs slot 0, which batch 0 still holds")
          .hasMessageContaining("a slot comes back for the batch batchesAhead + 2 = 3 after the one it held, so"
              + " release each batch before asking for that one; at most 3 batches can be held at once");
      hold.close();
      Batch fourth = it.next(); // the release woke the worker waiting for slot 0
      assertThat(label0(fourth)).isEqualTo(1012);
      assertThat(first.isValid()).isFalse();
      assertThatThrownBy(() -> label0(first)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Batch 0 of epoch 0 is no longer valid");
      while (it.hasNext()) {
        it.next();
      }
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void holdsAreCountedAndClosingOneTwiceReleasesOnce() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    try (Loader l = loader(allocator).build()) {
      Iterator<Batch> it = l.iterator();
      Batch first = it.next();
      Batch.Hold a = first.retain();
      Batch.Hold b = first.retain();
      a.close();
      a.close();
      assertThat(a.isClosed()).isTrue();
      it.next();
      it.next();
      assertThatThrownBy(it::next).isInstanceOf(IllegalStateException.class).hasMessageContaining("needs slot 0");
      b.close();
      assertThat(label0(it.next())).isEqualTo(1012);
    }
    allocator.close();
  }

  @Test
  void aRecycledBatchCannotBeHeld() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    try (Loader l = loader(allocator).build()) {
      Iterator<Batch> it = l.iterator();
      Batch first = it.next();
      for (int i = 0; i < 3; i++) {
        it.next(); // batch 3 is in slot 0
      }
      assertThatThrownBy(first::retain).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Batch 0 of epoch 0 is no longer valid");
    }
    allocator.close();
  }

  /**
   * Closing the loader frees every slot but a held one, which stays its batch's, valid and readable, until the hold
   * is closed: a training step on another thread may still read it (freeing it under a DJL step crashed the JVM).
   */
  @Test
  void aHeldBatchOutlivesTheLoaderAndItsReleaseFreesIt() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    Batch held;
    Batch other;
    Batch.Hold hold;
    try (Loader l = loader(allocator).build()) {
      Iterator<Batch> it = l.iterator();
      held = it.next();
      other = it.next();
      hold = held.retain();
    }
    assertThat(allocator.outstanding()).isEqualTo(1); // the held slot's memory, nothing else
    assertThat(held.isValid()).isTrue();
    assertThat(label0(held)).isEqualTo(1000);
    assertThat(other.isValid()).isFalse();
    Batch.Hold second = held.retain(); // still its batch's: it can be held again
    hold.close();
    assertThat(allocator.outstanding()).isEqualTo(1); // the second hold keeps it
    assertThat(label0(held)).isEqualTo(1000);
    second.close();
    assertThat(allocator.outstanding()).isZero();
    assertThat(held.isValid()).isFalse();
    second.close(); // idempotent
    hold.close();
    allocator.close();
  }

  /** A loader that owns its allocator closes it once the last held slot is released: nothing leaks, nothing throws. */
  @Test
  void anOwnedAllocatorClosesAfterTheLastRelease() throws IOException {
    Batch held;
    Batch.Hold hold;
    try (Loader l = Loader.builder(file).batchSize(4).numThreads(2).batchesAhead(1)
        .pipeline("label", new IntDecoder()).build()) {
      held = l.iterator().next();
      hold = held.retain();
    }
    assertThat(label0(held)).isEqualTo(1000);
    hold.close(); // the owned allocator closes here, and would throw on anything still allocated
    assertThat(held.isValid()).isFalse();
  }

  @Test
  void aNewOutputSizeWaitsUntilNoBatchIsHeld() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    ProgressiveResizeTest.ResizableDecoder decoder = new ProgressiveResizeTest.ResizableDecoder();
    try (Loader l = Loader.builder(file).batchSize(4).numThreads(1).batchesAhead(1).allocator(allocator)
        .pipeline("x", "label", decoder).build()) {
      Batch last = null;
      for (Batch b : l) {
        last = b;
      }
      Batch.Hold hold = last.retain();
      decoder.size = 8;
      assertThatThrownBy(l::iterator).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Cannot reallocate the slot ring for the new output sizes")
          .hasMessageContaining("1 slot(s) are still held");
      assertThat(last.data("x").remaining()).isEqualTo(16); // still readable: its ring was not freed
      hold.close();
      Batch next = l.iterator().next();
      assertThat(next.data("x").remaining()).isEqualTo(32);
      assertThat(last.isValid()).isFalse();
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void aHoldFromTheLastEpochKeepsItsSlotInTheNext() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    try (Loader l = loader(allocator).build()) {
      Batch last = null;
      for (Batch b : l) {
        last = b; // batch 9 of epoch 0, in slot 0
      }
      Batch.Hold hold = last.retain();
      Iterator<Batch> it = l.iterator(); // epoch 1's batch 0 needs slot 0 as well
      assertThatThrownBy(it::next).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Batch 0 of epoch 1 needs slot 0, which a batch of an earlier epoch still holds");
      assertThat(label0(last)).isEqualTo(1036);
      hold.close();
      assertThat(label0(it.next())).isEqualTo(1000);
    }
    allocator.close();
  }
}
