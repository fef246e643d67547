package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.PixelOperation;
import org.sparkbeton.loader.pipeline.PixelStage;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * [H, W, C] → [C, H, W], any element type (FFCV's {@code ToTorchImage(channels_last=False)}). Fused, it is
 * the output layout of the pass (RGB images of uint8, float16 or float32).
 */
public final class ToChannelsFirst implements PixelOperation {
  @Override
  public PixelStage planPixels(TensorSpec input) {
    Images.requireHwc(name(), input);
    TensorSpec output = TensorSpec.of(input.dtype(), input.dim(2), input.dim(0), input.dim(1)).asChannelsFirst();
    return new PixelStage() {
      @Override
      public TensorSpec output() {
        return output;
      }

      @Override
      public boolean channelsFirst() {
        return true;
      }
    };
  }

  @Override
  public Stage plan(TensorSpec input) {
    Images.requireHwc(name(), input);
    int h = input.dim(0);
    int w = input.dim(1);
    int c = input.dim(2);
    int e = input.dtype().size();
    TensorSpec output = TensorSpec.of(input.dtype(), c, h, w).asChannelsFirst();
    return new TransformStage.PerSample(output, TransformStage.Writes.SEPARATE_OUTPUT) {
      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        byte[] src = in.array();
        byte[] dst = out.array();
        int s0 = in.arrayOffset() + inOffset;
        int d0 = out.arrayOffset() + outOffset;
        int n = h * w;
        for (int ch = 0; ch < c; ch++) {
          int d = d0 + ch * n * e;
          int s = s0 + ch * e;
          int step = c * e;
          switch (e) {
            case 1 -> {
              for (int i = 0; i < n; i++, s += step) {
                dst[d + i] = src[s];
              }
            }
            case 2 -> {
              for (int i = 0; i < n; i++, s += step, d += 2) {
                ArrayViews.SHORTS.set(dst, d, (short) ArrayViews.SHORTS.get(src, s));
              }
            }
            case 4 -> {
              for (int i = 0; i < n; i++, s += step, d += 4) {
                ArrayViews.INTS.set(dst, d, (int) ArrayViews.INTS.get(src, s));
              }
            }
            default -> {
              for (int i = 0; i < n; i++, s += step, d += 8) {
                ArrayViews.LONGS.set(dst, d, (long) ArrayViews.LONGS.get(src, s));
              }
            }
          }
        }
      }
    };
  }
}
