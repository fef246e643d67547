package org.sparkbeton.codec.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;

class TestPhotosTest {
  @Test
  void photosAreImageNetLikeJpegsAndDeterministic() {
    long bytes = 0;
    long pixels = 0;
    int portrait = 0;
    JpegHeader h = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < 60; i++) {
        byte[] jpeg = TestPhotos.photo(7, i);
        codec.probe(ByteBuffer.wrap(jpeg), h);
        assertThat(Math.max(h.width(), h.height())).isBetween(200, 500);
        bytes += jpeg.length;
        pixels += (long) h.width() * h.height();
        portrait += h.height() > h.width() ? 1 : 0;
      }
    }
    // photo content at q90 with grain: well above a gradient's bytes per pixel (about 0.3)
    assertThat((double) bytes / pixels).isBetween(0.33, 3.0);
    assertThat(portrait).isBetween(3, 30);
    assertThat(TestPhotos.photo(7, 3)).isEqualTo(TestPhotos.photo(7, 3)).isNotEqualTo(TestPhotos.photo(8, 3));
  }
}
