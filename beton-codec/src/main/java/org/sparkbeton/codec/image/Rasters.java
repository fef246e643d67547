package org.sparkbeton.codec.image;

import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.DataBufferByte;
import java.awt.image.IndexColorModel;
import java.awt.image.Raster;
import java.nio.ByteBuffer;

/**
 * Copies a {@link BufferedImage} into packed 8-bit RGB the way PIL's {@code convert('RGB')} does: alpha is
 * dropped (not composited), grey is replicated without gamma conversion, 16-bit samples keep their high
 * byte. Other colour models go through {@link BufferedImage#getRGB}.
 */
public final class Rasters {
  private Rasters() {}

  /** Writes {@code width*height*3} bytes at {@code offset}; returns that count. */
  public static int toRgb(BufferedImage img, ByteBuffer dst, int offset) {
    int w = img.getWidth();
    int h = img.getHeight();
    int n = Math.multiplyExact(Math.multiplyExact(w, h), 3);
    if (offset < 0 || (long) offset + n > dst.capacity()) {
      throw new IllegalArgumentException(String.format(
          "Destination too small: %dx%d RGB needs %d bytes at offset %d, capacity %d", w, h, n, offset,
          dst.capacity()));
    }
    Raster raster = img.getRaster();
    ColorModel cm = img.getColorModel();
    if (img.getType() == BufferedImage.TYPE_3BYTE_BGR && raster.getDataBuffer() instanceof DataBufferByte
        && raster.getParent() == null && raster.getSampleModelTranslateX() == 0
        && raster.getSampleModelTranslateY() == 0) {
      byte[] bgr = ((DataBufferByte) raster.getDataBuffer()).getData();
      byte[] row = new byte[w * 3];
      for (int y = 0; y < h; y++) {
        int base = y * w * 3;
        for (int i = 0; i < w * 3; i += 3) {
          row[i] = bgr[base + i + 2];
          row[i + 1] = bgr[base + i + 1];
          row[i + 2] = bgr[base + i];
        }
        dst.put(offset + base, row, 0, row.length);
      }
      return n;
    }
    int bands = raster.getNumBands();
    int type = cm.getColorSpace().getType();
    boolean gray = type == ColorSpace.TYPE_GRAY && (bands == 1 || bands == 2);
    boolean rgb = type == ColorSpace.TYPE_RGB && (bands == 3 || bands == 4);
    if (!(cm instanceof IndexColorModel) && (gray || rgb)) {
      int bits = raster.getSampleModel().getSampleSize(0);
      int shift = Math.max(0, bits - 8);
      int[] px = new int[w * bands];
      byte[] row = new byte[w * 3];
      for (int y = 0; y < h; y++) {
        raster.getPixels(0, y, w, 1, px);
        for (int x = 0; x < w; x++) {
          int p = x * bands;
          if (gray) {
            byte v = (byte) (px[p] >> shift);
            row[3 * x] = v;
            row[3 * x + 1] = v;
            row[3 * x + 2] = v;
          } else {
            row[3 * x] = (byte) (px[p] >> shift);
            row[3 * x + 1] = (byte) (px[p + 1] >> shift);
            row[3 * x + 2] = (byte) (px[p + 2] >> shift);
          }
        }
        dst.put(offset + y * w * 3, row, 0, row.length);
      }
      return n;
    }
    int[] argb = new int[w];
    byte[] row = new byte[w * 3];
    for (int y = 0; y < h; y++) {
      img.getRGB(0, y, w, 1, argb, 0, w);
      for (int x = 0; x < w; x++) {
        int v = argb[x];
        row[3 * x] = (byte) (v >> 16);
        row[3 * x + 1] = (byte) (v >> 8);
        row[3 * x + 2] = (byte) v;
      }
      dst.put(offset + y * w * 3, row, 0, row.length);
    }
    return n;
  }
}
