package org.sparkbeton.loader.transforms;

import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.TensorSpec;

/** Input checks shared by image transforms. */
final class Images {
  private Images() {}

  /** Throws unless {@code input} is a uint8 H×W×3 image. */
  static void requireRgb(String op, TensorSpec input) {
    refuseChannelsFirst(op, input);
    if (!input.isImage(DType.UINT8, 3)) {
      throw new IllegalArgumentException(op + " expects a uint8 [H, W, 3] image, got " + input);
    }
  }

  /** Throws unless {@code input} is H×W×C (any type). */
  static void requireHwc(String op, TensorSpec input) {
    refuseChannelsFirst(op, input);
    if (input.rank() != 3) {
      throw new IllegalArgumentException(op + " expects an [H, W, C] image, got " + input);
    }
  }

  /** An image operation's axes are [H, W, C]: read as such, a [C, H, W] image would flip, crop or fill the wrong way. */
  private static void refuseChannelsFirst(String op, TensorSpec input) {
    if (input.channelsFirst()) {
      String fix = op.equals("ToChannelsFirst") ? "the pipeline moves them twice" : "put " + op + " before ToChannelsFirst";
      throw new IllegalArgumentException(op + " expects an [H, W, C] image, got " + input + " with its channels"
          + " first ([C, H, W], after ToChannelsFirst): " + fix);
    }
  }

  static int[] rgb(String op, String what, int[] values) {
    if (values.length != 3) {
      throw new IllegalArgumentException(op + " " + what + " needs 3 values (R, G, B), got " + values.length);
    }
    for (int v : values) {
      if (v < 0 || v > 255) {
        throw new IllegalArgumentException(op + " " + what + " values must be in 0..255, got " + v);
      }
    }
    return values.clone();
  }
}
