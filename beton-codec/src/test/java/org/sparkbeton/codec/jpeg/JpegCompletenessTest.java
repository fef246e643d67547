package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link JpegMarkers#requireComplete}: a JPEG stored as is must not be cut short. */
class JpegCompletenessTest {
  private static byte[] jpeg() {
    byte[] rgb = new byte[64 * 48 * 3];
    new java.util.Random(3).nextBytes(rgb);
    try (JpegCodec codec = JpegCodecs.java()) {
      return codec.encode(ByteBuffer.wrap(rgb), 0, 64, 48, 90, ChromaSubsampling.S420);
    }
  }

  /** The JPEG with an APP1 segment after SOI that holds a whole "thumbnail", end-of-image marker included. */
  private static byte[] withThumbnail(byte[] jpeg) {
    byte[] thumb = {(byte) 0xFF, (byte) 0xD8, 1, 2, 3, (byte) 0xFF, (byte) 0xD9};
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(jpeg, 0, 2);
    out.write(0xFF);
    out.write(0xE1);
    out.write(0);
    out.write(2 + thumb.length);
    out.write(thumb, 0, thumb.length);
    out.write(jpeg, 2, jpeg.length - 2);
    return out.toByteArray();
  }

  @Test
  void completeStreamsPassAndCutOnesFailWherever() {
    byte[] whole = withThumbnail(jpeg());
    assertThatCode(() -> JpegMarkers.requireComplete(ByteBuffer.wrap(whole))).doesNotThrowAnyException();
    assertThatCode(() -> JpegMarkers.requireComplete(ByteBuffer.wrap(Arrays.copyOf(whole, whole.length + 9))))
        .doesNotThrowAnyException();
    for (int keep = 3; keep < whole.length - 1; keep += 7) {
      byte[] cut = Arrays.copyOf(whole, keep);
      assertThatThrownBy(() -> JpegMarkers.requireComplete(ByteBuffer.wrap(cut))).as("cut at %d", keep)
          .isInstanceOf(JpegException.class).hasMessageContaining("JPEG");
    }
    assertThatThrownBy(() -> JpegMarkers.requireComplete(ByteBuffer.wrap(new byte[] {1, 2, 3, 4})))
        .hasMessageContaining("missing SOI");
  }
}
