package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** Sets the int64 label of the listed samples (dataset indices) to {@code newLabel} (FFCV's {@code ReplaceLabel}). In place. */
public final class ReplaceLabel implements Operation {
  private final long[] indices;
  private final long newLabel;

  public ReplaceLabel(long[] indices, long newLabel) {
    this.indices = indices.clone();
    Arrays.sort(this.indices);
    this.newLabel = newLabel;
  }

  @Override
  public Stage plan(TensorSpec input) {
    if (input.dtype() != DType.INT64 || input.elements() != 1) {
      throw new IllegalArgumentException("ReplaceLabel expects an int64 [1] label, got " + input);
    }
    long[] sorted = indices;
    long label = newLabel;
    return new TransformStage.PerSample(input, TransformStage.Writes.IN_PLACE) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        boolean replace = Arrays.binarySearch(sorted, ctx.sample()) >= 0;
        out.putLong(outOffset, replace ? label : in.getLong(inOffset));
      }
    };
  }
}
