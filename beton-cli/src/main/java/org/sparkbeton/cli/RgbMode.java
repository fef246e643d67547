package org.sparkbeton.cli;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.sparkbeton.codec.format.FfcvPixels;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.Strictness;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * Which decoder computes {@code dump}'s JPEG pixel hashes ({@code --rgb}), and the pixel decoders the commands open:
 * beton-codec's {@link FfcvPixels} (full size, fast integer IDCT, as FFCV decodes: with the native libjpeg-turbo
 * codec the pixels and hashes equal FFCV's bit for bit). Close what {@link #open} returns when done.
 */
enum RgbMode {
  /** Native libjpeg-turbo when it loads (FFCV-exact); otherwise JPEG rows carry no rgb_sha256. */
  AUTO,
  /** Native libjpeg-turbo, or fail. */
  NATIVE,
  /** The pure-Java decoder: available everywhere, but its IDCT differs from FFCV's, so hashes do too. */
  JAVA,
  /** Never decode JPEGs. */
  NONE;

  /** The codec logs which path it took at INFO; a command line prints only what the user asked for. */
  private static final Logger CODEC_LOG = Logger.getLogger("org.sparkbeton.codec.nativeimpl.NativeLibrary");

  static {
    CODEC_LOG.setLevel(Level.WARNING);
  }

  /** A decoder for this mode, or null when JPEGs are not to be decoded. */
  FfcvPixels open() {
    return switch (this) {
      case NONE -> null;
      case JAVA -> new FfcvPixels(JpegCodecs.java());
      case AUTO -> JpegCodecs.nativeAvailable() ? new FfcvPixels(JpegCodecs.fastest()) : null;
      case NATIVE -> {
        if (!JpegCodecs.nativeAvailable()) {
          throw new CliException("--rgb native: the libjpeg-turbo codec is not available ("
              + NativeLibrary.unavailableReason() + ")");
        }
        yield new FfcvPixels(JpegCodecs.fastest());
      }
    };
  }

  /**
   * The native decoder when it loads, else the pure-Java one, decoding {@link Strictness#STRICT strictly}:
   * libjpeg's corrupt-data warnings are failures ({@code verify --decode}).
   */
  static FfcvPixels strict() {
    return new FfcvPixels(JpegCodecs.fastest(Strictness.STRICT));
  }
}
