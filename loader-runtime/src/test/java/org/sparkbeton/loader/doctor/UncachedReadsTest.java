package org.sparkbeton.loader.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage probe's reads: a small payload across a block boundary, and a failing probe thread. */
class UncachedReadsTest {
  @TempDir Path dir;

  @Test
  void aSmallReadAcrossABlockBoundaryFitsTheBufferForItsLength() throws IOException {
    Path file = dir.resolve("f.bin");
    byte[] bytes = new byte[4 * 4096];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31 + 7);
    }
    Files.write(file, bytes);
    try (UncachedReads reads = UncachedReads.open(List.of(file), null)) {
      for (int attempt = 0; attempt < 8; attempt++) { // the slice's padding depends on the allocation's address
        ByteBuffer scratch = reads.buffer(1013);
        for (long position : new long[] {4096 - 500, 2 * 4096 - 1, 4096 - 1013, 3 * 4096 - 1012}) {
          assertThat(reads.read(0, position, 1013, scratch)).isEqualTo(1013);
        }
      }
      assertThat(reads.read(0, bytes.length - 100, 1013, reads.buffer(1013))).isEqualTo(100); // the file's end
    }
  }

  @Test
  void aProbeThreadsFailureOtherThanIoIsThrownToTheCaller() {
    assertThatThrownBy(() -> ProbeThreads.run(2, "probe-test-", t -> {
      if (t == 1) {
        throw new IllegalStateException("thread 1 failed");
      }
    })).isInstanceOf(IllegalStateException.class).hasMessage("thread 1 failed");
  }

  @Test
  void anIoFailureIsReturned() throws InterruptedException {
    IOException e = ProbeThreads.run(2, "probe-test-", t -> {
      throw new IOException("disk " + t);
    });
    assertThat(e).hasMessageStartingWith("disk ");
  }
}
