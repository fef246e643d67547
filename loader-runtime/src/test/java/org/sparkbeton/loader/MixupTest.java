package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.BatchContext;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.TensorSpec;
import org.sparkbeton.loader.transforms.ImageMixup;
import org.sparkbeton.loader.transforms.LabelMixup;
import org.sparkbeton.loader.transforms.MixupLambdas;
import org.sparkbeton.loader.transforms.MixupToOneHot;
import org.sparkbeton.loader.transforms.ReplaceLabel;

/** Batch operations: ImageMixup, LabelMixup, MixupToOneHot against the formula on the stored data. */
class MixupTest {
  static final int W = 5;
  static final int H = 3;
  static final int ROW = W * H * 3;
  static final long SEED = 12;

  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 23, W, H);
  }

  static LoaderBuilder mixup(int threads, boolean same) {
    return Loader.builder(file).batchSize(4).numThreads(threads).dropLast(false).order(OrderOption.RANDOM).seed(SEED)
        .pipeline("image", new SimpleRgbDecoder()).thenBatch("image", new ImageMixup(0.4, same))
        .pipeline("label", new IntDecoder(), new ReplaceLabel(new long[] {}, 0))
        .thenBatch("label", new LabelMixup(0.4, same))
        .pipeline("target", "label", new IntDecoder(), new ReplaceLabel(new long[] {3}, 1003))
        .thenBatch("target", new LabelMixup(0.4, same), new MixupToOneHot(1023));
  }

  static double[] lambdas(Batch b, boolean same) {
    int[] order = new int[b.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = b.sample(i);
    }
    return MixupLambdas.draw(new BatchContext(SEED, b.epoch(), b.index(), b.size(), order, 0), 0.4, same);
  }

  @Test
  void imagesAndLabelsAreMixedWithTheSameLambdas() throws IOException {
    for (boolean same : new boolean[] {false, true}) {
      try (Loader l = mixup(2, same).build()) {
        assertThat(l.pipelines().get(1).spec()).isEqualTo(TensorSpec.of(DType.FLOAT32, 3));
        assertThat(l.pipelines().get(2).spec()).isEqualTo(TensorSpec.of(DType.FLOAT32, 1023));
        int batches = 0;
        for (Batch b : l) {
          batches++;
          double[] lam = lambdas(b, same);
          if (same) {
            assertThat(lam).containsOnly(lam[0]);
          }
          int n = b.size();
          for (int i = 0; i < n; i++) {
            int s = b.sample(i);
            int prev = b.sample(i == 0 ? n - 1 : i - 1);
            for (int y = 0; y < H; y++) {
              for (int x = 0; x < W; x++) {
                for (int c = 0; c < 3; c++) {
                  int expected = (int) (lam[i] * Datasets.pixel(s, y, x, c) + (1 - lam[i]) * Datasets.pixel(prev, y, x, c));
                  assertThat(b.data("image").get(i * ROW + (y * W + x) * 3 + c) & 0xff).isEqualTo(expected);
                }
              }
            }
            ByteBuffer label = b.data("label");
            assertThat(label.getFloat(12 * i)).isEqualTo(1000f + s);
            assertThat(label.getFloat(12 * i + 4)).isEqualTo(1000f + prev);
            assertThat(label.getFloat(12 * i + 8)).isEqualTo((float) lam[i]);
            ByteBuffer target = b.data("target");
            float sum = 0;
            for (int k = 0; k < 1023; k++) {
              sum += target.getFloat(4 * (1023 * i + k));
            }
            assertThat(sum).isCloseTo(1f, offset(1e-6f));
            if (s != prev) {
              assertThat(target.getFloat(4 * (1023 * i + 1000 + s))).isEqualTo((float) lam[i]);
            }
          }
        }
        assertThat(batches).isEqualTo(6);
      }
    }
  }

  @Test
  void mixupIsIndependentOfTheThreadCount() throws IOException {
    List<byte[]> one;
    try (Loader l = mixup(1, false).build()) {
      one = BatchBytes.epochs(l, 1, "image", "label", "target");
    }
    try (Loader l = mixup(3, false).build()) {
      List<byte[]> three = BatchBytes.epochs(l, 1, "image", "label", "target");
      assertThat(three).containsExactlyElementsOf(one);
    }
  }

  @Test
  void betaDrawsHaveTheRightMoments() {
    for (double alpha : new double[] {0.2, 1.0, 3.0}) {
      int[] order = new int[20_000];
      double[] lam = MixupLambdas.draw(new BatchContext(1, 0, 0, order.length, order, 0), alpha, false);
      double mean = 0;
      double var = 0;
      for (double v : lam) {
        assertThat(v).isBetween(0.0, 1.0);
        mean += v;
      }
      mean /= lam.length;
      for (double v : lam) {
        var += (v - mean) * (v - mean);
      }
      var /= lam.length;
      assertThat(mean).as("mean for alpha %s", alpha).isCloseTo(0.5, offset(0.01));
      assertThat(var).as("variance for alpha %s", alpha).isCloseTo(1 / (4 * (2 * alpha + 1)), offset(0.005));
    }
  }

  @Test
  void batchOperationsAreCheckedWhenPlanning() {
    assertThatThrownBy(() -> Loader.builder(file).batchSize(4).pipeline("image", new SimpleRgbDecoder())
        .thenBatch("image", new LabelMixup(0.2, false)).build())
        .hasMessage("Pipeline 'image', step 1 (LabelMixup) on uint8[3, 5, 3]: LabelMixup expects an int64 [1] label,"
            + " got uint8[3, 5, 3]");
    assertThatThrownBy(() -> Loader.builder(file).batchSize(4).pipeline("image", new SimpleRgbDecoder())
        .thenBatch("label", new LabelMixup(0.2, false)))
        .hasMessage("No pipeline named 'label' to add batch operations to");
    assertThatThrownBy(() -> new ImageMixup(0, true)).hasMessage("ImageMixup alpha must be positive, got 0.0");
  }
}
