package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.loader.testing.PhotoFiles;

class RewriteCommandTest {
  @TempDir
  Path tmp;

  @Test
  void oneThreadReproducesJpgLabelsByteForByte() throws Exception {
    Path out = tmp.resolve("copy.beton");
    Cli.Result r = Cli.run("rewrite", GoldenFiles.path("jpg_labels"), out, "--threads", 1);

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("40 samples, 1 page of 2 MiB, 40 allocations, 4195264 bytes (input 4195264 bytes)");
    assertThat(Files.readAllBytes(out)).isEqualTo(GoldenFiles.bytes("jpg_labels"));
    assertThat(tmp.toFile().list()).containsExactly("copy.beton");
  }

  @Test
  void newPageSizeAndTwoThreadsReadBackIdentically() throws Exception {
    Path out = tmp.resolve("4m.beton");
    Cli.Result r = Cli.run("rewrite", GoldenFiles.path("jpg_labels"), out, "--page-size", "4M", "--threads", 2);

    assertThat(r.exitCode()).as(r.err()).isZero();
    try (BetonReader reader = BetonReader.open(out)) {
      assertThat(reader.pageSize()).isEqualTo(4L << 20);
      assertThat(reader.numSamples()).isEqualTo(40);
    }
    assertThat(Cli.run("dump", out).out()).isEqualTo(Cli.run("dump", GoldenFiles.path("jpg_labels")).out());
    assertThat(Cli.run("verify", out).exitCode()).isZero();
  }

  @Test
  void rewriteOfTwoWorkerFileCompactsItsHalfEmptyPages() throws Exception {
    Path out = tmp.resolve("ef.beton");
    assertThat(Cli.run("rewrite", GoldenFiles.path("every_field"), out).exitCode()).isZero();

    assertThat(Cli.run("dump", out).out()).isEqualTo(Cli.run("dump", GoldenFiles.path("every_field")).out());
    JsonNode before = GoldenFiles.parse(Cli.run("inspect", "--json", GoldenFiles.path("every_field")).out());
    JsonNode after = GoldenFiles.parse(Cli.run("inspect", "--json", out).out());
    assertThat(before.get("pages").asLong()).isEqualTo(2);
    assertThat(after.get("pages").asLong()).isEqualTo(1);
    assertThat(after.get("allocated_bytes")).isEqualTo(before.get("allocated_bytes"));
    assertThat(after.get("unused_bytes").asLong()).isEqualTo(before.get("unused_bytes").asLong() - (2L << 20));
    assertThat(Cli.run("verify", out).exitCode()).isZero();
  }

  @Test
  void biggerPagesLetPageSpillKeepItsSamplesTogether() throws Exception {
    Path out = tmp.resolve("spill.beton");
    assertThat(Cli.run("rewrite", GoldenFiles.path("page_spill"), out, "--page-size", "8MiB").exitCode()).isZero();

    assertThat(Cli.run("dump", out).out()).isEqualTo(Cli.run("dump", GoldenFiles.path("page_spill")).out());
    JsonNode after = GoldenFiles.parse(Cli.run("inspect", "--json", out).out());
    // 23 samples of 350,000 bytes fit 8 MiB: all 20 in one page, nothing moved, nothing orphaned
    assertThat(after.get("pages").asLong()).isEqualTo(1);
    assertThat(after.get("page_tail_bytes").asLong()).isEqualTo((8L << 20) - 20 * 350_000);
    assertThat(after.get("allocated_bytes").asLong()).isEqualTo(20 * 350_000);
  }

  @Test
  void refusesToReplaceAnExistingFileWithoutForce() throws Exception {
    Path out = tmp.resolve("exists.beton");
    Files.writeString(out, "keep me");

    Cli.Result r = Cli.run("rewrite", GoldenFiles.path("worked_example"), out);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: " + out + ": already exists; pass --force to replace it");
    assertThat(Files.readString(out)).isEqualTo("keep me");
    assertThat(Cli.run("rewrite", GoldenFiles.path("worked_example"), out, "--force").exitCode()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(GoldenFiles.bytes("worked_example"));
  }

  @Test
  void refusesToWriteOverItsInput() {
    Path in = GoldenFiles.path("worked_example");

    Cli.Result r = Cli.run("rewrite", in, in, "--force");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.errLines()).containsExactly("beton: output " + in + " is the input " + in + "; write to another file");
  }

  @Test
  void aCompactFileStaysCompactAndFfcvsLayoutIsAskedForWithANote() throws Exception {
    Path in = PhotoFiles.write(tmp, "shard", 8, 5); // our writer's default layout, a Spark shard's
    long inBytes = Files.size(in);
    assertThat(inBytes).as("a few photos, less than one 2 MiB page").isLessThan(1L << 20);

    Path same = tmp.resolve("same.beton");
    Cli.Result r = Cli.run("rewrite", in, same);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(Files.readAllBytes(same)).as("the input's layout, one thread: the same bytes")
        .isEqualTo(Files.readAllBytes(in));

    Path ffcv = tmp.resolve("ffcv.beton");
    Cli.Result f = Cli.run("rewrite", in, ffcv, "--layout", "ffcv");
    assertThat(f.exitCode()).as(f.err()).isZero();
    long ffcvBytes = Files.size(ffcv);
    assertThat(ffcvBytes).as("the data from page 1, whole pages").isGreaterThanOrEqualTo(2L << 21);
    assertThat(f.errLines()).containsExactly(String.format(java.util.Locale.ROOT, "beton: note: %s is %.1fx the size"
        + " of %s: FFCV's layout writes whole pages of 2 MiB; --layout compact packs the samples instead (FFCV reads"
        + " both)", ffcv, (double) ffcvBytes / inBytes, in));
    assertThat(Cli.run("dump", ffcv).out()).isEqualTo(Cli.run("dump", in).out());

    Path back = tmp.resolve("back.beton");
    assertThat(Cli.run("rewrite", ffcv, back, "--layout", "compact").exitCode()).isZero();
    assertThat(Files.readAllBytes(back)).isEqualTo(Files.readAllBytes(in));
  }
}
