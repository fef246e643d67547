package org.sparkbeton.loader;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.SlotRing;
import org.sparkbeton.loader.pipeline.PlannedPipeline;
import org.sparkbeton.loader.pipeline.StageMemory;

/**
 * What a loader's current plan holds: the planned pipelines, the slot regions, the ring of batch slots,
 * two heap scratch buffers per worker and the stages' off-heap memory. Re-planned at every epoch (the
 * workers of the last one have stopped): stage memory is replaced, the ring only when the outputs'
 * sizes changed (batches of earlier epochs then become invalid; refused while a batch is held), the heap
 * scratch only when it grows.
 * Not thread-safe: the loader calls it under its own lock.
 */
final class LoaderPlan implements AutoCloseable {
  private final BufferAllocator allocator;
  private final int workers;
  private final int slots;
  private final int batchSize;
  private List<PlannedPipeline> pipelines;
  private SlotPlan slotPlan;
  private SlotRing ring;
  /** The ring {@link #close()} closed, whose held slots are freed as their holds are released. */
  private SlotRing closedRing;
  private ByteBuffer[] scratch;
  private PlanMemory memory;

  LoaderPlan(BufferAllocator allocator, int workers, int slots, int batchSize) {
    this.allocator = allocator;
    this.workers = workers;
    this.slots = slots;
    this.batchSize = batchSize;
  }

  /**
   * Plans every pipeline with {@code planner}, given this plan's fresh stage memory. When planning or allocating
   * fails, the new stage memory is freed before the error is rethrown: a failed plan keeps nothing but the ring of
   * the last plan, if any, which {@link #close()} frees (the user's allocator may outlive the loader, and an owned
   * one reports what is still allocated when it is closed).
   */
  void replan(Function<StageMemory, List<PlannedPipeline>> planner) {
    if (memory != null) {
      memory.close();
      memory = null;
    }
    PlanMemory fresh = new PlanMemory(allocator, workers);
    try {
      install(planner.apply(fresh));
    } catch (RuntimeException | Error e) {
      AfterFailure.close(e, fresh);
      throw e;
    }
    memory = fresh;
  }

  /** Sizes the ring and the heap scratch for {@code planned}, reallocating what no longer fits. */
  private void install(List<PlannedPipeline> planned) {
    SlotPlan nextSlots = SlotPlan.of(planned);
    int[] rows = nextSlots.rowBytes();
    boolean same = ring != null && ring.regions() == rows.length;
    for (int i = 0; same && i < rows.length; i++) {
      same = ring.rowBytes(i) == rows[i];
    }
    if (!same && ring != null && ring.heldSlots() > 0) {
      // freeing the ring would free memory a consumer still reads (NDArrays wrapping a slot)
      throw new IllegalStateException("Cannot reallocate the slot ring for the new output sizes (progressive"
          + " resizing): " + ring.heldSlots() + " slot(s) are still held by retained batches (Batch.retain(), e.g."
          + " DJL batches not closed); release them before starting the next epoch");
    }
    slotPlan = nextSlots;
    if (!same) {
      if (ring != null) {
        ring.close(); // batches of earlier epochs become invalid (their accessors throw)
        ring = null;
      }
      ring = new SlotRing(allocator, slots, batchSize, rows);
    }
    int scratchBytes = 64;
    for (PlannedPipeline p : planned) {
      scratchBytes = Math.max(scratchBytes, p.scratchBytes());
    }
    if (scratch == null || scratch[0].capacity() < scratchBytes) {
      scratch = new ByteBuffer[2 * workers];
      for (int i = 0; i < scratch.length; i++) {
        scratch[i] = ByteBuffer.allocate(scratchBytes).order(ByteOrder.LITTLE_ENDIAN);
      }
    }
    pipelines = Collections.unmodifiableList(planned);
  }

  List<PlannedPipeline> pipelines() {
    return pipelines;
  }

  SlotPlan slotPlan() {
    return slotPlan;
  }

  SlotRing ring() {
    return ring;
  }

  /** Runs {@code action} once {@link #close()} has freed every slot: at once, or when the last held one is released. */
  void whenSlotsFreed(Runnable action) {
    if (closedRing == null) {
      action.run();
    } else {
      closedRing.whenFreed(action);
    }
  }

  ByteBuffer[] scratch() {
    return scratch;
  }

  /** Off-heap bytes held: the slots and the stages' memory; 0 once closed. */
  long offHeapBytes() {
    long total = memory == null ? 0 : memory.bytes();
    for (int s = 0; ring != null && s < ring.slots(); s++) {
      total += ring.buffer(s).capacity();
    }
    return total;
  }

  /**
   * Frees the ring and the stage memory; idempotent. A slot a consumer still holds is freed by its release
   * ({@link SlotRing#close()}); {@link #whenSlotsFreed} says when.
   */
  @Override
  public void close() {
    try {
      if (ring != null) {
        ring.close();
        closedRing = ring;
      }
    } finally {
      ring = null;
      if (memory != null) {
        memory.close();
        memory = null;
      }
    }
  }
}
