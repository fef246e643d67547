package org.sparkbeton.loader;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.OffHeapBuffer;
import org.sparkbeton.loader.pipeline.StageMemory;

/**
 * The {@link StageMemory} of one plan of the loader: every buffer handed to a stage is accounted by the
 * loader's allocator and freed together when the loader re-plans (its workers have stopped) or closes.
 */
final class PlanMemory implements StageMemory, AutoCloseable {
  private final BufferAllocator allocator;
  private final int workers;
  private final List<OffHeapBuffer> buffers = new ArrayList<>();

  PlanMemory(BufferAllocator allocator, int workers) {
    this.allocator = allocator;
    this.workers = workers;
  }

  @Override
  public int workers() {
    return workers;
  }

  @Override
  public synchronized ByteBuffer direct(int bytes, String purpose) {
    if (bytes < 0) {
      throw new IllegalArgumentException("Cannot allocate " + bytes + " bytes of stage memory for " + purpose);
    }
    OffHeapBuffer b = allocator.allocate(Math.max(bytes, 1), "stage scratch: " + purpose);
    buffers.add(b);
    return b.buffer();
  }

  /** Bytes handed out so far. */
  synchronized long bytes() {
    long total = 0;
    for (OffHeapBuffer b : buffers) {
      total += b.size();
    }
    return total;
  }

  @Override
  public synchronized void close() {
    for (OffHeapBuffer b : buffers) {
      b.close();
    }
    buffers.clear();
  }
}
