package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class JpegReaderWarningsTest {
  @Test
  void metadataNoticesAreNotDamage() {
    // TwelveMonkeys 3.12's notices, word for word, and the JDK reader's about an invalid profile
    assertThat(JpegReaderWarnings.firstDamage(List.of(
        "No embedded ICC color profile, will convert using inaccurate CMYK to RGB conversion. Colors may look incorrect.",
        "No embedded ICC color profile, defaulting to \"generic\" CMYK ICC profile. Colors may look incorrect.",
        "Bad 'ICC_PROFILE' chunk count: 3. Ignoring ICC profile.", "Exif chunk has no data.",
        "Unknown APP13 segment, ignoring", "Embedded color profile is invalid; ignored"))).isEmpty();
  }

  @Test
  void corruptDataIsDamageEvenAfterANotice() {
    assertThat(JpegReaderWarnings.firstDamage(List.of("Exif chunk has no data.",
        "Corrupt JPEG data: premature end of data segment", "Corrupt JPEG data: bad Huffman code")))
        .contains("Corrupt JPEG data: premature end of data segment");
    assertThat(JpegReaderWarnings.firstDamage(List.of("Corrupt JPEG data: 12 extraneous bytes before marker 0xd9")))
        .contains("Corrupt JPEG data: 12 extraneous bytes before marker 0xd9");
  }

  @Test
  void libjpegsWarningsAreRefusedOnlyWhenStrictButTheEndOfFileAlways() {
    assertThat(JpegReaderWarnings.refusedOnlyWhenStrict(
        "Native JPEG plane decode failed: Corrupt JPEG data: 236 extraneous bytes before marker 0xd9")).isTrue();
    assertThat(JpegReaderWarnings.refusedOnlyWhenStrict("Java JPEG decode failed: Corrupt JPEG data: bad Huffman code"))
        .isTrue();
    assertThat(JpegReaderWarnings.refusedOnlyWhenStrict("Invalid SOS parameters for sequential JPEG")).isTrue();
    assertThat(JpegReaderWarnings.refusedOnlyWhenStrict("Native JPEG probe failed: Premature end of JPEG file"))
        .isFalse();
    assertThat(JpegReaderWarnings.refusedOnlyWhenStrict("Unrecognised image format (first bytes 68656C6C)")).isFalse();
    assertThat(JpegReaderWarnings.refusedOnlyWhenStrict(null)).isFalse();
  }
}
