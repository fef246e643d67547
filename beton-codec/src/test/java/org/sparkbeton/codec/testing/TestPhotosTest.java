package org.sparkbeton.codec.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.image.RgbPixels;
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

  /**
   * {@code source} names the photograph a photo was cut from: a photo's mean colour is nearest to its own source
   * photograph's among the five (crops, jitter and grain move it a little) for nearly every photo.
   */
  @Test
  void sourceNamesThePhotographAPhotoIsCutFrom() throws IOException {
    double[][] sourceMeans = new double[TestPhotos.SOURCES.size()][];
    for (int s = 0; s < sourceMeans.length; s++) {
      try (InputStream in = TestPhotos.class.getResourceAsStream("/photos/" + TestPhotos.SOURCES.get(s) + ".jpg")) {
        sourceMeans[s] = meanRgb(ImageDecoder.decode(in.readAllBytes()));
      }
    }
    Set<Integer> seen = new HashSet<>();
    int nearestOwn = 0;
    int photos = 40;
    for (int i = 0; i < photos; i++) {
      int source = TestPhotos.source(11, i);
      seen.add(source);
      double[] mean = meanRgb(ImageDecoder.decode(TestPhotos.photo(11, i)));
      int nearest = 0;
      for (int s = 1; s < sourceMeans.length; s++) {
        if (distance(mean, sourceMeans[s]) < distance(mean, sourceMeans[nearest])) {
          nearest = s;
        }
      }
      nearestOwn += nearest == source ? 1 : 0;
    }
    assertThat(seen).as("sources drawn").hasSize(TestPhotos.SOURCES.size());
    // 37 of 40 with the native codec; a wrong source would be nearest about one time in five
    assertThat(nearestOwn).as("photos nearest in mean colour to their own source, of " + photos)
        .isGreaterThanOrEqualTo(34);
  }

  private static double[] meanRgb(RgbPixels image) {
    double[] sum = new double[3];
    byte[] px = image.pixels();
    for (int p = 0; p < px.length; p++) {
      sum[p % 3] += px[p] & 0xFF;
    }
    int n = px.length / 3;
    return new double[] {sum[0] / n, sum[1] / n, sum[2] / n};
  }

  private static double distance(double[] a, double[] b) {
    return Math.hypot(Math.hypot(a[0] - b[0], a[1] - b[1]), a[2] - b[2]);
  }
}
