package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * Drops every size-1 dimension of the sample (FFCV's {@code Squeeze()}; an int64 [1] label becomes a
 * scalar, so a batch of labels is [B]). Changes the spec only: in place, no data moves.
 */
public final class Squeeze implements Operation {
  @Override
  public Stage plan(TensorSpec input) {
    int[] kept = Arrays.stream(input.shape()).filter(d -> d != 1).toArray();
    TensorSpec output = TensorSpec.of(input.dtype(), kept);
    return new TransformStage.PerSample(output, TransformStage.Writes.IN_PLACE) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        copyIfDistinct(in, inOffset, out, outOffset, output.bytes());
      }
    };
  }
}
