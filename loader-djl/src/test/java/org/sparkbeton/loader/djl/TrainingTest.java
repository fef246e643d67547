package org.sparkbeton.loader.djl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.djl.example.PeakRss;
import org.sparkbeton.loader.djl.example.ResNetTraining;
import org.sparkbeton.loader.djl.example.ShapeScenes;

/**
 * A short real training run: DJL's ResNetV1 (its 8-layer CIFAR variant) learns 4 shape classes fed by the
 * loader through {@link LoaderDataset}, with random resized crops and flips, progressive resizing (24 then 28 px)
 * and fixed seeds: 288 steps of 16 images. The loss must fall and held-out accuracy must clear chance (25%) by a
 * wide margin; every DJL batch must have been closed and its slot given back.
 */
class TrainingTest {
  static final List<String> CLASSES = List.of("circle", "ring", "cross", "stripes");
  static final int TRAIN = 1536;
  static final int EPOCHS = 3;

  @TempDir
  Path dir;

  @Test
  void aResNetLearnsShapesFedByTheLoader() throws IOException {
    ShapeScenes scenes = new ShapeScenes(3, CLASSES, 36, 48, ShapeScenes.Background.GRADIENT);
    Path train = scenes.write(dir.resolve("train.beton"), 0, TRAIN);
    Path heldOut = scenes.write(dir.resolve("held-out.beton"), 100_000, 256);
    ResNetTraining.Options options = new ResNetTraining.Options(CLASSES.size(), 8, 16, 1,
        SizeSchedule.perEpoch(24, 24, 28), 0.6, 0.003f, 5);
    List<ResNetTraining.EpochReport> epochs = new ArrayList<>();
    try (ResNetTraining training = new ResNetTraining(train, heldOut, options)) {
      for (int e = 0; e < EPOCHS; e++) {
        ResNetTraining.EpochReport r = training.epoch();
        System.out.println(r);
        epochs.add(r);
        assertThat(training.train().openBatches()).isZero(); // every batch closed, every slot given back
      }
      assertThat(training.manager().getManagedArrays()).as("arrays of batches left on the trainer's manager")
          .noneMatch(a -> "image".equals(a.getName()) || "label".equals(a.getName()));
    }
    System.out.println("peak RSS of the test JVM: " + PeakRss.mib() + " MiB");
    ResNetTraining.EpochReport first = epochs.get(0);
    ResNetTraining.EpochReport last = epochs.get(EPOCHS - 1);
    assertThat(first.side()).isEqualTo(24);
    assertThat(last.side()).isEqualTo(28);
    assertThat(last.images()).isEqualTo(TRAIN); // 96 batches of 16 per epoch
    assertThat(last.loss()).isLessThan(0.75 * first.loss());
    assertThat(last.heldOutAccuracy()).isGreaterThan(0.6); // chance: 0.25
  }
}
