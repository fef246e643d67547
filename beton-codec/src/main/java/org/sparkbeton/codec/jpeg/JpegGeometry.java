package org.sparkbeton.codec.jpeg;

/**
 * Size arithmetic shared by both codecs: libjpeg's DCT scaling by M/8 and how a crop box maps onto the
 * scaled image. Box rule (same in C): {@code [floor(x*M/8), ceil((x+w)*M/8))} clipped to the scaled size.
 */
public final class JpegGeometry {
  /** The DCT scale numerators libjpeg-turbo decodes fastest (SIMD paths): 1/8, 1/4, 1/2, 1. */
  public static final int[] FAST_SCALES = {1, 2, 4, 8};
  /** Every M/8 scale with M in 1..8. */
  public static final int[] ALL_SCALES = {1, 2, 3, 4, 5, 6, 7, 8};

  private JpegGeometry() {}

  /** libjpeg's scaled dimension: {@code ceil(dim * scaleNum / 8)}. */
  public static int scaledDim(int dim, int scaleNum) {
    checkScale(scaleNum);
    return (int) (((long) dim * scaleNum + 7) / 8);
  }

  /** Size of the decoded box, as {@link ImageSize#pack}. */
  public static long scaledBox(int imageWidth, int imageHeight, int x, int y, int w, int h, int scaleNum) {
    checkBox(imageWidth, imageHeight, x, y, w, h);
    int sw = scaledDim(imageWidth, scaleNum);
    int sh = scaledDim(imageHeight, scaleNum);
    int x0 = (int) ((long) x * scaleNum / 8);
    int y0 = (int) ((long) y * scaleNum / 8);
    int x1 = (int) Math.min(sw, ((long) (x + w) * scaleNum + 7) / 8);
    int y1 = (int) Math.min(sh, ((long) (y + h) * scaleNum + 7) / 8);
    return ImageSize.pack(x1 - x0, y1 - y0);
  }

  /** Left column of the decoded box in scaled coordinates. */
  public static int scaledOrigin(int coordinate, int scaleNum) {
    return (int) ((long) coordinate * scaleNum / 8);
  }

  /**
   * The smallest scale among {@code candidates} (ascending numerators of M/8) at which the decoded crop box
   * is still at least {@code outWidth x outHeight}; 8 (no scaling) when none is. Use {@link #FAST_SCALES}
   * for speed (other factors skip libjpeg-turbo's SIMD IDCT) or {@link #ALL_SCALES}.
   */
  public static int bestScale(int cropWidth, int cropHeight, int outWidth, int outHeight, int[] candidates) {
    if (cropWidth <= 0 || cropHeight <= 0 || outWidth <= 0 || outHeight <= 0) {
      throw new IllegalArgumentException(String.format(
          "Cannot pick a DCT scale: crop %dx%d and output %dx%d must be positive",
          cropWidth, cropHeight, outWidth, outHeight));
    }
    for (int m : candidates) {
      // floor(cropWidth*m/8) is a lower bound of the decoded box width whatever the box origin is
      if ((long) cropWidth * m / 8 >= outWidth && (long) cropHeight * m / 8 >= outHeight) {
        return m;
      }
    }
    return 8;
  }

  static void checkScale(int scaleNum) {
    if (scaleNum < 1 || scaleNum > 8) {
      throw new IllegalArgumentException("DCT scale must be M/8 with M in 1..8, got " + scaleNum + "/8");
    }
  }

  static void checkBox(int imageWidth, int imageHeight, int x, int y, int w, int h) {
    if (x < 0 || y < 0 || w <= 0 || h <= 0 || (long) x + w > imageWidth || (long) y + h > imageHeight) {
      throw new IllegalArgumentException(String.format(
          "Crop box %d,%d %dx%d is not inside the %dx%d image", x, y, w, h, imageWidth, imageHeight));
    }
  }
}
