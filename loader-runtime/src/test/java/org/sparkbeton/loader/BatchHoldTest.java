package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
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

  @Test
  void closingTheLoaderDropsHoldsAndFreesTheSlots() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    Batch held;
    Batch.Hold hold;
    try (Loader l = loader(allocator).build()) {
      held = l.iterator().next();
      hold = held.retain();
    }
    assertThat(allocator.outstanding()).isZero();
    assertThat(held.isValid()).isFalse();
    hold.close(); // after the loader: nothing left to release, no error
    allocator.close();
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

  /**
   * A holder with views of its own over the slot (DJL's NDArrays) learns that the loader closes before the slot's
   * memory is freed: a DJL batch used after the Loader itself was closed read freed memory and crashed the JVM.
   */
  @Test
  void whatAnOpenHoldAskedRunsBeforeTheLoaderFreesItsSlot() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("hold");
    List<String> events = new ArrayList<>();
    Loader l = loader(allocator).build();
    Iterator<Batch> it = l.iterator();
    Batch first = it.next();
    Batch second = it.next();
    Batch.Hold open = first.retain();
    Batch.Hold closedFirst = second.retain();
    open.whenLoaderCloses(() -> {
      // the slot's memory is still there: the batch reads its values
      events.add("open hold: label " + first.data("label").getLong(0) + ", outstanding " + allocator.outstanding());
      open.close();
    });
    closedFirst.whenLoaderCloses(() -> events.add("a closed hold's action ran"));
    closedFirst.close();
    Batch.Hold sameSlot = first.retain(); // a second hold of slot 0, closed before the loader: its action must not run
    sameSlot.whenLoaderCloses(() -> events.add("the second hold's action ran"));
    sameSlot.close();
    long buffers = allocator.outstanding();
    l.close();
    assertThat(events).containsExactly("open hold: label 1000, outstanding " + buffers);
    assertThat(open.isClosed()).isTrue();
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }
}
