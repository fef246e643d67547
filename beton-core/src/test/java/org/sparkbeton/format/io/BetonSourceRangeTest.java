package org.sparkbeton.format.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every local source reads inside its length and refuses the rest with one message (BetonSource.requireInside). */
class BetonSourceRangeTest {
  @TempDir Path dir;

  private List<BetonSource> sources() throws IOException {
    byte[] bytes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    Path file = Files.write(dir.resolve("ten.beton"), bytes);
    return List.of(new ByteArraySource("ten.beton", bytes), new MappedFileSource(file), new ChannelSource(file));
  }

  @Test
  void readsTheLastBytesAndRefusesOnePast() throws IOException {
    for (BetonSource source : sources()) {
      try (source) {
        ByteBuffer tail = source.read(6, 4);
        assertThat(new byte[] {tail.get(0), tail.get(1), tail.get(2), tail.get(3)}).containsExactly(6, 7, 8, 9);
        assertThat(source.read(10, 0).remaining()).isZero();
        assertThatThrownBy(() -> source.read(7, 4)).isInstanceOf(IOException.class)
            .hasMessageEndingWith("ten.beton: read of 4 bytes at 7 is outside the file (10 bytes)");
        assertThatThrownBy(() -> source.read(-1, 1))
            .hasMessageEndingWith("read of 1 bytes at -1 is outside the file (10 bytes)");
        assertThatThrownBy(() -> source.read(0, -1))
            .hasMessageEndingWith("read of -1 bytes at 0 is outside the file (10 bytes)");
        assertThatThrownBy(() -> source.read(Long.MAX_VALUE, 1)).isInstanceOf(IOException.class);
      }
    }
  }
}
