package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;

/**
 * Off-heap working memory a stage asks for while planning: per-worker scratch that native code (the
 * JPEG codec, the resizer) can read and write without copying through the Java heap. The loader
 * provides it from its accounting allocator and frees it when the plan is replaced (next epoch) or the
 * loader closes, so a stage never frees what it got here. Planning outside a loader passes
 * {@link #NONE}: the stage then keeps its own heap scratch.
 */
public interface StageMemory {

  /** No off-heap memory: stages fall back to heap scratch (tests, single-threaded callers). */
  StageMemory NONE = new StageMemory() {
    @Override
    public int workers() {
      return 0;
    }

    @Override
    public ByteBuffer direct(int bytes, String purpose) {
      throw new UnsupportedOperationException("StageMemory.NONE has no off-heap memory (check workers() first)");
    }
  };

  /**
   * Worker threads that will run the stage: {@link SampleContext#worker()} is in {@code [0, workers())};
   * 0 when no off-heap memory is offered.
   */
  int workers();

  /** A zero-filled, little-endian direct buffer of {@code bytes} bytes, freed by the loader, not the caller. */
  ByteBuffer direct(int bytes, String purpose);
}
