package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.BatchContext;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code MixupToOneHot(num_classes)}: {@link LabelMixup} rows {@code [y1, y2, λ]} → soft targets
 * float32 [numClasses] with λ at y1 and 1 − λ added at y2 (so a row sums to 1 even when y1 = y2).
 */
public final class MixupToOneHot implements BatchOperation {
  private final int numClasses;

  public MixupToOneHot(int numClasses) {
    if (numClasses < 1) {
      throw new IllegalArgumentException("MixupToOneHot needs at least 1 class, got " + numClasses);
    }
    this.numClasses = numClasses;
  }

  @Override
  public BatchStage plan(TensorSpec input) {
    if (input.dtype() != DType.FLOAT32 || input.elements() != 3) {
      throw new IllegalArgumentException("MixupToOneHot expects LabelMixup's float32 [3] rows, got " + input);
    }
    TensorSpec output = TensorSpec.of(DType.FLOAT32, numClasses);
    return new TransformStage.PerBatch(output, TransformStage.Writes.SEPARATE_OUTPUT) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, BatchContext ctx) {
        for (int i = 0; i < ctx.size(); i++) {
          int src = inOffset + 12 * i;
          int dst = outOffset + 4 * numClasses * i;
          float y1 = in.getFloat(src);
          float y2 = in.getFloat(src + 4);
          float lam = in.getFloat(src + 8);
          for (int k = 0; k < numClasses; k++) {
            out.putFloat(dst + 4 * k, 0f);
          }
          add(out, dst, y1, lam, ctx, i);
          add(out, dst, y2, 1 - lam, ctx, i);
        }
      }

      private void add(ByteBuffer out, int dst, float label, float weight, BatchContext ctx, int row) {
        int k = (int) label;
        if (k != label || k < 0 || k >= numClasses) {
          throw new IllegalArgumentException("MixupToOneHot: label " + label + " of sample " + ctx.sample(row)
              + " is not a class in 0.." + (numClasses - 1));
        }
        out.putFloat(dst + 4 * k, out.getFloat(dst + 4 * k) + weight);
      }
    };
  }
}
