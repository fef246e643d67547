package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.loader.hadoop.testing.MiniHdfs;
import org.sparkbeton.loader.store.ShardCache;
import org.sparkbeton.loader.testing.PhotoFiles;

/**
 * {@code beton doctor} and {@code beton bench} on a real HDFS (MiniDFSCluster, one datanode, in this JVM) through
 * loader-hadoop's store with the default Hadoop configuration: a dataset directory of 6 shards of real photos.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HdfsDoctorTest {
  static final int SHARDS = 6;
  static final int PER_SHARD = 24;
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path tmp;
  static MiniDFSCluster hdfs;
  static String uri;
  static long datasetBytes;
  static long shardBytes;
  static String largest;
  static Path local;

  @BeforeAll
  static void setUp() throws Exception {
    assumeTrue(HadoopJavaSupport.refusal().isEmpty(), () -> HadoopJavaSupport.refusal().get());
    hdfs = MiniHdfs.start(tmp.resolve("hdfs"));
    Path dir = Files.createDirectories(tmp.resolve("dataset"));
    List<ShardEntry> entries = new ArrayList<>();
    Path photos = null;
    for (int i = 0; i < SHARDS; i++) { // other photos in each shard: the cache keeps one copy of equal shards
      String name = String.format("part-%05d", i);
      Path shard = PhotoFiles.write(dir, name, PER_SHARD, 10 + i);
      photos = shard;
      entries.add(new ShardEntry(name + ".beton", PER_SHARD, Files.size(shard),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(shard, ShardChecksum.SHA256)), Map.of()));
      datasetBytes += Files.size(shard);
      if (Files.size(shard) > shardBytes) {
        shardBytes = Files.size(shard);
        largest = name + ".beton";
      }
    }
    List<ManifestField> fields;
    try (BetonReader r = BetonReader.open(photos)) {
      fields = r.fields().stream().map(ManifestField::of).toList();
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME),
        new DatasetManifest(fields, entries, Map.of(), "test").toJson());
    uri = MiniHdfs.upload(hdfs, dir, "/datasets/photos");
    local = dir;
  }

  @AfterAll
  static void tearDown() {
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  static JsonNode doctor(Object... args) throws IOException {
    List<Object> argv = new ArrayList<>(List.of("doctor", uri, "--json", "--seconds", 2, "--sample", 16, "--threads",
        1, "--batch", 8));
    argv.addAll(List.of(args));
    Cli.Result r = Cli.run(argv.toArray());
    assertThat(r.err()).as("stderr").isEmpty();
    assertThat(r.exitCode()).isZero();
    return JSON.readTree(r.out());
  }

  static List<String> ids(JsonNode changes) {
    List<String> out = new ArrayList<>();
    changes.forEach(c -> out.add(c.get("id").asText()));
    return out;
  }

  static Set<String> cacheFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".beton"))
          .collect(Collectors.toSet());
    }
  }

  /**
   * {@code beton inspect} of the dataset where it lies on HDFS: its manifest read through Hadoop, shown as the local
   * copy's is (text and JSON), no shard read; what is not a dataset directory is named for what it is.
   */
  @Test
  void inspectShowsARemoteDatasetFromItsManifest() throws IOException {
    for (List<String> format : List.of(List.<String>of(), List.of("--json"))) {
      Cli.Result there = Cli.run(concat(List.of("inspect", uri), format));
      Cli.Result here = Cli.run(concat(List.of("inspect", local.toString()), format));
      assertThat(there.exitCode()).as("stderr: %s", there.err()).isZero();
      assertThat(there.err()).isEmpty();
      assertThat(there.out()).contains(uri).isEqualTo(here.out().replace(local.toString(), uri));
    }

    hdfs.getFileSystem().mkdirs(new org.apache.hadoop.fs.Path("/datasets/empty"));
    String empty = uri.replace("/datasets/photos", "/datasets/empty");
    assertThat(Cli.run("inspect", empty).errLines()).containsExactly("beton: " + empty + " has no _manifest.json:"
        + " not a dataset directory (nothing was written there, or only a write that failed)");
    String missing = uri.replace("/datasets/photos", "/datasets/missing");
    assertThat(Cli.run("inspect", missing).errLines()).containsExactly("beton: " + missing
        + ": no such file or directory");
    assertThat(Cli.run("inspect", local.toString(), "-D", "fs.defaultFS=" + uri).errLines())
        .containsExactly("beton: -D: for remote datasets (hdfs://, s3a://, ...); " + local + " is read in place");
    assertThat(Cli.run("verify", local.toString(), local.toString(), "--hadoop-conf", "core-site.xml").errLines())
        .containsExactly("beton: --hadoop-conf: for remote datasets (hdfs://, s3a://, ...); " + local + ", " + local
            + " are read in place");
  }

  /**
   * A {@code .beton} file on HDFS read in place: {@code inspect}, {@code verify} (with {@code --decode}) and {@code
   * dump} print what they print of a local copy; a directory given to {@code dump} is named for what it is.
   */
  @Test
  void inspectVerifyAndDumpReadARemoteFileInPlace() throws IOException {
    String shard = uri + "/part-00003.beton";
    Path copy = local.resolve("part-00003.beton");
    for (List<String> command : List.of(List.of("inspect"), List.of("inspect", "--json"), List.of("verify",
        "--decode"), List.of("dump", "--from", "5", "--count", "3"))) {
      Cli.Result there = Cli.run(concat(command, List.of(shard)));
      Cli.Result here = Cli.run(concat(command, List.of(copy.toString())));
      assertThat(there.exitCode()).as("%s: %s", command, there.err()).isZero();
      assertThat(there.out()).as("%s", command).isNotEmpty()
          .isEqualTo(here.out().replace(copy.toString(), shard));
    }
    assertThat(Cli.run("verify", shard).outLines()).singleElement().asString().startsWith(shard + ": OK ("
        + PER_SHARD + " samples, ");
    assertThat(Cli.run("dump", "--count", "1", "--rgb", "none", shard).outLines()).hasSize(1);
    DoctorErrorsTest.fails(Cli.run("dump", uri), "beton: " + uri + ": is a directory, expected a .beton file (of a"
        + " dataset, name one of its shards; `beton inspect " + uri + "` lists them)", false);
    String missing = uri + "/part-00099.beton";
    DoctorErrorsTest.fails(Cli.run("dump", missing), "beton: " + missing + ": no such file or directory", false);
  }

  /**
   * {@code beton verify} of the dataset on HDFS: each listed shard downloaded in turn and checked as a local one is;
   * a shard changed in the store and one missing there are named with what is wrong, and the exit code says so.
   */
  @Test
  void verifyChecksARemoteDatasetShardByShard() throws IOException {
    Cli.Result sound = Cli.run("verify", uri);
    assertThat(sound.exitCode()).as("stderr: %s", sound.err()).isZero();
    assertThat(sound.outLines()).containsExactly(uri + ": OK (6 shards, " + SHARDS * PER_SHARD + " samples)");

    Path damaged = Files.createDirectories(tmp.resolve("damaged"));
    try (Stream<Path> files = Files.list(local)) {
      for (Path f : files.toList()) {
        Files.copy(f, damaged.resolve(f.getFileName()));
      }
    }
    byte[] bytes = Files.readAllBytes(damaged.resolve("part-00001.beton"));
    bytes[bytes.length - 100] ^= 0x40; // inside the last page: the checksum differs, the structure holds
    Files.write(damaged.resolve("part-00001.beton"), bytes);
    Files.delete(damaged.resolve("part-00002.beton"));
    String there = MiniHdfs.upload(hdfs, damaged, "/datasets/damaged");

    Cli.Result r = Cli.run("verify", there);
    Cli.Result here = Cli.run("verify", damaged.toString());
    assertThat(r.exitCode()).isEqualTo(1).isEqualTo(here.exitCode());
    assertThat(r.outLines()).isEqualTo(here.out().replace(damaged.toString(), there).lines().toList())
        .contains(there + "/part-00002.beton: FAILED, 1 problem",
            "  - missing: the manifest lists it, the directory has no such file",
            there + ": FAILED (6 shards, " + SHARDS * PER_SHARD + " samples)");
    assertThat(r.outLines().get(0)).startsWith(there + "/part-00001.beton: FAILED, ");
    assertThat(r.outLines()).anyMatch(line -> line.startsWith("  - sha256 is "));

    // a manifest edited after it was written fails its dataset, as a local one does, and the next input is checked
    Path edited = Files.createDirectories(tmp.resolve("edited"));
    try (Stream<Path> files = Files.list(local)) {
      for (Path f : files.toList()) {
        Files.copy(f, edited.resolve(f.getFileName()));
      }
    }
    Path manifest = edited.resolve("_manifest.json");
    Files.writeString(manifest, Files.readString(manifest).replaceFirst("\"samples\": ?" + PER_SHARD,
        "\"samples\": " + (PER_SHARD - 1)));
    String editedThere = MiniHdfs.upload(hdfs, edited, "/datasets/edited");
    Cli.Result both = Cli.run("verify", editedThere, uri);
    Cli.Result editedHere = Cli.run("verify", edited.toString());
    assertThat(both.exitCode()).as("stderr: %s", both.err()).isEqualTo(1).isEqualTo(editedHere.exitCode());
    assertThat(both.outLines()).startsWith(editedThere + ": FAILED, its manifest cannot be read or trusted, so no"
        + " shard was checked").endsWith(uri + ": OK (6 shards, " + SHARDS * PER_SHARD + " samples)");
    assertThat(both.outLines().get(1)).startsWith("  - ").contains("edited or damaged after it was written");
  }

  /**
   * {@code beton gc} on a dataset directory where it lies on HDFS: the same files listed, for the same reasons, as in
   * a local copy with the same modification times; {@code --delete} leaves the dataset, the running job's files and
   * the user's.
   */
  @Test
  void gcFindsAndDeletesTheFilesOfDeadJobsOnHdfsAsInALocalCopy() throws Exception {
    Path here = GcCommandTest.dataset(Files.createDirectories(tmp.resolve("gc")));
    String there = MiniHdfs.upload(hdfs, here, "/datasets/gc");
    org.apache.hadoop.fs.FileSystem fs = hdfs.getFileSystem();
    try (Stream<Path> files = Files.walk(here)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        fs.setTimes(new org.apache.hadoop.fs.Path(there + "/" + here.relativize(f)),
            Files.getLastModifiedTime(f).toMillis(), -1);
      }
    }

    Cli.Result listed = Cli.run("gc", there);
    assertThat(listed.exitCode()).as(listed.err()).isZero();
    assertThat(GcCommandTest.liveJobs(listed.outLines())).hasSize(1); // its times differ from the local copy's
    assertThat(GcCommandTest.withoutLiveJobs(listed.outLines())).isEqualTo(GcCommandTest.withoutLiveJobs(
        Cli.run("gc", here).out().replace(here.toString(), there).lines().toList()))
        .hasSize(5).contains(there + ": 3 orphaned files, 42.0 MiB; run `beton gc " + there + " --delete` to delete"
            + " them");

    Cli.Result deleted = Cli.run("gc", there, "--delete");
    assertThat(deleted.outLines()).last().isEqualTo(there + ": deleted 3 orphaned files, 42.0 MiB");
    List<String> left = new ArrayList<>();
    var it = fs.listFiles(new org.apache.hadoop.fs.Path(there), true);
    while (it.hasNext()) {
      left.add(it.next().getPath().toString().substring(there.length() + 1));
    }
    assertThat(left).containsExactlyInAnyOrder("_job-2badc0de.live", DatasetManifest.FILE_NAME, "notes.txt",
        "part-00000-aaaaaaaa-a0-000.beton", "part-00003-2badc0de-a0-000.beton");
    assertThat(fs.exists(new org.apache.hadoop.fs.Path(there + "/_quarantine"))).isFalse();
    assertThat(GcCommandTest.withoutLiveJobs(Cli.run("gc", there).outLines())).containsExactly(there
        + ": 2 files of running jobs left alone",
        there + ": no orphaned files");

    DoctorErrorsTest.fails(Cli.run("gc", there + "/notes.txt"), "beton: " + there + "/notes.txt: not a directory",
        false);
    DoctorErrorsTest.fails(Cli.run("gc", there + "-none"), "beton: " + there + "-none: no such file or directory",
        false);
    DoctorErrorsTest.fails(Cli.run("gc", here.toString(), "-D", "a=b"), "beton: -D: for remote datasets (hdfs://,"
        + " s3a://, ...); " + here + " is read in place", false);
  }

  private static Object[] concat(List<String> a, List<String> b) {
    List<Object> all = new ArrayList<>(a);
    all.addAll(b);
    return all.toArray();
  }

  @Test
  void aCacheThatHoldsTheDatasetDownloadsItOnceAndStagingOutrunsDecoding() throws IOException {
    Path cache = tmp.resolve("cache-fits");
    JsonNode d = doctor("--cache-dir", cache);

    JsonNode remote = d.at("/measured/remote");
    assertThat(remote.get("uri").asText()).isEqualTo(uri);
    assertThat(remote.get("dataset_bytes").asLong()).isEqualTo(datasetBytes);
    assertThat(remote.get("cache_bytes").asLong()).as("default: the cache disk's allowance, for every dataset sharing"
        + " the directory, not this dataset's size").isGreaterThan(datasetBytes)
        .isCloseTo(ShardCache.defaultBudget(cache), withinPercentage(1));
    assertThat(remote.get("fits").asBoolean()).isTrue();
    assertThat(remote.get("downloads").asInt()).isEqualTo(4);
    assertThat(remote.get("more_downloads").asInt()).isEqualTo(8);
    double bytesPerSecond = remote.get("bytes_per_second").asDouble();
    assertThat(bytesPerSecond).as("the store's streamed reads").isPositive();
    assertThat(remote.get("more_bytes_per_second").asDouble()).isPositive();
    assertThat(remote.get("staging_per_second").asDouble()).as("bytes/s over the shards' bytes per sample")
        .isCloseTo(bytesPerSecond / ((double) datasetBytes / (SHARDS * PER_SHARD)),
            org.assertj.core.data.Percentage.withPercentage(0.01));
    assertThat(remote.at("/staged/downloaded").asInt()).as("the end-to-end run staged every shard once")
        .isEqualTo(SHARDS);
    assertThat(remote.at("/staged/fetched_bytes").asLong()).isEqualTo(datasetBytes);
    assertThat(remote.at("/staged/cached").asInt()).as("later epochs stage from the cache").isNotNegative();
    assertThat(cacheFiles(cache)).hasSize(SHARDS);

    assertThat(d.at("/dataset/files").asInt()).isEqualTo(SHARDS);
    assertThat(d.at("/dataset/samples").asInt()).isEqualTo(SHARDS * PER_SHARD);
    assertThat(d.at("/dataset/file_system").asText()).isEqualTo("hdfs://" + URI.create(uri).getAuthority());
    assertThat(d.at("/measured/storage/method").asText())
        .isEqualTo("streamed reads of the store, 4 downloads at once (as the loader downloads shards)");
    assertThat(d.at("/measured/reads/steady_limit").isNull()).as("the cache holds it: no steady downloads").isTrue();
    assertThat(d.at("/measured/reads/first_epoch_limit").asDouble())
        .isEqualTo(remote.get("staging_per_second").asDouble());
    assertThat(d.at("/measured/end_to_end/images").asLong()).isPositive();
    assertThat(d.at("/bound/resource").asText()).isEqualTo("decode");
    assertThat(ids(d.get("changes"))).doesNotContain("cache_bytes", "more_downloads", "local_copy");
    // the first epoch: storage is not the bottleneck when staging outruns what the CPUs deliver (HDFS in this JVM
    // on a loaded machine can go either way, so the test follows the measured figures)
    String first = d.get("not_worth_changing").get(0).asText();
    if (remote.get("staging_per_second").asDouble() >= d.at("/measured/pipeline_per_second").asDouble()) {
      assertThat(first).startsWith("storage is not your bottleneck: staging feeds ").contains(" with 4 downloads), ")
          .endsWith(" the CPUs deliver, so even the first epoch (a cold cache) does not wait for downloads");
    } else {
      assertThat(first).startsWith("the first epoch (a cold cache) waits for downloads: staging feeds ")
          .contains(" with 4 downloads) of the ").contains("; 8 downloads read ")
          .endsWith(" (--downloads 8, .downloads(8)), a local copy needs none; later epochs read the cache");
    }

    // a second run finds every shard in the cache
    JsonNode again = doctor("--cache-dir", cache);
    assertThat(again.at("/measured/remote/staged/downloaded").asInt()).isZero();
    assertThat(again.at("/measured/remote/staged/cached").asInt()).as("each shard at least once")
        .isGreaterThanOrEqualTo(SHARDS);
  }

  @Test
  void aCacheSmallerThanTheDatasetDownloadsTheRestEachEpochAndTheRemediesSaySo() throws IOException {
    long budget = 3 * shardBytes;
    JsonNode d = doctor("--cache-bytes", budget, "--downloads", 2, "--consumer-rate", 1_000_000);

    JsonNode remote = d.at("/measured/remote");
    assertThat(remote.get("cache_bytes").asLong()).isEqualTo(budget);
    assertThat(remote.get("fits").asBoolean()).isFalse();
    assertThat(remote.get("downloads").asInt()).isEqualTo(2);
    assertThat(remote.get("more_downloads").asInt()).isEqualTo(4);
    double miss = 1 - (double) budget / datasetBytes;
    assertThat(d.at("/measured/reads/miss_fraction").asDouble()).as("the share that does not fit")
        .isCloseTo(miss, org.assertj.core.data.Offset.offset(1e-5));
    double staging = remote.get("staging_per_second").asDouble();
    assertThat(d.at("/measured/reads/steady_limit").asDouble()).isCloseTo(staging / miss,
        org.assertj.core.data.Percentage.withPercentage(0.01));
    assertThat(d.at("/measured/reads/description").asText()).matches("[0-9.]+% of the shards downloaded again each"
        + " epoch: the dataset \\(.*");
    assertThat(remote.at("/staged/downloaded").asInt()).as("a window of 1 shard, staged as the epoch goes")
        .isPositive();

    // storage is far from the bound here, so the remedies are listed as not worth it, each with its evidence
    List<String> all = new ArrayList<>();
    d.get("changes").forEach(c -> all.add(c.get("what").asText() + ": " + c.get("evidence").asText()));
    d.get("not_worth_changing").forEach(n -> all.add(n.asText()));
    assertThat(all).anySatisfy(n -> assertThat(n).startsWith("a shard cache that holds the dataset (")
        .containsPattern("shards downloaded in the first epoch only instead of [0-9.]+% of them each epoch"));
    assertThat(all).anySatisfy(n -> assertThat(n).startsWith("4 downloads at once instead of 2")
        .contains(" with 2 downloads and ").contains(" with 4, measured"));
    assertThat(all).anySatisfy(n -> assertThat(n).startsWith("a local copy of the dataset (")
        .contains("the loader reads a local copy in place: no downloads"));
  }

  @Test
  void theTextReportShowsTheStoreAndTheCacheAndTheTemporaryCacheIsDeleted() throws IOException {
    Path tmpdir = Path.of(System.getProperty("java.io.tmpdir"));
    Set<String> before = temporaryCaches(tmpdir);
    Cli.Result r = Cli.run("doctor", uri, "--seconds", 1, "--sample", 8, "--threads", 1, "--batch", 8);

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("beton doctor: " + uri + " (6 files of ")
        .contains(" MiB, 144 samples, 6 pages of 2 MiB on hdfs://" + URI.create(uri).getAuthority() + ")\n")
        .containsPattern("\n  storage     [0-9.]+ [kMG]?B/s with 4 downloads at once, [0-9.]+ [kMG]?B/s with 8 \\(")
        .containsPattern("\n  cache       [0-9.]+ [KMG]iB in .*beton-shard-cache-[^ ]* for the dataset's ")
        .contains("; staging 6 shards downloaded (")
        .containsPattern("\nnot worth changing\n  - (storage is not your bottleneck|the first epoch \\(a cold"
            + " cache\\) waits for downloads): staging feeds ");
    // the shards' bytes as the readers found them, and as the manifest gives them to the shard cache
    Matcher size = Pattern.compile("\\(6 files of ([0-9.]+ MiB), ").matcher(r.out());
    assertThat(size.find()).isTrue();
    assertThat(r.out()).contains(" for the dataset's " + size.group(1) + " (");
    assertThat(temporaryCaches(tmpdir)).as("the temporary shard cache is deleted").isEqualTo(before);
  }

  static Set<String> temporaryCaches(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("beton-shard-cache-"))
          .collect(Collectors.toSet());
    }
  }

  @Test
  void benchPrintsItsTableWithTheStaging() throws IOException {
    Path cache = tmp.resolve("cache-bench");
    Cli.Result r = Cli.run("bench", uri, "--epochs", 2, "--samples", 0, "--batch", 8, "--threads", 1,
        "--pipeline", "center224", "--cache-dir", cache);

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).startsWith("beton bench: " + uri + " (144 of 144 samples per epoch, 100% JPEG")
        .contains("\nstaging shard cache ")
        .contains(" in " + cache + " for the dataset's ")
        .contains(", 4 downloads at once: 6 shards downloaded (")
        .containsPattern("\\), [0-9]+ stagings? served by the cache\n")
        .contains("\n| epoch 1 (building the loader included) | ")
        .contains("\n| epoch 2, median | ");
    assertThat(cacheFiles(cache)).hasSize(SHARDS);

    Cli.Result json = Cli.run("bench", uri, "--json", "--epochs", 2, "--samples", 32, "--batch", 8, "--threads", 1,
        "--cache-dir", cache);
    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode b = JSON.readTree(json.out());
    assertThat(b.get("epochs")).hasSize(2);
    b.get("epochs").forEach(e -> assertThat(e.get("images").asInt()).isEqualTo(32));
    assertThat(b.at("/staged/downloaded").asInt()).as("all in the cache from the run before").isZero();
    assertThat(b.at("/staged/cached").asInt()).isPositive();
  }

  @Test
  void unreadableRemoteDatasetsAreOneLine() {
    String missing = uri.replace("/datasets/photos", "/datasets/none");
    DoctorErrorsTest.fails(Cli.run("doctor", missing), "beton: " + missing + " has no _manifest.json: not a dataset"
        + " directory", false);
    DoctorErrorsTest.fails(Cli.run("bench", missing), "beton: " + missing + " has no _manifest.json: not a dataset"
        + " directory", false);

    Cli.Result down = Cli.run("doctor", "hdfs://localhost:1/datasets/photos", "-D", "ipc.client.connect.max.retries=0");
    assertThat(down.exitCode()).isEqualTo(2);
    assertThat(down.errLines()).as(down.err()).hasSize(1);
    assertThat(down.errLines().get(0)).startsWith("beton: hdfs://localhost:1/datasets/photos: cannot read the"
        + " dataset: ").contains("Connection refused");

    DoctorErrorsTest.fails(Cli.run("doctor", "hdfs://bad host/x"), "beton: hdfs://bad host/x: not a valid URI"
        + " (Illegal character in authority at index 7: hdfs://bad host/x)", false);
    for (String command : List.of("doctor", "bench")) {
      DoctorErrorsTest.fails(Cli.run(command, uri, "--cache-bytes", 100), "beton: --cache-bytes 100 cannot hold shard"
          + " " + largest + " of " + uri + " (" + shardBytes + " bytes); give at least " + shardBytes + ", the largest"
          + " shard (about three shards let one download while two are read)", false);
    }
  }
}
