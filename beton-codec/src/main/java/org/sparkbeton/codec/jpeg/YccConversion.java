package org.sparkbeton.codec.jpeg;

import java.nio.ByteBuffer;

/**
 * JFIF's full-range YCbCr and packed RGB, converted in Java with libjpeg's 16-bit fixed-point formulas
 * ({@code jccolor.c}, {@code jdcolor.c}), and 4:2:0 chroma by 2x2 averaging (odd edges repeated, as libjpeg
 * pads before {@code h2v2_downsample}) or by repetition on the way back. The pure-Java side of the codec's
 * plane methods, and the reference the tests convert planes with.
 */
public final class YccConversion {
  private static final int SCALE = 16;
  private static final int HALF = 1 << (SCALE - 1);
  private static final int CBCR_OFFSET = 128 << SCALE;

  private YccConversion() {}

  private static int fix(double x) {
    return (int) (x * (1 << SCALE) + 0.5);
  }

  private static final int Y_R = fix(0.29900);
  private static final int Y_G = fix(0.58700);
  private static final int Y_B = fix(0.11400);
  private static final int CB_R = fix(0.16874);
  private static final int CB_G = fix(0.33126);
  private static final int C_HALF = fix(0.5);
  private static final int CR_G = fix(0.41869);
  private static final int CR_B = fix(0.08131);
  private static final int R_CR = fix(1.40200);
  private static final int G_CB = fix(0.34414);
  private static final int G_CR = fix(0.71414);
  private static final int B_CB = fix(1.77200);

  /**
   * Packed RGB ({@code w x h} from {@code rgbOffset}) to 4:2:0 planes from {@code dstOffset} (layout
   * {@link YccPlanes#set420}).
   */
  public static void rgbToPlanes420(ByteBuffer rgb, int rgbOffset, int w, int h, ByteBuffer dst, int dstOffset) {
    int cw = YccPlanes.chromaSide420(w);
    int ch = YccPlanes.chromaSide420(h);
    int cbAt = dstOffset + w * h;
    int crAt = cbAt + cw * ch;
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int p = rgbOffset + (y * w + x) * 3;
        int r = rgb.get(p) & 0xFF;
        int g = rgb.get(p + 1) & 0xFF;
        int b = rgb.get(p + 2) & 0xFF;
        dst.put(dstOffset + y * w + x, (byte) ((Y_R * r + Y_G * g + Y_B * b + HALF) >> SCALE));
      }
    }
    for (int cy = 0; cy < ch; cy++) {
      for (int cx = 0; cx < cw; cx++) {
        int sumCb = 0;
        int sumCr = 0;
        for (int dy = 0; dy < 2; dy++) {
          for (int dx = 0; dx < 2; dx++) {
            int x = Math.min(2 * cx + dx, w - 1);
            int y = Math.min(2 * cy + dy, h - 1);
            int p = rgbOffset + (y * w + x) * 3;
            int r = rgb.get(p) & 0xFF;
            int g = rgb.get(p + 1) & 0xFF;
            int b = rgb.get(p + 2) & 0xFF;
            sumCb += (-CB_R * r - CB_G * g + C_HALF * b + CBCR_OFFSET + HALF - 1) >> SCALE;
            sumCr += (C_HALF * r - CR_G * g - CR_B * b + CBCR_OFFSET + HALF - 1) >> SCALE;
          }
        }
        dst.put(cbAt + cy * cw + cx, (byte) ((sumCb + 2) >> 2));
        dst.put(crAt + cy * cw + cx, (byte) ((sumCr + 2) >> 2));
      }
    }
  }

  /**
   * Planes of any layout (chroma sampled at {@code chromaWidth/width} by {@code chromaHeight/height}, each chroma
   * sample repeated over the Y pixels it covers) from {@code srcOffset} to packed RGB from {@code rgbOffset}.
   */
  public static void planesToRgb(ByteBuffer planes, int srcOffset, YccPlanes layout, ByteBuffer rgb, int rgbOffset) {
    int w = layout.width();
    int h = layout.height();
    int cw = layout.chromaWidth();
    int ch = layout.chromaHeight();
    int cbAt = srcOffset + layout.cbOffset();
    int crAt = srcOffset + layout.crOffset();
    for (int y = 0; y < h; y++) {
      int cy = Math.min((int) ((long) y * ch / h), ch - 1);
      for (int x = 0; x < w; x++) {
        int cx = Math.min((int) ((long) x * cw / w), cw - 1);
        int luma = planes.get(srcOffset + y * w + x) & 0xFF;
        int cb = (planes.get(cbAt + cy * cw + cx) & 0xFF) - 128;
        int cr = (planes.get(crAt + cy * cw + cx) & 0xFF) - 128;
        int p = rgbOffset + (y * w + x) * 3;
        rgb.put(p, clamp(luma + ((R_CR * cr + HALF) >> SCALE)));
        rgb.put(p + 1, clamp(luma + ((-G_CB * cb - G_CR * cr + HALF) >> SCALE)));
        rgb.put(p + 2, clamp(luma + ((B_CB * cb + HALF) >> SCALE)));
      }
    }
  }

  private static byte clamp(int v) {
    return (byte) Math.max(0, Math.min(255, v));
  }
}
