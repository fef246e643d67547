package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * What every built-in transform's planned stage declares besides its work: the output spec fixed when
 * planning, and whether the loader may run it in place. A transform's {@code plan} returns an anonymous
 * {@link PerSample} (or {@link PerBatch}) that writes only {@code apply}; the stage's class stays the
 * transform's own, so the loader's call of {@code apply} sees as many classes as before and the loops
 * inside are untouched.
 */
abstract class TransformStage {
  /** Whether {@code apply} may be called with {@code out == in} at the same offset (the loader then skips a copy). */
  enum Writes { IN_PLACE, SEPARATE_OUTPUT }

  private final TensorSpec output;
  private final boolean inPlace;

  private TransformStage(TensorSpec output, Writes writes) {
    this.output = output;
    this.inPlace = writes == Writes.IN_PLACE;
  }

  public final TensorSpec output() {
    return output;
  }

  public final boolean inPlace() {
    return inPlace;
  }

  /**
   * Copies {@code bytes} bytes of a sample (or rows) to the output, unless the loader runs the stage in place
   * ({@code out == in} at the same offset): what an in-place stage does with data it leaves unchanged when it
   * is given distinct buffers.
   */
  static void copyIfDistinct(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, int bytes) {
    if (in != out || inOffset != outOffset) {
      out.put(outOffset, in, inOffset, bytes);
    }
  }

  /** A per-sample stage ({@link Operation.Stage}). */
  abstract static class PerSample extends TransformStage implements Operation.Stage {
    PerSample(TensorSpec output, Writes writes) {
      super(output, writes);
    }
  }

  /** A whole-batch stage ({@link BatchOperation.BatchStage}). */
  abstract static class PerBatch extends TransformStage implements BatchOperation.BatchStage {
    PerBatch(TensorSpec output, Writes writes) {
      super(output, writes);
    }
  }
}
