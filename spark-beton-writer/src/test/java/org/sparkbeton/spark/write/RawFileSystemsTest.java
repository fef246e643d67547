package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files on the raw local file system: created or overwritten as Hadoop would, with no chmod and no .crc beside them. */
class RawFileSystemsTest {
  @TempDir Path tmp;

  @Test
  void createsNewLocalFilesWithTheirParentsAndTheUsualMode() throws Exception {
    FileSystem raw = RawFileSystems.withoutChecksums(FileSystem.getLocal(new Configuration()));
    Path file = tmp.resolve("a/b/part-00001.beton");
    byte[] data = new byte[200_000]; // past the stream's buffer
    new java.util.Random(7).nextBytes(data);
    try (OutputStream out = RawFileSystems.create(raw, new org.apache.hadoop.fs.Path(file.toUri()), false)) {
      out.write(data, 0, 5);
      out.write(data, 5, data.length - 5);
    }
    assertThat(Files.readAllBytes(file)).isEqualTo(data);
    assertThat(tmp.resolve("a/b/.part-00001.beton.crc")).doesNotExist();
    // the mode Hadoop's own create gives a file (its umask, not the process's), under a umask of its own here
    Configuration conf = new Configuration();
    conf.set("fs.permissions.umask-mode", "077");
    FileSystem strict = new org.apache.hadoop.fs.RawLocalFileSystem();
    strict.initialize(java.net.URI.create("file:///"), conf);
    Path byHadoop = tmp.resolve("by-hadoop.beton");
    strict.create(new org.apache.hadoop.fs.Path(byHadoop.toUri()), false).close();
    Path ours = tmp.resolve("ours.beton");
    RawFileSystems.create(strict, new org.apache.hadoop.fs.Path(ours.toUri()), false).close();
    assertThat(Files.getPosixFilePermissions(ours)).isEqualTo(Files.getPosixFilePermissions(byHadoop))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
  }

  @Test
  void refusesAFileThatIsThereAndLeavesItAlone() throws Exception {
    FileSystem raw = RawFileSystems.withoutChecksums(FileSystem.getLocal(new Configuration()));
    Path file = Files.write(tmp.resolve("taken.beton"), new byte[] {1, 2, 3});
    assertThatThrownBy(() -> RawFileSystems.create(raw, new org.apache.hadoop.fs.Path(file.toUri()), false))
        .isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining("File already exists")
        .hasMessageContaining("taken.beton");
    assertThat(Files.readAllBytes(file)).containsExactly(1, 2, 3);
  }

  @Test
  void overwritesAFileThatIsThereWithTheUsualModeAndNoChecksum() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.permissions.umask-mode", "027");
    FileSystem raw = new org.apache.hadoop.fs.RawLocalFileSystem();
    raw.initialize(java.net.URI.create("file:///"), conf);
    Path file = Files.write(tmp.resolve("marker.live"), new byte[1000]);
    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    try (OutputStream out = RawFileSystems.create(raw, new org.apache.hadoop.fs.Path(file.toUri()), true)) {
      out.write(new byte[] {4, 5});
    }
    assertThat(Files.readAllBytes(file)).containsExactly(4, 5); // truncated, not written over the old bytes
    Path byHadoop = tmp.resolve("by-hadoop.live");
    Files.write(byHadoop, new byte[1]);
    raw.create(new org.apache.hadoop.fs.Path(byHadoop.toUri()), true).close();
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(Files.getPosixFilePermissions(byHadoop))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.GROUP_READ);
    assertThat(tmp.resolve(".marker.live.crc")).doesNotExist();
  }

  @Test
  void refusesADirectoryInTheWay() throws Exception {
    FileSystem raw = RawFileSystems.withoutChecksums(FileSystem.getLocal(new Configuration()));
    Path dir = Files.createDirectories(tmp.resolve("a-directory"));
    assertThatThrownBy(() -> RawFileSystems.create(raw, new org.apache.hadoop.fs.Path(dir.toUri()), true))
        .isInstanceOf(java.io.IOException.class);
    assertThat(dir).isDirectory();
  }
}
