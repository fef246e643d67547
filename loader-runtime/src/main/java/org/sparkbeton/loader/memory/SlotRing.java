package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;

/**
 * The ring of batch slots, allocated once: {@code slots} buffers, each holding, for every output,
 * {@code batchSize} rows of that output's sample size followed by {@code batchSize} int32 lengths.
 * Regions start on 64-byte boundaries. A slot's generation changes each time it is given to a new
 * batch, so a {@code Batch} view can tell that its slot has been recycled. A consumer may <b>hold</b> a
 * slot ({@link #hold}) to keep its batch past the loader's usual window (a DJL batch keeps the NDArrays
 * that wrap the slot's memory until it is closed): the loader does not recycle a held slot, and closing the ring
 * does not free it either. Its memory goes with the last release: a consumer may still be reading it on another
 * thread (a training step in native code, over NDArrays that wrap it), and freeing it under that read crashed the
 * JVM.
 */
public final class SlotRing implements AutoCloseable {
  private static final int ALIGN = 64;
  private final OffHeapBuffer[] memory;
  private final long[] generations;
  private final int[] holds;
  private boolean closed;
  /** Slots held when the ring closed: their memory is freed by their last release. */
  private int heldAtClose;
  /** Runs once the ring is closed and every slot's memory is freed ({@link #whenFreed}). */
  private Runnable afterFreed;
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
    int s = 0;
    try {
      for (; s < slots; s++) {
        memory[s] = allocator.allocate(slotBytes, "batch slot " + s + " of " + slots);
      }
    } catch (OutOfMemoryError e) {
      close();
      // an Error that a caller's catch (Exception) misses, and whose words name no option
      throw new IllegalStateException(String.format(java.util.Locale.ROOT, "Cannot allocate the loader's %,d batch"
          + " slots of %,d bytes (%,d bytes in all; slot %d failed: %s): the loader keeps batchesAhead + 2 batches;"
          + " lower batchesAhead or the batch size, or raise -XX:MaxDirectMemorySize", slots, slotBytes,
          slots * slotBytes, s, e.getMessage()), e);
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
   * (outside this ring's lock). A release for an older generation does nothing. The last release of a slot held
   * when the ring closed frees the slot's memory, and the last of those runs {@link #whenFreed}'s action.
   */
  public void release(int slot, long generation) {
    OffHeapBuffer free = null;
    Runnable freed = null;
    synchronized (this) {
      if (generations[slot] != generation || holds[slot] == 0) {
        return;
      }
      if (--holds[slot] == 0 && closed) {
        generations[slot]++;
        free = memory[slot];
        if (--heldAtClose == 0) {
          freed = afterFreed;
          afterFreed = null;
        }
      }
    }
    if (free != null) {
      free.close();
      if (freed != null) {
        freed.run();
      }
      return;
    }
    onRelease.run();
  }

  /**
   * Runs {@code action} once the ring is closed and every slot's memory freed: at once when no slot was held at
   * {@link #close()}, else on the thread of the last release (the owner's allocator closes then, not before).
   */
  public void whenFreed(Runnable action) {
    java.util.Objects.requireNonNull(action, "action");
    synchronized (this) {
      if (!closed) {
        throw new IllegalStateException("The slot ring is not closed");
      }
      if (heldAtClose > 0) {
        afterFreed = action;
        return;
      }
    }
    action.run();
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
      if (closed) {
        throw new IllegalStateException("The slot ring is closed; slot " + slot + " cannot be recycled");
      }
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
   * Invalidates the views of every slot no one holds and frees its memory. A held slot stays its batch's, valid
   * and readable, until its last release frees it ({@link #release}); no slot is recycled again. Idempotent.
   */
  @Override
  public void close() {
    java.util.List<OffHeapBuffer> free = new java.util.ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      for (int s = 0; s < generations.length; s++) {
        if (holds[s] > 0) {
          heldAtClose++;
        } else {
          generations[s]++;
          if (memory[s] != null) {
            free.add(memory[s]);
          }
        }
      }
    }
    for (OffHeapBuffer b : free) {
      b.close();
    }
  }
}
