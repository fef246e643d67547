package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The notebooks as committed read on GitHub without running: every code cell has its outputs from one run, top to
 * bottom, without errors or the paths of the machine that ran it, and each picture the notebook promises is a real
 * PNG. Needs no Jupyter; {@link CommittedOutputsTest} checks that the outputs are today's.
 */
class CommittedNotebooksTest {
  @Test
  void everyNotebookHasItsListOfPictures() {
    assertThat(Notebooks.committed().stream().map(p -> p.getFileName().toString()))
        .as("notebooks in " + Notebooks.MODULE + " against Notebooks.PICTURES")
        .containsExactlyInAnyOrderElementsOf(Notebooks.PICTURES.keySet());
  }

  @TestFactory
  Stream<DynamicTest> committedWithOutputsAndPictures() {
    return Notebooks.committed().stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
      String name = file.getFileName().toString();
      assertThat(NotebookFile.read(file).problems(Notebooks.PICTURES.getOrDefault(name, java.util.List.of())))
          .as("problems of the committed " + name + " (re-run it: bin/beton-notebook --execute --save)")
          .isEmpty();
    }));
  }

  @Test
  void notebooksNameTheProjectKernel() {
    for (Path file : Notebooks.committed()) {
      assertThat(NotebookFile.read(file).json().path("metadata").path("kernelspec").path("display_name").asText())
          .as(file.getFileName() + " kernel display name").isEqualTo(KernelSpec.DISPLAY_NAME);
    }
  }
}
