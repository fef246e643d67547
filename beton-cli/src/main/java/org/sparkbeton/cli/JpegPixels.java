package org.sparkbeton.cli;

import java.nio.ByteBuffer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.sparkbeton.codec.format.FfcvPixels;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.Strictness;
import org.sparkbeton.format.dump.PixelDecoder;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;

/**
 * Decodes stored JPEGs to RGB for {@code dump}'s {@code rgb_sha256}, at full size with the fast integer
 * IDCT, which is how FFCV decodes: with the native libjpeg-turbo codec the pixels (and hashes) equal
 * FFCV's bit for bit. One instance per thread; close it when done.
 */
final class JpegPixels implements PixelDecoder, AutoCloseable {
  /** Which decoder computes JPEG pixel hashes. */
  enum Mode {
    /** Native libjpeg-turbo when it loads (FFCV-exact); otherwise JPEG rows carry no rgb_sha256. */
    AUTO,
    /** Native libjpeg-turbo, or fail. */
    NATIVE,
    /** The pure-Java decoder: available everywhere, but its IDCT differs from FFCV's, so hashes do too. */
    JAVA,
    /** Never decode JPEGs. */
    NONE
  }

  /** The codec logs which path it took at INFO; a command line prints only what the user asked for. */
  private static final Logger CODEC_LOG = Logger.getLogger("org.sparkbeton.codec.nativeimpl.NativeLibrary");

  static {
    CODEC_LOG.setLevel(Level.WARNING);
  }

  private final JpegCodec codec;
  private final FfcvPixels pixels;
  private ByteBuffer eighth = ByteBuffer.allocateDirect(0);

  private JpegPixels(JpegCodec codec) {
    this.codec = codec;
    this.pixels = new FfcvPixels(codec);
  }

  /** The native decoder when it loads, else the pure-Java one; never null. */
  static JpegPixels best() {
    return new JpegPixels(JpegCodecs.fastest());
  }

  /**
   * As {@link #best()}, decoding {@link Strictness#STRICT strictly}: libjpeg's corrupt-data warnings are failures
   * ({@code verify --decode}).
   */
  static JpegPixels strict() {
    return new JpegPixels(JpegCodecs.fastest(Strictness.STRICT));
  }

  /**
   * Decodes {@code image} at 1/8 scale, which reads every coefficient (so every check of the codec runs) into a
   * buffer of a 64th of the pixels: the check of an image too large to decode whole cheaply.
   */
  void checkAtOneEighth(RgbImage image) {
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

  /** A decoder for {@code mode}, or null when JPEGs are not to be decoded. */
  static JpegPixels open(Mode mode) {
    return switch (mode) {
      case NONE -> null;
      case JAVA -> new JpegPixels(JpegCodecs.java());
      case AUTO -> JpegCodecs.nativeAvailable() ? new JpegPixels(JpegCodecs.fastest()) : null;
      case NATIVE -> {
        if (!JpegCodecs.nativeAvailable()) {
          throw new CliException("--rgb native: the libjpeg-turbo codec is not available ("
              + org.sparkbeton.codec.nativeimpl.NativeLibrary.unavailableReason() + ")");
        }
        yield new JpegPixels(JpegCodecs.fastest());
      }
    };
  }

  @Override
  public byte[] decodeRgb(RgbImage image) {
    if (image.mode() != ImageMode.JPG) {
      throw new IllegalArgumentException("not a JPEG image: " + image.mode().label());
    }
    return pixels.decodeRgb(image);
  }

  boolean isNative() {
    return codec.isNative();
  }

  @Override
  public void close() {
    codec.close();
  }
}
