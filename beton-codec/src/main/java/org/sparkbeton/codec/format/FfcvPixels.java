package org.sparkbeton.codec.format;

import java.nio.ByteBuffer;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.format.fields.PixelDecoder;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;

/**
 * A stored image's pixels as FFCV's loader sees them: JPEGs decoded at full size with the fast integer
 * IDCT (with the native codec, bit for bit FFCV's pixels), the frame checked against the metadata
 * size; raw payloads returned as they are. Decodes as strictly as its codec ({@code beton verify --decode} gives it a
 * {@link org.sparkbeton.codec.jpeg.Strictness#STRICT} one). This is the one route from a stored image to its pixels,
 * over the one JPEG seam ({@link JpegCodec}): the dump's hashes, {@code beton verify --decode} and the Spark reader
 * ({@link FfcvPixelService}) all decode here. One instance per thread; it owns its codec, which {@link #close()}
 * closes (an instance never closed leaves the codec's handle to its cleaner).
 */
public final class FfcvPixels implements PixelDecoder, AutoCloseable {
  private final JpegCodec codec;
  private final JpegHeader header = new JpegHeader();
  private ByteBuffer eighth = ByteBuffer.allocateDirect(0);

  public FfcvPixels(JpegCodec codec) {
    this.codec = codec;
  }

  @Override
  public byte[] decodeRgb(RgbImage image) {
    if (image.mode() == ImageMode.RAW) {
      return image.payloadBytes();
    }
    ByteBuffer src = image.payload();
    if (!src.isDirect() && !src.hasArray()) {
      // read-only heap views (the Hadoop and channel sources hand these out): the codec needs an array
      src = ByteBuffer.wrap(image.payloadBytes());
    }
    try {
      codec.probe(src, header);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("JPEG payload has no readable header: " + e.getMessage(), e);
    }
    if (header.width() != image.width() || header.height() != image.height()) {
      throw new IllegalArgumentException("JPEG is " + header.width() + "x" + header.height()
          + " but the metadata says " + image.width() + "x" + image.height());
    }
    byte[] rgb;
    long size;
    try {
      // before allocating: a header claiming 65500x65500 would ask for 12.9 GB
      JpegCodec.checkDecodable("JPEG decode", image.width(), image.height());
      rgb = new byte[Math.toIntExact(RgbImage.rawSize(image.width(), image.height()))];
      size = codec.decode(src, 8, Idct.FAST, ByteBuffer.wrap(rgb), 0);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("JPEG payload does not decode: " + e.getMessage(), e);
    }
    if (ImageSize.width(size) != image.width() || ImageSize.height(size) != image.height()) {
      throw new IllegalArgumentException("JPEG decoded to " + ImageSize.width(size) + "x" + ImageSize.height(size)
          + " but the metadata says " + image.width() + "x" + image.height());
    }
    return rgb;
  }

  /**
   * Decodes {@code image} (a JPEG) at 1/8 scale, which reads every coefficient (so every check of the codec runs)
   * into a buffer of a 64th of the pixels: the check of an image too large to decode whole cheaply.
   *
   * @throws IllegalArgumentException saying why the payload does not decode
   */
  public void checkAtOneEighth(RgbImage image) {
    ByteBuffer src = image.payload();
    if (!src.isDirect() && !src.hasArray()) {
      src = ByteBuffer.wrap(image.payloadBytes());
    }
    long need = 3L * JpegGeometry.scaledDim(image.width(), 1) * JpegGeometry.scaledDim(image.height(), 1);
    if (eighth.capacity() < need) {
      eighth = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE, need));
    }
    try {
      codec.decode(src, 1, Idct.FAST, eighth, 0);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("JPEG payload does not decode: " + e.getMessage(), e);
    }
  }

  public boolean isNative() {
    return codec.isNative();
  }

  /** Closes the codec. */
  @Override
  public void close() {
    codec.close();
  }
}
