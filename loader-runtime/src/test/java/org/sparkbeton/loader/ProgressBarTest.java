package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.order.OrderOption;

class ProgressBarTest {
  @TempDir Path dir;

  @Test
  void drawsEachEpochInPlaceAndEndsItsLine() throws Exception {
    Path file = Datasets.rawImages(dir, 50, 4, 4);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (Loader loader = Loader.builder(file).batchSize(8).dropLast(false).numThreads(2).order(OrderOption.RANDOM)
        .progressBar(out, 0).pipeline("label", new IntDecoder()).build()) {
      for (int epoch = 0; epoch < 2; epoch++) {
        for (Batch b : loader) {
          assertThat(b.size()).isPositive();
        }
      }
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    String[] lines = text.split("\n");
    assertThat(lines).hasSize(2);
    // every batch redraws (interval 0): 7 draws per epoch, each starting with a carriage return
    assertThat(lines[0].split("\r", -1)).hasSize(8);
    String last = lines[0].substring(lines[0].lastIndexOf('\r') + 1);
    assertThat(last).startsWith("epoch 0 [####################] 7/7 batches").contains(" img/s ")
        .matches(".* [0-9.]+ s  training waits [0-9]+%");
    assertThat(lines[0]).contains("epoch 0 [##------------------] 1/7 batches").contains("ETA ");
    assertThat(lines[1].substring(lines[1].lastIndexOf('\r') + 1)).startsWith("epoch 1 [####################] 7/7");
  }

  @Test
  void noBarUnlessAskedFor() throws Exception {
    Path file = Datasets.rawImages(dir, 10, 4, 4);
    PrintStream saved = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try (Loader loader = Loader.builder(file).batchSize(5).pipeline("label", new IntDecoder()).build()) {
      for (Batch b : loader) {
        assertThat(b.size()).isEqualTo(5);
      }
    } finally {
      System.setErr(saved);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("epoch 0 [");
  }
}
