package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/** A null argument to the loader's public API is refused at once, naming the parameter (not a bare NPE later). */
class NullArgumentTest {
  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 16, 12, 10);
  }

  private static LoaderBuilder builder() {
    return Loader.builder(file).batchSize(4).numThreads(1);
  }

  @Test
  void builderMethodsNameTheNullParameter() {
    assertThatThrownBy(() -> Loader.builder((Path) null)).isInstanceOf(NullPointerException.class)
        .hasMessage("fileOrDataset");
    assertThatThrownBy(() -> Loader.builder((URI) null)).hasMessage("dataset");
    assertThatThrownBy(() -> Loader.builder((List<Path>) null)).hasMessage("files");
    assertThatThrownBy(() -> Loader.builder(Arrays.asList(file, null))).hasMessage("files[1]");
    assertThatThrownBy(() -> builder().indices(null)).isInstanceOf(NullPointerException.class).hasMessage("indices");
    assertThatThrownBy(() -> builder().allocator(null)).hasMessage("allocator");
    assertThatThrownBy(() -> builder().order(null)).hasMessage("order");
    assertThatThrownBy(() -> builder().onBadSample(null)).hasMessage("policy");
    assertThatThrownBy(() -> builder().resumeFrom(null)).hasMessage("state");
  }

  @Test
  void pipelinesNameTheNullParameterOrOperation() {
    assertThatThrownBy(() -> builder().pipeline(null, new IntDecoder())).hasMessage("field");
    assertThatThrownBy(() -> builder().pipeline("out", null, new IntDecoder())).hasMessage("field");
    assertThatThrownBy(() -> builder().pipeline("label", null)).hasMessage("decoder");
    assertThatThrownBy(() -> builder().pipeline("image", new SimpleRgbDecoder(), (Operation[]) null))
        .hasMessage("ops");
    assertThatThrownBy(() -> builder().pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip(), null))
        .isInstanceOf(NullPointerException.class).hasMessage("ops[1] of pipeline 'image'");
    assertThatThrownBy(() -> builder().pipeline("label", new IntDecoder()).thenBatch(null)).hasMessage("output");
    assertThatThrownBy(() -> builder().pipeline("label", new IntDecoder()).thenBatch("label", (BatchOperation) null))
        .hasMessage("ops[0] of pipeline 'label'");
  }

  @Test
  void filterNamesTheNullParameter() throws IOException {
    try (Loader loader = builder().pipeline("label", new IntDecoder()).build()) {
      assertThatThrownBy(() -> loader.filter(null, new IntDecoder(), (rows, off, len) -> true)).hasMessage("field");
      assertThatThrownBy(() -> loader.filter("label", null, (rows, off, len) -> true)).hasMessage("decoder");
      assertThatThrownBy(() -> loader.filter("label", new IntDecoder(), null)).hasMessage("predicate");
    }
  }
}
