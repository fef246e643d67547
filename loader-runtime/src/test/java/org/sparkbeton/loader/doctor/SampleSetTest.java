package org.sparkbeton.loader.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.testing.PhotoFiles;

/** The doctor's sample: stored payloads copied unchanged, the variants as the writer would store them. */
class SampleSetTest {
  @TempDir
  Path tmp;

  @Test
  void storedResizedAndProportionVariants() throws IOException {
    Path file = PhotoFiles.write(tmp, "photos", 24, 11);
    int[] sample = {1, 4, 5, 9, 10, 13, 17, 20, 22, 23};
    Path work = Files.createDirectories(tmp.resolve("work"));
    try (Shards shards = Shards.openReaders(List.of(file));
        SampleSet set = SampleSet.write(shards, 0, sample, work, 256,
            List.of(SampleSet.Variant.STORED, SampleSet.Variant.RESIZED, SampleSet.Variant.PROPORTION), 2);
        BetonReader stored = BetonReader.open(set.file(SampleSet.Variant.STORED));
        BetonReader resized = BetonReader.open(set.file(SampleSet.Variant.RESIZED));
        BetonReader proportion = BetonReader.open(set.file(SampleSet.Variant.PROPORTION))) {
      assertThat(set.size()).isEqualTo(10);
      int raws = 0;
      for (int i = 0; i < sample.length; i++) {
        RgbImage original = (RgbImage) shards.reader(0).value(sample[i], 0);
        RgbImage s = (RgbImage) stored.value(i, 0);
        assertThat(s.payloadBytes()).as("sample %d stored unchanged", sample[i]).isEqualTo(original.payloadBytes());
        RgbImage r = (RgbImage) resized.value(i, 0);
        assertThat(r.mode()).isEqualTo(ImageMode.JPG);
        long fit = Resizer.fitWithin(original.width(), original.height(), 256); // the writer's rule
        assertThat(r.width()).as("width of sample %d", sample[i]).isEqualTo(ImageSize.width(fit));
        assertThat(r.height()).as("height of sample %d", sample[i]).isEqualTo(ImageSize.height(fit));
        assertThat(Math.max(r.width(), r.height())).isBetween(240, 256);
        RgbImage p = (RgbImage) proportion.value(i, 0);
        assertThat(p.width()).isEqualTo(r.width());
        assertThat(p.height()).isEqualTo(r.height());
        if (p.mode() == ImageMode.RAW) {
          raws++;
          assertThat(p.payload().remaining()).isEqualTo(3 * p.width() * p.height());
        }
      }
      assertThat(raws).as("about half raw, fixed by the sample indices").isBetween(2, 8);
      assertThat(set.meanPayload(SampleSet.Variant.RESIZED)).isLessThan(set.meanPayload(SampleSet.Variant.STORED));
      assertThat(set.meanPayload(SampleSet.Variant.PROPORTION)).isGreaterThan(set.meanPayload(SampleSet.Variant.RESIZED));
    }
    try (var left = Files.list(work)) {
      assertThat(left).as("closed: its files deleted").isEmpty();
    }
  }
}
