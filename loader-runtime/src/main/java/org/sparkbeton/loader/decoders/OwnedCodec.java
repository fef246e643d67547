package org.sparkbeton.loader.decoders;

import java.util.Objects;
import org.sparkbeton.loader.pipeline.FieldSource;

/**
 * The JPEG codec of an image decoder and whether the decoder owns it: an owned beton-codec is retained
 * and released with each loader that uses the decoder (its last release frees the native handles); a
 * codec passed in by the caller stays the caller's to close.
 */
final class OwnedCodec {
  private final JpegCodecPool codec;
  private final boolean owned;

  OwnedCodec(JpegCodecPool codec, boolean owned) {
    this.codec = Objects.requireNonNull(codec, "codec");
    this.owned = owned;
  }

  JpegCodecPool codec() {
    return codec;
  }

  void retain() {
    if (owned) {
      codec.retain();
    }
  }

  void release() {
    if (owned) {
      codec.release();
    }
  }

  /** Refuses at plan time a field holding JPEGs ({@code firstJpeg >= 0}) when no codec can decode them. */
  void requireFor(FieldSource field, int firstJpeg) {
    if (firstJpeg >= 0 && codec != JpegCodecPool.NONE) { // JPEGs planned on the Java path: say so, once per JVM
      org.sparkbeton.codec.jpeg.JpegCodecs.javaFallbackWarningOnce().ifPresent(w -> System.err.println("loader: " + w));
    }
    if (firstJpeg >= 0 && !codec.available()) {
      throw new IllegalArgumentException("field '" + field.name() + "' holds JPEG images (first: sample " + firstJpeg
          + "): " + JpegCodecPool.UNAVAILABLE);
    }
  }
}
