package org.sparkbeton.notebooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The committed notebooks and the pictures each must show (the list: a new notebook needs an entry). */
final class Notebooks {
  /** Surefire runs in the module directory, where the notebooks are. */
  static final Path MODULE = Path.of("").toAbsolutePath();

  static final Map<String, List<String>> PICTURES = Map.of(
      "01-prepare-and-look.ipynb", List.of("sample-grid", "class-histogram"),
      "02-training-loader.ipynb",
      List.of("augmented-crops", "crops-again", "throughput", "stall-attribution", "progressive-resizing"),
      "03-ffcv-compatibility.ipynb", List.of("ffcv-images", "written-images"),
      "04-bottleneck-doctor.ipynb", List.of("doctor-predictions"),
      "05-training-with-djl.ipynb", List.of("photos-by-source", "training-curves", "step-time"));

  private Notebooks() {}

  /** The module's {@code *.ipynb}, in name order (02 reads what 01 writes). */
  static List<Path> committed() {
    try (Stream<Path> files = Files.list(MODULE)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".ipynb")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
