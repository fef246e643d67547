package org.sparkbeton.spark.read;

import java.util.Iterator;
import java.util.ServiceLoader;
import org.sparkbeton.format.fields.PixelDecoder;

/**
 * Finds the JPEG decoder for the {@code image} and {@code raw} image modes: the first
 * {@link PixelDecoder} registered as a {@link ServiceLoader} service
 * ({@code META-INF/services/org.sparkbeton.format.fields.PixelDecoder}), which beton-codec provides.
 * Raw-mode images need no decoder: their payload already is the pixels.
 */
final class PixelDecoders {
  private static volatile PixelDecoder found;
  private static volatile boolean searched;

  private PixelDecoders() {}

  /** The registered JPEG decoder, or null when none is on the classpath. */
  static PixelDecoder jpeg() {
    if (!searched) {
      synchronized (PixelDecoders.class) {
        if (!searched) {
          ClassLoader cl = Thread.currentThread().getContextClassLoader();
          Iterator<PixelDecoder> it = ServiceLoader.load(PixelDecoder.class,
              cl != null ? cl : PixelDecoders.class.getClassLoader()).iterator();
          found = it.hasNext() ? it.next() : null;
          searched = true;
        }
      }
    }
    return found;
  }
}
