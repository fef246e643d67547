package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo input of {@code bin/beton-prepare}: drawn once, and nothing in it that its prepare leaves out. */
class DemoImageFolderTest {
  @TempDir Path tmp;

  @Test
  void theFolderHoldsOnlyImagesAndIsDrawnOnce() throws Exception {
    Path shapes = tmp.resolve("shapes");
    Files.createDirectories(shapes);
    Files.createFile(shapes.resolve(".complete-12-42")); // an earlier version's mark, inside the folder
    DemoImageFolder.ensure(shapes, 12, 42);
    long images;
    try (Stream<Path> files = Files.walk(shapes)) {
      images = files.filter(Files::isRegularFile).peek(f -> assertThat(f.toString()).endsWith(".jpg")).count();
    }
    assertThat(images).isEqualTo(12);
    // the first summary said "left out 1 hidden file (names starting with .)": the mark
    assertThat(ImageFolderRoot.of(new Configuration(), shapes.toString()).leftOut().describe()).isEqualTo("nothing");
    assertThat(tmp.resolve("shapes.complete-12-42")).exists();

    Path first = shapes.resolve(ShapesGenerator.CLASSES.get(new ShapesGenerator(42, 160, 320).label(0)))
        .resolve("000000.jpg");
    Files.setLastModifiedTime(first, FileTime.fromMillis(0));
    DemoImageFolder.ensure(shapes, 12, 42);
    assertThat(Files.getLastModifiedTime(first).toMillis()).as("not drawn again").isZero();
  }
}
