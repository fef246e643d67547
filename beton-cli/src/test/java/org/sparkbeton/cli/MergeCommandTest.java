package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.testing.GoldenFiles;

class MergeCommandTest {
  @TempDir
  Path tmp;

  @Test
  void jpgLabelsTwiceGivesBothHalves() {
    Path out = tmp.resolve("twice.beton");
    Cli.Result r = Cli.run("merge", out, GoldenFiles.path("jpg_labels"), GoldenFiles.path("jpg_labels"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith(out + ": 80 samples from 2 files, 2 pages of 2 MiB, 80 allocations");
    List<String> merged = Cli.run("dump", out).outLines();
    List<String> one = Cli.run("dump", GoldenFiles.path("jpg_labels")).outLines();
    assertThat(merged).hasSize(80);
    assertThat(merged.subList(0, 40)).isEqualTo(one);
    assertThat(merged.subList(40, 80)).isEqualTo(one);
    Cli.Result verify = Cli.run("verify", out);
    assertThat(verify.exitCode()).as(verify.out()).isZero();
    assertThat(verify.out()).isEqualTo(out + ": OK (80 samples, 80 allocations, 2 pages)\n");
  }

  @Test
  void everyFieldWithItsShuffledTableMergesAndVerifies() {
    Path out = tmp.resolve("ef.beton");
    assertThat(Cli.run("merge", out, GoldenFiles.path("every_field"), GoldenFiles.path("every_field")).exitCode())
        .isZero();

    List<String> one = Cli.run("dump", GoldenFiles.path("every_field")).outLines();
    assertThat(Cli.run("dump", out, "--from", 60).outLines()).isEqualTo(one);
    assertThat(Cli.run("verify", out).exitCode()).isZero();
  }

  @Test
  void filesWithDifferentFieldsAreRefused() {
    Path out = tmp.resolve("bad.beton");
    Cli.Result r = Cli.run("merge", out, GoldenFiles.path("jpg_labels"), GoldenFiles.path("scalars_only"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).startsWith("beton: Cannot merge " + GoldenFiles.path("scalars_only") + ": field 0 is label: Int")
        .doesNotContain("Exception");
    assertThat(Files.exists(out)).isFalse();
    assertThat(tmp.toFile().list()).isEmpty();
  }

  @Test
  void filesWithDifferentPageSizesAreRefused() {
    Path out = tmp.resolve("bad.beton");
    Cli.Result r = Cli.run("merge", out, GoldenFiles.path("jpg_labels"), GoldenFiles.path("worked_example"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: Cannot merge " + GoldenFiles.path("worked_example")
        + ": page size 8388608 differs from " + GoldenFiles.path("jpg_labels") + "'s 2097152; rewrite it with"
        + " --page-size 2097152 first");
  }
}
