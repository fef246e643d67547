package org.sparkbeton.codec.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchPhotosTest {
  @TempDir
  Path dir;

  @Test
  void aDirectoryWithoutJpegsGetsTheTestPhotos() throws IOException {
    Path photos = dir.resolve("photos");

    assertThat(BenchPhotos.directory(photos, 3)).isEqualTo(photos);

    assertThat(names(photos)).containsExactly("photo_00000.jpg", "photo_00001.jpg", "photo_00002.jpg");
    assertThat(Files.readAllBytes(photos.resolve("photo_00001.jpg"))).isEqualTo(TestPhotos.photo(0, 1));
  }

  @Test
  void aDirectoryWithJpegsIsLeftAsItIs() throws IOException {
    Files.write(dir.resolve("mine.JPG"), TestPhotos.photo(7, 0));

    BenchPhotos.directory(dir, 3);

    assertThat(names(dir)).containsExactly("mine.JPG");
  }

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
