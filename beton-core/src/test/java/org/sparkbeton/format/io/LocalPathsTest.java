package org.sparkbeton.format.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalPathsTest {
  @TempDir Path tmp;

  @Test
  void aFileUriWithNonAsciiCharactersAsTheyAreNamesItsFile() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("données"));
    Path file = Files.writeString(dir.resolve("照片.beton"), "x");
    URI raw = new URI("file://" + file); // as typed, and as a qualified Hadoop path gives it: not escaped
    assertThat(raw.getRawPath()).isEqualTo(file.toString());
    assertThatThrownBy(() -> Path.of(raw)).hasMessage("Bad escape");

    assertThat(LocalPaths.of(raw)).isEqualTo(file);
    assertThat(Files.readString(LocalPaths.of(raw))).isEqualTo("x");
    assertThat(LocalPaths.of(new URI("file:" + dir))).isEqualTo(dir);
    assertThat(LocalPaths.of(new URI("file", null, dir + "/照片 1.beton", null))).isEqualTo(dir.resolve("照片 1.beton"));
    assertThat(LocalPaths.of(file.toUri())).isEqualTo(file);
  }
}
