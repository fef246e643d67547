package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;

/**
 * An operation on a whole batch of one output, for transforms that mix samples (FFCV's ImageMixup,
 * LabelMixup). Batch operations form the tail of a pipeline: they run once per batch, on one worker
 * thread, after every row of the batch went through the per-sample steps, and before the batch is
 * handed to the consumer. Planned like {@link Operation}: {@link #plan} declares the per-sample output.
 */
public interface BatchOperation {

  BatchStage plan(TensorSpec input);

  default String name() {
    return getClass().getSimpleName();
  }

  /** A planned batch step. Runs concurrently for different batches: keep no state between calls. */
  interface BatchStage {
    /** Spec of one row of the output. */
    TensorSpec output();

    /** Whether {@link #apply} may be called with {@code out == in} at the same offset. */
    default boolean inPlace() {
      return false;
    }

    /**
     * Reads {@code ctx.size()} rows of the input spec from {@code in} at {@code inOffset} and writes as
     * many output rows at {@code outOffset} of {@code out} (slot memory: direct buffers, use absolute
     * gets and puts).
     */
    void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, BatchContext ctx);
  }
}
