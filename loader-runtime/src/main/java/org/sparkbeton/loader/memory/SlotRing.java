package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;

/**
 * The ring of batch slots, allocated once: {@code slots} buffers, each holding, for every output,
 * {@code batchSize} rows of that output's sample size followed by {@code batchSize} int32 lengths.
 * Regions start on 64-byte boundaries. A slot's generation changes each time it is given to a new
 * batch, so a {@code Batch} view can tell that its slot has been recycled. A consumer may <b>hold</b> a
 * slot ({@link #hold}) to keep its batch past the loader's usual window (a DJL batch keeps the NDArrays
 * that wrap the slot's memory until it is closed): the loader does not recycle a held slot.
 */
public final class SlotRing implements AutoCloseable {
  private static final int ALIGN = 64;
  private final OffHeapBuffer[] memory;
  private final long[] generations;
  private final int[] holds;
  /** What holders asked to run before a held slot's memory is freed ({@link #beforeFree}), by slot. */
  private final java.util.List<java.util.List<Runnable>> beforeFree;
  private volatile Runnable onRelease = () -> { };
  private final int[] dataOffsets;
  private final int[] lengthOffsets;
  private final int[] rowBytes;
  private final int batchSize;

  public SlotRing(BufferAllocator allocator, int slots, int batchSize, int[] rowBytes) {
    if (slots < 1 || batchSize < 1) {
      throw new IllegalArgumentException("A slot ring needs at least one slot and a batch size of at least 1, got "
          + slots + " slots of " + batchSize);
    }
    this.batchSize = batchSize;
    this.rowBytes = rowBytes.clone();
    this.dataOffsets = new int[rowBytes.length];
    this.lengthOffsets = new int[rowBytes.length];
    long at = 0;
    for (int o = 0; o < rowBytes.length; o++) {
      dataOffsets[o] = (int) at;
      at = align(at + (long) rowBytes[o] * batchSize);
      lengthOffsets[o] = (int) at;
      at = align(at + 4L * batchSize);
      if (at > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("A batch of " + batchSize + " samples needs more than 2 GiB; lower the batch size");
      }
    }
    long slotBytes = Math.max(at, ALIGN);
    this.memory = new OffHeapBuffer[slots];
    this.generations = new long[slots];
    this.holds = new int[slots];
    this.beforeFree = new java.util.ArrayList<>();
    for (int s = 0; s < slots; s++) {
      beforeFree.add(new java.util.ArrayList<>());
    }
    try {
      for (int s = 0; s < slots; s++) {
        memory[s] = allocator.allocate(slotBytes, "batch slot " + s + " of " + slots);
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  private static long align(long v) {
    return (v + ALIGN - 1) & -ALIGN;
  }

  public int slots() {
    return memory.length;
  }

  public int batchSize() {
    return batchSize;
  }

  public ByteBuffer buffer(int slot) {
    return memory[slot].buffer();
  }

  public int dataOffset(int output) {
    return dataOffsets[output];
  }

  public int lengthsOffset(int output) {
    return lengthOffsets[output];
  }

  public int rowBytes(int output) {
    return rowBytes[output];
  }

  /** Number of regions (outputs, then any intermediate regions of batch operations). */
  public int regions() {
    return rowBytes.length;
  }

  /** Current generation of {@code slot}; read by batch views (any thread). */
  public synchronized long generation(int slot) {
    return generations[slot];
  }

  /**
   * Holds {@code slot} while it still holds the batch of {@code generation}; returns false (and holds
   * nothing) once the slot has been recycled or the ring closed. Holds are counted.
   */
  public synchronized boolean hold(int slot, long generation) {
    if (generations[slot] != generation) {
      return false;
    }
    holds[slot]++;
    return true;
  }

  /**
   * Releases one hold taken with {@link #hold} for {@code generation}, then runs the release callback
   * (outside this ring's lock). A release for an older generation (the ring was closed meanwhile) does
   * nothing.
   */
  public void release(int slot, long generation) {
    synchronized (this) {
      if (generations[slot] != generation || holds[slot] == 0) {
        return;
      }
      if (--holds[slot] == 0) {
        beforeFree.get(slot).clear();
      }
    }
    onRelease.run();
  }

  /**
   * Runs {@code action} before {@link #close()} frees {@code slot}, if the slot is still held then for the batch
   * of {@code generation}: a holder whose own views of the memory (NDArrays wrapping it) must be released before
   * it goes. Returns false, registering nothing, once that batch's slot has been recycled or the ring closed.
   */
  public synchronized boolean beforeFree(int slot, long generation, Runnable action) {
    if (generations[slot] != generation || holds[slot] == 0) {
      return false;
    }
    beforeFree.get(slot).add(java.util.Objects.requireNonNull(action, "action"));
    return true;
  }

  /** Whether a consumer holds {@code slot}: the loader must not recycle it. */
  public synchronized boolean isHeld(int slot) {
    return holds[slot] > 0;
  }

  /** Slots currently held. */
  public synchronized int heldSlots() {
    int n = 0;
    for (int h : holds) {
      n += h > 0 ? 1 : 0;
    }
    return n;
  }

  /** Runs after every release (the running epoch wakes the workers waiting for a held slot). */
  public void onRelease(Runnable callback) {
    this.onRelease = java.util.Objects.requireNonNull(callback, "callback");
  }

  /**
   * Gives {@code slot} to a new batch: the old views become invalid. Optionally fills it with a poison byte.
   * A held slot is refused: the caller waits for {@link #isHeld} to turn false first.
   */
  public long recycle(int slot, boolean poison) {
    long g;
    synchronized (this) {
      if (holds[slot] > 0) {
        throw new IllegalStateException("Slot " + slot + " is held by a consumer and cannot be recycled");
      }
      g = ++generations[slot];
    }
    if (poison) {
      ByteBuffer b = memory[slot].buffer();
      for (int i = 0; i < b.capacity(); i++) {
        b.put(i, (byte) 0xA5);
      }
    }
    return g;
  }

  /**
   * Runs what the holders of held slots asked to run first ({@link #beforeFree}), then invalidates every view,
   * drops every hold (a later release does nothing) and frees the slots.
   */
  @Override
  public void close() {
    java.util.List<Runnable> first = new java.util.ArrayList<>();
    synchronized (this) {
      for (java.util.List<Runnable> actions : beforeFree) {
        first.addAll(actions);
        actions.clear();
      }
    }
    RuntimeException failure = null;
    for (Runnable action : first) {
      try {
        action.run(); // outside the lock: a holder releases its hold from here
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    synchronized (this) {
      for (int s = 0; s < generations.length; s++) {
        generations[s]++;
        holds[s] = 0;
      }
    }
    for (OffHeapBuffer b : memory) {
      if (b != null) {
        b.close();
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
