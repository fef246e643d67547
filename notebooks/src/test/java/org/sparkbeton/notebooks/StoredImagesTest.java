package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

class StoredImagesTest {
  @TempDir
  Path dir;

  @Test
  void readsRawAndJpegImagesBySample() throws Exception {
    byte[] raw = new byte[4 * 3 * 3];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) (i * 7);
    }
    byte[] jpeg = TestPhotos.photo(5, 0);
    RgbPixels decoded = ImageDecoder.decode(jpeg);
    Path file = dir.resolve("mixed.beton");
    try (BetonWriter w = BetonWriter.builder(List.of(new BetonField("label", IntField.INSTANCE),
        new BetonField("image", RgbImageField.INSTANCE))).open(file)) {
      w.append(0L, RgbImage.raw(4, 3, raw));
      w.append(1L, RgbImage.jpeg(decoded.width(), decoded.height(), jpeg));
      w.finish();
    }
    try (StoredImages images = StoredImages.open(file, "image")) {
      assertThat(images.numSamples()).isEqualTo(2);
      BufferedImage first = images.image(0);
      assertThat(first.getWidth()).isEqualTo(4);
      assertThat(first.getRGB(1, 2) & 0xffffff).isEqualTo(Pictures.rgb(raw, 4, 3).getRGB(1, 2) & 0xffffff);
      assertThat(first.getRGB(1, 2) & 0xff).isEqualTo((3 * (2 * 4 + 1) + 2) * 7 & 0xff);
      BufferedImage second = images.image(1);
      assertThat(second.getWidth()).isEqualTo(decoded.width());
      assertThat(second.getHeight()).isEqualTo(decoded.height());
      assertThatThrownBy(() -> images.image(2))
          .isInstanceOf(IllegalArgumentException.class).hasMessage("Sample 2 is not in 0..1");
    }
  }

  @Test
  void aFieldThatIsNotThereIsNamed() throws Exception {
    Path file = dir.resolve("labels.beton");
    try (BetonWriter w = BetonWriter.builder(List.of(new BetonField("label", IntField.INSTANCE))).open(file)) {
      w.append(3L);
      w.finish();
    }
    assertThatThrownBy(() -> StoredImages.open(file, "image"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("No field 'image' in ")
        .hasMessageEndingWith("; fields are [label: Int]");
  }
}
