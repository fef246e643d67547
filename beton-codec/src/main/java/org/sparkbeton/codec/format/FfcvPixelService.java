package org.sparkbeton.codec.format;

import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.fields.PixelDecoder;
import org.sparkbeton.format.fields.RgbImage;

/**
 * The {@link PixelDecoder} service this module registers ({@code META-INF/services}), found by
 * readers that must turn stored JPEGs into pixels (the Spark reader's {@code image} and {@code raw}
 * modes). Thread-safe: each thread uses its own fastest codec, whose native handle is freed by the
 * codec's cleaner when the thread ends.
 */
public final class FfcvPixelService implements PixelDecoder {
  private static final ThreadLocal<FfcvPixels> PER_THREAD =
      ThreadLocal.withInitial(() -> new FfcvPixels(JpegCodecs.fastest()));

  @Override
  public byte[] decodeRgb(RgbImage image) {
    return PER_THREAD.get().decodeRgb(image);
  }
}
