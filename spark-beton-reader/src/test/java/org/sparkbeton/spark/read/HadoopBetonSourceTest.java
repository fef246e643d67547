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
}
