package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.BatchContext;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * FFCV's {@code ImageMixup(alpha, same_lambda)}: {@code out[i] = uint8(λ_i · x[i] + (1 − λ_i) · x[i−1])},
 * row 0 pairing with the last row, λ from {@link MixupLambdas}. Any uint8 rows; a batch operation, in place.
 */
public final class ImageMixup implements BatchOperation {
  private final double alpha;
  private final boolean sameLambda;

  public ImageMixup(double alpha, boolean sameLambda) {
    MixupLambdas.checkAlpha(name(), alpha);
    this.alpha = alpha;
    this.sameLambda = sameLambda;
  }

  @Override
  public BatchStage plan(TensorSpec input) {
    if (input.dtype() != DType.UINT8) {
      throw new IllegalArgumentException("ImageMixup expects uint8 images, got " + input);
    }
    int row = input.bytes();
    return new TransformStage.PerBatch(input, TransformStage.Writes.IN_PLACE) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, BatchContext ctx) {
        int n = ctx.size();
        double[] lam = MixupLambdas.draw(ctx, alpha, sameLambda);
        byte[] last = new byte[row];
        byte[] cur = new byte[row];
        byte[] prev = new byte[row];
        in.get(inOffset + (n - 1) * row, last);
        for (int i = n - 1; i >= 0; i--) {
          in.get(inOffset + i * row, cur);
          if (i > 0) {
            in.get(inOffset + (i - 1) * row, prev);
          }
          byte[] other = i > 0 ? prev : last;
          double l = lam[i];
          for (int k = 0; k < row; k++) {
            cur[k] = (byte) (int) (l * (cur[k] & 0xff) + (1 - l) * (other[k] & 0xff));
          }
          out.put(outOffset + i * row, cur);
        }
      }
    };
  }
}
