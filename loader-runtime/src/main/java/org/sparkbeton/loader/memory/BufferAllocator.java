package org.sparkbeton.loader.memory;

/**
 * The one owner of the loader's off-heap memory: batch slots, per-thread scratch, page caches. Every
 * buffer is accounted from {@link #allocate} to {@link OffHeapBuffer#close()}; {@link #close()} frees
 * what is left and throws if anything was still outstanding, naming each leak (Arrow's
 * {@code BaseAllocator.close}). Direct memory implements it today ({@link DirectBufferAllocator});
 * pinned host memory for GPU transfer will implement the same interface, so batches can live in
 * pinned memory without any API change.
 */
public interface BufferAllocator extends AutoCloseable {

  /**
   * A zero-filled, little-endian buffer of {@code bytes} bytes (at most {@link Integer#MAX_VALUE}).
   *
   * @param purpose what the buffer is for, reported if it leaks
   * @throws IllegalStateException if the allocator is closed or the allocation would exceed its limit
   */
  OffHeapBuffer allocate(long bytes, String purpose);

  /** Bytes currently allocated and not yet released. */
  long allocatedBytes();

  /** The most bytes ever allocated at once. */
  long peakBytes();

  /** Buffers currently outstanding. */
  int outstanding();

  /**
   * Frees every outstanding buffer. Throws {@link IllegalStateException} listing them (purpose and
   * size) if there were any: a leak is a bug of the owner, reported loudly. Idempotent.
   */
  @Override
  void close();
}
