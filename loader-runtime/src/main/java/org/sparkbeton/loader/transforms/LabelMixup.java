package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.BatchContext;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code LabelMixup(alpha, same_lambda)}: int64 [1] labels → float32 [3] rows
 * {@code [y_i, y_{i−1}, λ_i]}, with the same λ as an {@link ImageMixup} of the same α and flag.
 */
public final class LabelMixup implements BatchOperation {
  private final double alpha;
  private final boolean sameLambda;

  public LabelMixup(double alpha, boolean sameLambda) {
    MixupLambdas.checkAlpha(name(), alpha);
    this.alpha = alpha;
    this.sameLambda = sameLambda;
  }

  @Override
  public BatchStage plan(TensorSpec input) {
    if (input.dtype() != DType.INT64 || input.elements() != 1) {
      throw new IllegalArgumentException("LabelMixup expects an int64 [1] label, got " + input);
    }
    TensorSpec output = TensorSpec.of(DType.FLOAT32, 3);
    return new TransformStage.PerBatch(output, TransformStage.Writes.SEPARATE_OUTPUT) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, BatchContext ctx) {
        int n = ctx.size();
        double[] lam = MixupLambdas.draw(ctx, alpha, sameLambda);
        for (int i = 0; i < n; i++) {
          int j = i == 0 ? n - 1 : i - 1;
          int at = outOffset + 12 * i;
          out.putFloat(at, in.getLong(inOffset + 8 * i));
          out.putFloat(at + 4, in.getLong(inOffset + 8 * j));
          out.putFloat(at + 8, (float) lam[i]);
        }
      }
    };
  }
}
