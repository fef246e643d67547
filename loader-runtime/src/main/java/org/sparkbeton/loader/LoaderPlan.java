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
  private ByteBuffer[] scratch;
  private PlanMemory memory;

  LoaderPlan(BufferAllocator allocator, int workers, int slots, int batchSize) {
    this.allocator = allocator;
    this.workers = workers;
    this.slots = slots;
    this.batchSize = batchSize;
  }

  /** Plans every pipeline with {@code planner}, given this plan's fresh stage memory. */
  void replan(Function<StageMemory, List<PlannedPipeline>> planner) {
    if (memory != null) {
      memory.close();
    }
    memory = new PlanMemory(allocator, workers);
    List<PlannedPipeline> planned;
    try {
      planned = planner.apply(memory);
    } catch (RuntimeException | Error e) {
      memory.close(); // a refused plan keeps nothing (the user's allocator may outlive this loader)
      throw e;
    }
    SlotPlan nextSlots = SlotPlan.of(planned);
    int[] rows = nextSlots.rowBytes();
    boolean same = ring != null && ring.regions() == rows.length;
    for (int i = 0; same && i < rows.length; i++) {
      same = ring.rowBytes(i) == rows[i];
    }
    if (!same && ring != null && ring.heldSlots() > 0) {
      memory.close(); // refused: the new plan keeps nothing; the next replan starts over
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

  ByteBuffer[] scratch() {
    return scratch;
  }

  /** Off-heap bytes held: the slots and the stages' memory. */
  long offHeapBytes() {
    long total = memory == null ? 0 : memory.bytes();
    for (int s = 0; ring != null && s < ring.slots(); s++) {
      total += ring.buffer(s).capacity();
    }
    return total;
  }

  @Override
  public void close() {
    if (ring != null) {
      ring.close();
    }
    if (memory != null) {
      memory.close();
    }
  }
}
