package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.testing.PhotoFiles;

/** A count of one takes the singular noun in every command's output: "1 sample", not "1 samples". */
class SingularCountsTest {
  @TempDir
  static Path tmp;
  static Path one;

  @BeforeAll
  static void write() throws IOException {
    one = PhotoFiles.write(tmp, "one", 1, 5);
  }

  @Test
  void verifyAndDump() {
    Cli.Result verified = Cli.run("verify", one);
    assertThat(verified.exitCode()).as(verified.err()).isZero();
    assertThat(verified.out()).isEqualTo(one + ": OK (1 sample, 1 allocation, 1 page)\n");

    Cli.Result decoded = Cli.run("verify", "--decode", one);
    assertThat(decoded.out()).isEqualTo(one + ": OK (1 sample, 1 allocation, 1 page, 1 JPEG decoded)\n");

    Cli.Result dumped = Cli.run("dump", one, "--from", 2);
    assertThat(dumped.errLines()).containsExactly("beton: --from 2 is past the last sample: " + one + " has 1 sample");
  }

  @Test
  void inspect() {
    Cli.Result r = Cli.run("inspect", one, "--sizes", 0);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains(", 1 entry\n").contains("    ... 1 more size, 1 image\n");
  }

  @Test
  void benchAndDoctor() {
    Cli.Result bench = Cli.run("bench", one, "--epochs", 2, "--batch", 1, "--threads", 1);
    assertThat(bench.exitCode()).as(bench.err()).isZero();
    assertThat(bench.outLines().get(0)).startsWith("beton bench: " + one + " (1 of 1 sample per epoch, ");

    Cli.Result doctor = Cli.run("doctor", one, "--seconds", 1, "--batch", 1, "--threads", 1);
    assertThat(doctor.exitCode()).as(doctor.err()).isZero();
    assertThat(doctor.outLines().get(0)).startsWith("beton doctor: " + one + " (1 file of ").contains(", 1 sample, 1 page of ");
    assertThat(doctor.out()).contains(" (1 sample in memory)\n");
  }
}
