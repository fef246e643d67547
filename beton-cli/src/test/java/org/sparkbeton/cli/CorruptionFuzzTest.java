package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.format.testing.GoldenFiles;

/**
 * Corrupts bytes of golden files where they matter (header, descriptors, metadata, allocation table)
 * and checks that no command ever answers with a stack trace or an internal error: a malformed file is
 * a user-level problem (verify: exit 1; other commands: exit 2 with one line).
 */
class CorruptionFuzzTest {
  private static final int ROUNDS = 16;

  @TempDir
  Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"jpg_labels", "every_field"})
  void corruptFilesGiveCleanErrors(String name) throws Exception {
    byte[] original = GoldenFiles.bytes(name);
    int fields = (original[2] & 0xff) | (original[3] & 0xff) << 8;
    int metadataStart = 24 + 1041 * fields;
    long tableStart = java.nio.ByteBuffer.wrap(original).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(16);
    Random random = new Random(42);
    Path bad = tmp.resolve(name + ".beton");
    for (int round = 0; round < ROUNDS; round++) {
      byte[] bytes = original.clone();
      int at = switch (round % 4) {
        case 0 -> random.nextInt(24);
        case 1 -> 24 + random.nextInt(metadataStart - 24);
        case 2 -> metadataStart + random.nextInt(2000);
        default -> (int) tableStart + random.nextInt((int) (original.length - tableStart));
      };
      bytes[at] ^= (byte) (1 << random.nextInt(8));
      Files.write(bad, bytes);
      for (String command : new String[] {"inspect", "dump", "verify"}) {
        Cli.Result r = Cli.run(command, bad);
        String context = command + " with bit flipped at byte " + at + ":\n" + r.err();
        assertThat(r.exitCode()).as(context).isBetween(0, 2);
        assertThat(r.err()).as(context).doesNotContain("\tat ").doesNotContain("looks like a bug");
        if (r.exitCode() == 2) {
          assertThat(r.errLines()).as(context).hasSize(1);
        }
      }
    }
  }
}
