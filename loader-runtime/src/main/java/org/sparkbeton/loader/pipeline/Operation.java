package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;

/**
 * A per-sample transform in a pipeline; the built-in transforms implement it and user operations
 * take part on equal terms. Planning happens once, before any data is read: {@link #plan} receives
 * the spec of its input and returns a {@link Stage} bound to it, which declares its output; the
 * loader sizes every buffer from those declarations. Refuse an input you cannot handle by throwing
 * {@link IllegalArgumentException} saying what you expected and what you got: the loader prefixes the
 * pipeline and step.
 */
public interface Operation {

  /** Binds the operation to its input; the result's {@link Stage#output()} is the next step's input. */
  Stage plan(TensorSpec input);

  /** The name used in messages. */
  default String name() {
    return getClass().getSimpleName();
  }

  /**
   * A planned step. {@link #apply} runs once per sample on a worker thread, concurrently with other
   * samples on other threads: it must not allocate, lock or keep state between samples, and must
   * draw randomness only from {@link SampleContext#random()}.
   */
  interface Stage {

    /** Shape and type of what {@link #apply} writes. */
    TensorSpec output();

    /**
     * Whether {@link #apply} may be called with {@code out == in} and {@code outOffset == inOffset};
     * the loader then skips a copy. Only possible when the output has the input's size. In-place
     * stages should also work on distinct buffers (tests and other callers may do that).
     */
    default boolean inPlace() {
      return false;
    }

    /**
     * Reads one sample from {@code in} at {@code inOffset} (laid out as the input spec) and writes
     * {@link #output()} into {@code out} at {@code outOffset}. The loader passes little-endian heap
     * buffers backed by arrays ({@code hasArray()}): work on {@code array()} from
     * {@code arrayOffset() + offset} for speed, or use absolute gets and puts; never positions.
     */
    void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx);
  }
}
