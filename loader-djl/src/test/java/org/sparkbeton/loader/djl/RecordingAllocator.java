package org.sparkbeton.loader.djl;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.memory.OffHeapBuffer;

/** A direct allocator that remembers its buffers, so a test can write into a loader's batch slot. */
final class RecordingAllocator implements BufferAllocator {
  private final DirectBufferAllocator delegate = new DirectBufferAllocator("djl test");
  private final List<OffHeapBuffer> buffers = new ArrayList<>();

  @Override
  public synchronized OffHeapBuffer allocate(long bytes, String purpose) {
    OffHeapBuffer b = delegate.allocate(bytes, purpose);
    buffers.add(b);
    return b;
  }

  /** The writable memory of the live buffer allocated for {@code purpose} (e.g. "batch slot 0 of 3"). */
  synchronized ByteBuffer live(String purpose) {
    for (int i = buffers.size() - 1; i >= 0; i--) {
      OffHeapBuffer b = buffers.get(i);
      if (!b.isClosed() && b.purpose().equals(purpose)) {
        return b.buffer();
      }
    }
    throw new IllegalStateException("No live buffer for " + purpose);
  }

  @Override
  public long allocatedBytes() {
    return delegate.allocatedBytes();
  }

  @Override
  public long peakBytes() {
    return delegate.peakBytes();
  }

  @Override
  public int outstanding() {
    return delegate.outstanding();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
