package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A killed process's copy of the library left in the temp dir (one from 09:01 was found in /tmp) is tidied. */
class LeftoverLibrariesTest {
  @TempDir Path dir;

  @Test
  void copiesOlderThanAnHourAreDeletedAndNothingElse() throws Exception {
    Instant now = Instant.parse("2026-12-01T12:00:00Z");
    Path old = touch("libbetoncodec-0.1.0-123.so", now.minusSeconds(2 * 3600));
    Path fresh = touch("libbetoncodec-0.1.0-456.so", now.minusSeconds(60)); // another process loading it now
    Path otherLibrary = touch("libother-0.1.0-789.so", now.minusSeconds(5 * 3600));
    Path notALibrary = touch("libbetoncodec-0.1.0-notes.txt", now.minusSeconds(5 * 3600));
    assertThat(LeftoverLibraries.deleteOld(dir, "libbetoncodec-0.1.0", now)).isEqualTo(1);
    assertThat(old).doesNotExist();
    assertThat(fresh).exists();
    assertThat(otherLibrary).exists();
    assertThat(notALibrary).exists();
    assertThat(LeftoverLibraries.deleteOld(dir.resolve("missing"), "libbetoncodec-0.1.0", now)).isZero();
  }

  private Path touch(String name, Instant modified) throws Exception {
    Path p = Files.writeString(dir.resolve(name), "x");
    Files.setLastModifiedTime(p, FileTime.from(modified));
    return p;
  }
}
