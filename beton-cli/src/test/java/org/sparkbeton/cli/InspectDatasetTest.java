package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.ColumnStats;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.write.BetonWriter;

/** {@code beton inspect DIR}: a dataset directory described from its manifest. */
class InspectDatasetTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE),
      new BetonField("weight", FloatField.INSTANCE));

  @TempDir Path tmp;

  /**
   * Three shards of 4, 3 and 2 samples: labels {@code s*10 .. s*10+n-1}, weights {@code i/2 - 1}, the second shard's
   * last weight NaN. The manifest records label's Spark type and min/max for both fields except in the third shard
   * when {@code lastShardStats} is false.
   */
  private Path dataset(boolean lastShardStats) throws Exception {
    Path dir = tmp.resolve("ds");
    Files.createDirectories(dir);
    List<ShardEntry> entries = new ArrayList<>();
    int[] sizes = {4, 3, 2};
    for (int s = 0; s < sizes.length; s++) {
      String name = "part-0000" + s + ".beton";
      Path file = dir.resolve(name);
      var labels = ColumnStats.Accumulator.forInts();
      var weights = ColumnStats.Accumulator.forFloats();
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(1 << 21).open(file)) {
        for (int i = 0; i < sizes[s]; i++) {
          long label = s * 10L + i;
          double weight = s == 1 && i == sizes[s] - 1 ? Double.NaN : 0.5 * i - 1;
          w.append(label, weight);
          labels.add(label);
          weights.add(weight);
        }
        w.finish();
      }
      Map<String, ColumnStats> stats = s == 2 && !lastShardStats ? Map.of()
          : Map.of("label", labels.result(), "weight", weights.result());
      entries.add(new ShardEntry(name, sizes[s], Files.size(file),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), stats));
    }
    Map<String, String> recipe = new LinkedHashMap<>();
    recipe.put("spark_type.label", "INT");
    recipe.put("null_policy", "fail");
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        FIELDS.stream().map(ManifestField::of).toList(), entries, recipe, "spark-beton test").toJson());
    return dir;
  }

  @Test
  void describesTheDatasetFromItsManifest() throws Exception {
    Path dir = dataset(true);
    long bytes = 0;
    for (int s = 0; s < 3; s++) {
      bytes += Files.size(dir.resolve("part-0000" + s + ".beton"));
    }
    Cli.Result r = Cli.run("inspect", "--shards", "2", dir);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.outLines()).containsExactly(
        "dataset       " + dir,
        "written by    spark-beton test",
        "samples       9 in 3 shards (" + SizeArgs.human(bytes) + ")",
        "per shard     2 to 4 samples",
        "checksums     sha256 per shard",
        "",
        "#  name    type       dtype/shape  Spark type  stored min .. max",
        "0  label   Int (1)                 INT         0 .. 21",
        "1  weight  Float (0)               -           -1.0 .. 0.5, and NaN",
        "(Spark type: recorded by the write that made the column; '-': read as the field's own type)",
        "",
        "recipe",
        "  null_policy  fail",
        "",
        "shards",
        "  file              samples  bytes",
        String.format("  part-00000.beton        4  %5d", Files.size(dir.resolve("part-00000.beton"))),
        String.format("  part-00001.beton        3  %5d", Files.size(dir.resolve("part-00001.beton"))),
        "  ... 1 more shard (--shards N lists more; --json lists all)");
  }

  @Test
  void aCompactionsRecordIsOneLineAndItsShardsAreInTheJson() throws Exception {
    Path dir = dataset(true);
    DatasetManifest m = DatasetVerifier.manifest(dir);
    Map<String, String> recipe = new LinkedHashMap<>(m.recipe());
    recipe.put("compacted.0c0c0c0c", new org.sparkbeton.format.dataset.CompactionRecord("0c0c0c0c",
        1_800_000_000_000L, 1_800_003_600_000L, List.of("part-a.beton", "part-b.beton")).json());
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(m.fields(), m.shards(), recipe,
        m.createdBy()).toJson());

    assertThat(Cli.run("inspect", dir).outLines()).contains("  null_policy         fail",
        "  compacted.0c0c0c0c  2 shards replaced at 2027-01-15T08:00:00Z, kept until 2027-01-15T09:00:00Z");
    assertThat(Cli.run("inspect", "--json", dir).out()).contains("part-b.beton");
  }

  /**
   * The class names the manifest records as JSON text are a JSON array in --json (not a string holding JSON) and
   * names in the text (not JSON escapes).
   */
  @Test
  void classNamesAreAnArrayInJsonAndNamesInText() throws Exception {
    Path dir = dataset(true);
    DatasetManifest m = DatasetVerifier.manifest(dir);
    Map<String, String> recipe = new LinkedHashMap<>(m.recipe());
    recipe.put("class_names", "[\"cat\",\"dog\",\"zebra \\u00fc\"]");
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(m.fields(), m.shards(), recipe,
        m.createdBy()).toJson());

    assertThat(Cli.run("inspect", dir).outLines()).contains("  class_names  cat, dog, zebra \u00fc");
    assertThat(Cli.run("inspect", "--json", dir).out())
        .contains("\"recipe\": {\"null_policy\": \"fail\", \"class_names\": [\"cat\", \"dog\", \"zebra \\u00fc\"]}");
  }

  @Test
  void jsonListsEveryShardAndARangeOnlyWhereEveryShardHasStatistics() throws Exception {
    Path dir = dataset(false);
    Cli.Result r = Cli.run("inspect", "--json", dir);
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"samples\": 9", "\"checksums\": [\"sha256\"], \"page_checksums\": false",
        "{\"name\": \"label\", \"type_id\": 1, \"type\": \"Int\", \"detail\": \"\", \"spark_type\": \"INT\","
            + " \"min\": null, \"max\": null, \"has_nan\": false}",
        "\"recipe\": {\"null_policy\": \"fail\"}", "{\"path\": \"part-00002.beton\", \"samples\": 2, \"bytes\": ");
  }

  @Test
  void anUnreadableManifestSaysSoAndPointsToVerify() throws Exception {
    Path dir = dataset(true);
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), "{\"format\": \"beton-dataset\"");
    Cli.Result r = Cli.run("inspect", dir);
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains(DatasetManifest.FILE_NAME).contains("`beton verify " + dir + "` says more");
  }
}
