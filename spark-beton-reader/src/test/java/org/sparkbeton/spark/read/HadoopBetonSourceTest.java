package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.io.BetonSource;

class HadoopBetonSourceTest {
  @TempDir Path tmp;

  @Test
  void positionalReadsCountEveryByteHandedOut() throws Exception {
    byte[] bytes = new byte[1000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    Path file = Files.write(tmp.resolve("f.bin"), bytes);
    try (HadoopBetonSource s = new HadoopBetonSource(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration())) {
      assertThat(s.length()).isEqualTo(1000);
      assertThat(s.bytesRead()).isZero();
      ByteBuffer b = s.read(300, 8);
      assertThat(b.order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
      assertThat(b.isReadOnly()).isTrue();
      assertThat(b.get(0)).isEqualTo((byte) 44); // 300 & 0xff
      s.read(0, 100);
      s.read(900, 100);
      assertThat(s.bytesRead()).isEqualTo(208);
      assertThatThrownBy(() -> s.read(999, 2)).isInstanceOf(IOException.class)
          .hasMessageContaining("read of 2 bytes at 999 is outside the file (1000 bytes)");
      assertThatThrownBy(() -> s.read(-1, 1)).isInstanceOf(IOException.class);
      assertThat(s.bytesRead()).isEqualTo(208);
    }
  }

  /**
   * A shard the manifest's page checksums check is read through a FileChannel of the local file: a {@code .crc} sidecar
   * that no longer matches (written by Hadoop's checksummed local file system, then the file changed) fails a
   * read through that layer, but not the page-checked open, which our CRC32C checks instead.
   */
  @Test
  void aPageCheckedLocalShardIsReadWithoutHadoopsCrcSidecar() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(tmp.resolve("s.beton").toUri());
    org.apache.hadoop.fs.LocalFileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(conf);
    byte[] bytes = new byte[600];
    try (var out = fs.create(path)) {
      out.write(bytes);
    }
    assertThat(tmp.resolve(".s.beton.crc")).exists();
    bytes[10] = 42;
    Files.write(tmp.resolve("s.beton"), bytes); // the sidecar now holds the old file's checksums

    try (BetonSource s = HadoopBetonSource.open(path, conf, false)) {
      assertThatThrownBy(() -> s.read(0, 100)).isInstanceOf(org.apache.hadoop.fs.ChecksumException.class);
    }
    try (BetonSource s = HadoopBetonSource.open(path, conf, true)) {
      assertThat(s.length()).isEqualTo(600);
      assertThat(s.name()).isEqualTo(path.toString());
      assertThat(s.read(0, 100).get(10)).isEqualTo((byte) 42);
      assertThat(s.bytesRead()).isEqualTo(100);
    }
  }

  @Test
  void aMissingShardFailsTheSameWayEitherWay() {
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(tmp.resolve("missing.beton").toUri());
    for (boolean checked : new boolean[] {false, true}) {
      assertThatThrownBy(() -> HadoopBetonSource.open(path, new Configuration(), checked).close())
          .isInstanceOf(java.io.FileNotFoundException.class).hasMessageContaining("missing.beton");
    }
  }
}
