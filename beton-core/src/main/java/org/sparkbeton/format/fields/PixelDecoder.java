package org.sparkbeton.format.fields;

/**
 * Decodes a stored image to H x W x 3 RGB bytes; supplied by the codec layer (the core decodes no JPEG). beton-codec's
 * {@code FfcvPixels} implements it over its {@code JpegCodec}, the one JPEG seam, and registers it as a
 * {@link java.util.ServiceLoader} service for readers that must not depend on the codec (the Spark reader's
 * {@code image} and {@code raw} modes); the dump ({@code SampleJson}) takes one for its pixel hashes.
 */
@FunctionalInterface
public interface PixelDecoder {
  byte[] decodeRgb(RgbImage image);
}
