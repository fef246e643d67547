package org.sparkbeton.format.dump;

import org.sparkbeton.format.fields.RgbImage;

/** Decodes a stored image to H x W x 3 RGB bytes; supplied by the codec layer (the core decodes no JPEG). */
@FunctionalInterface
public interface PixelDecoder {
  byte[] decodeRgb(RgbImage image);
}
