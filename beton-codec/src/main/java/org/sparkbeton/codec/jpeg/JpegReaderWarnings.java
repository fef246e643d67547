package org.sparkbeton.codec.jpeg;

import java.util.List;
import java.util.Optional;

/**
 * Which of the warnings an ImageIO JPEG reader reports mean damaged image data. The JDK's libjpeg reports corrupt data
 * as warnings ({@code Corrupt JPEG data: bad Huffman code}); TwelveMonkeys' reader also reports notices about
 * metadata it ignores or works around (no embedded ICC profile for a CMYK image, an unreadable Exif chunk, an
 * unknown segment), after which the pixels are decoded whole, as PIL and OpenCV decode them. A strict decode fails
 * on the first kind only.
 */
public final class JpegReaderWarnings {
  /** Words of the readers' notices about colour profiles, Exif and ignored segments. */
  private static final List<String> METADATA_NOTICES = List.of("ICC", "color profile", "Exif chunk",
      "segment, ignoring");

  /**
   * libjpeg's warnings (jerror.h's {@code JWRN_} texts, the same in libjpeg-turbo and the JDK's libjpeg) but the end
   * of file: what a strict decode refuses and a lenient one decodes around.
   */
  private static final List<String> LIBJPEG_WARNINGS = List.of("Corrupt JPEG data", "Invalid SOS parameters for"
      + " sequential JPEG", "Inconsistent progression sequence", "unknown JFIF revision number",
      "Unknown Adobe color transform code", "Application transferred too many scanlines");

  private JpegReaderWarnings() {}

  /**
   * Whether {@code reason}, a failed decode's message, is one of libjpeg's warnings that only a {@link
   * Strictness#STRICT} decode refuses: a lenient one would return what libjpeg decodes around the damage.
   */
  public static boolean refusedOnlyWhenStrict(String reason) {
    return reason != null && LIBJPEG_WARNINGS.stream().anyMatch(reason::contains);
  }

  /** The first of {@code warnings} that reports damaged image data, if any. */
  public static Optional<String> firstDamage(List<String> warnings) {
    return warnings.stream().filter(w -> !isMetadataNotice(w)).findFirst();
  }

  static boolean isMetadataNotice(String warning) {
    return METADATA_NOTICES.stream().anyMatch(warning::contains);
  }
}
