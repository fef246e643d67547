package org.sparkbeton.codec;

import java.awt.image.SampleModel;
import java.util.Locale;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;

/**
 * The heap an ImageIO decode will take, checked from the image's header against a budget before any pixel is
 * decoded: a legal image under the pixel limit could otherwise exhaust the heap (a 9400x9400 WebP, 88 megapixels,
 * takes ~2.7 GB of live heap in TwelveMonkeys' decoder: on a 2 GB executor the JVM spent minutes collecting garbage,
 * then died of an {@link OutOfMemoryError} that took the whole job with it). Refused, it is a bad image like any
 * other, under the writer's bad-image policy, with the memory it needs in the message.
 *
 * <p>The estimate: the decoder's raster (its sample model's bytes per pixel; 8 where the reader does not say) plus
 * the RGB copy made of it (3); WebP's decoders hold ~30 bytes a pixel in all (measured, lossy and lossless), taken as
 * 32. JPEGs the native codec decodes do not come here.
 */
final class DecodeMemory {
  /** Bytes per pixel of TwelveMonkeys' WebP decode, peak live heap, rounded up from ~30.5 measured. */
  static final int WEBP_BYTES_PER_PIXEL = 32;
  /** Bytes per pixel of the RGB copy made of every decoded raster. */
  static final int RGB_COPY = 3;
  /** A raster's bytes per pixel where the reader cannot say: 16-bit RGBA. */
  static final int UNKNOWN_RASTER = 8;

  private DecodeMemory() {}

  /** Three quarters of the heap's maximum: what one decode may take and leave the rest of the task room. */
  static long budget() {
    return Runtime.getRuntime().maxMemory() / 4 * 3;
  }

  /** Throws {@link ImageDecodeException} when decoding the {@code width x height} image would take over {@code budget}. */
  static void check(ImageReader reader, String format, int width, int height, long budget) {
    long pixels = (long) width * height;
    long needed = pixels * bytesPerPixel(reader, format);
    if (needed > budget) {
      throw new ImageDecodeException("image is too large to decode in this JVM's heap: " + width + "x" + height + " "
          + format + " needs about " + mib(needed) + " to decode, over the " + mib(budget) + " one decode may take"
          + " (three quarters of the maximum heap). Give the executors more memory (spark.executor.memory; beton"
          + " prepare: BETON_JAVA_OPTS=-Xmx8g), or a lower maxImagePixels (beton prepare: --max-image-pixels) to"
          + " refuse such images at once");
    }
  }

  static int bytesPerPixel(ImageReader reader, String format) {
    if (format.toLowerCase(Locale.ROOT).equals("webp")) {
      return WEBP_BYTES_PER_PIXEL;
    }
    return rasterBytesPerPixel(reader) + RGB_COPY;
  }

  private static int rasterBytesPerPixel(ImageReader reader) {
    try {
      ImageTypeSpecifier type = reader.getRawImageType(0);
      if (type == null) {
        return UNKNOWN_RASTER;
      }
      SampleModel model = type.getSampleModel();
      int bits = 0;
      for (int size : model.getSampleSize()) {
        bits += size;
      }
      // packed models store a pixel in one element of their data type; component models a sample per element
      int elementBits = java.awt.image.DataBuffer.getDataTypeSize(model.getDataType());
      int elements = model instanceof java.awt.image.ComponentSampleModel ? model.getNumBands()
          : Math.max(1, (bits + elementBits - 1) / elementBits);
      return Math.max(1, elements * elementBits / 8);
    } catch (java.io.IOException | RuntimeException e) {
      return UNKNOWN_RASTER;
    }
  }

  private static String mib(long bytes) {
    return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
        : (bytes >> 20) + " MiB";
  }
}
