package org.sparkbeton.loader.transforms;

import java.nio.ByteBuffer;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** [H, W, C] → [C, H, W], any element type (FFCV's {@code ToTorchImage(channels_last=False)}). */
public final class ToChannelsFirst implements Operation {
  @Override
  public Stage plan(TensorSpec input) {
    Images.requireHwc(name(), input);
    int h = input.dim(0);
    int w = input.dim(1);
    int c = input.dim(2);
    int e = input.dtype().size();
    TensorSpec output = TensorSpec.of(input.dtype(), c, h, w);
    return new Stage() {
      @Override
      public TensorSpec output() {
        return output;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        int plane = h * w * e;
        for (int ch = 0; ch < c; ch++) {
          int dst = outOffset + ch * plane;
          int src = inOffset + ch * e;
          for (int i = 0; i < h * w; i++, dst += e, src += c * e) {
            switch (e) {
              case 1 -> out.put(dst, in.get(src));
              case 2 -> out.putShort(dst, in.getShort(src));
              case 4 -> out.putInt(dst, in.getInt(src));
              default -> out.putLong(dst, in.getLong(src));
            }
          }
        }
      }
    };
  }
}
