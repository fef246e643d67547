package org.sparkbeton.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.sparkbeton.codec.format.FfcvPixels;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.Orphans;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.verify.VerifyReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "verify", mixinStandardHelpOptions = true,
    description = {"Check a file's structure, or a dataset directory against its manifest; exit 0 if sound, 1 if not.",
        "Checks every structural rule a reader relies on: header, descriptors, region bounds, whole"
        + " pages after the metadata, no allocation crossing a page, every metadata pointer equal to an allocation"
        + " entry of its sample exactly (with the size the field implies), every entry referenced once, JPEG frame"
        + " (SOF) sizes equal to the image metadata, every value decodable.",
        "A dataset directory (with _manifest.json): every shard it lists must exist with the size, checksum,"
        + " sample count and fields the manifest says, and pass the same structural checks; files it does not list"
        + " are not read, and those of jobs that died (orphans) are listed after the verdict: `beton gc DIR`"
        + " deletes them.",
        "A remote dataset directory (hdfs://, s3a://, any Hadoop FileSystem URI) is checked the same way, each listed"
        + " shard downloaded in turn to a temporary file (one at a time) and deleted after its check; orphans are"
        + " not looked for there. A remote .beton file is read in place.",
        "Exit code 0 when every file is sound; 1 when any has problems, including a file too damaged to open and a"
        + " manifest that does not parse or fails its own checksum; 2 when a path is missing or not readable, or a"
        + " local directory has no _manifest.json: such paths are refused before any input is checked."})
final class VerifyCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "The .beton files or dataset directories, local"
      + " or remote (a dataset directory on hdfs://, s3a://, any Hadoop FileSystem URI).")
  List<String> targets;

  @CommandLine.Mixin
  HadoopFlags hadoop;

  @Option(names = "--decode",
      description = "Also decode every JPEG in full (libjpeg-turbo when available, else the pure-Java decoder),"
          + " strictly: a JPEG libjpeg reports as corrupt (a warning such as 'Corrupt JPEG data: premature end of data"
          + " segment') fails, as one it cannot decode at all does. Slower: reads every payload.")
  boolean decode;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    List<Path> files = new ArrayList<>(); // the local ones; null for a remote one
    for (String target : targets) {
      files.add(LocalPathArgument.localPath(target));
    }
    if (!files.contains(null)) {
      hadoop.refuseFor(targets);
    }
    // paths that name nothing to check are refused before any work, so one typo does not cost a long run's result
    for (Path file : files) {
      if (file != null && Files.isDirectory(file)) {
        if (!Files.exists(file.resolve(DatasetManifest.FILE_NAME))) {
          throw Inputs.notADatasetDirectory(file, "verify");
        }
      } else if (file != null) {
        Inputs.requireReadableFile(file);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (decode) { // decoding on the Java path: say why and what it costs
      org.sparkbeton.codec.jpeg.JpegCodecs.javaFallbackWarning().ifPresent(spec.commandLine().getErr()::println);
    }
    boolean allOk = true;
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      if (file == null) {
        RemoteFile remote = RemoteFile.openIfFile(targets.get(i), hadoop);
        allOk &= remote == null ? verifyRemoteDataset(targets.get(i), out)
            : verify(targets.get(i), remote::reader, out);
      } else {
        allOk &= Files.isDirectory(file) ? verifyDataset(file, out) : verify(file.toString(), () -> Inputs.open(file),
            out);
      }
      out.flush();
    }
    return allOk ? BetonCli.OK : BetonCli.PROBLEMS;
  }

  private boolean verifyDataset(Path dir, PrintWriter out) throws Exception {
    DatasetManifest manifest;
    try {
      manifest = DatasetVerifier.manifest(dir);
    } catch (java.io.IOException e) {
      return manifestFailed(dir.toString(), e.getMessage(), out);
    }
    boolean ok = true;
    long jpegs = 0;
    try (FfcvPixels pixels = decode ? RgbMode.strict() : null) {
      for (DatasetVerifier.ShardResult r : DatasetVerifier.verify(dir, manifest)) {
        Path file = dir.resolve(r.shard().path());
        List<String> problems = new ArrayList<>();
        jpegs += addProblems(r, file, pixels, problems);
        ok &= reportShard(file.toString(), problems, out);
      }
    }
    printVerdict(dir.toString(), manifest, ok, jpegs, out);
    reportOrphans(dir, out);
    return ok;
  }

  /**
   * {@link #verifyDataset} of a remote dataset: each listed shard downloaded to one temporary file in turn, checked
   * as a local shard is, then deleted, so the disk holds one shard at a time.
   */
  /** A dataset whose manifest is malformed or was edited after it was written: damaged, as a .beton too damaged to open is. */
  private static boolean manifestFailed(String dataset, String why, PrintWriter out) {
    out.printf("%s: FAILED, its manifest cannot be read or trusted, so no shard was checked%n", dataset);
    out.println("  - " + why.replace('\n', ' '));
    return false;
  }

  private boolean verifyRemoteDataset(String target, PrintWriter out) throws Exception {
    RemoteManifest remote;
    try {
      remote = RemoteManifest.read(target, hadoop);
    } catch (RemoteManifest.Unreadable e) {
      return manifestFailed(target, e.getMessage(), out);
    }
    return verifyRemoteDataset(remote, out);
  }

  private boolean verifyRemoteDataset(RemoteManifest remote, PrintWriter out) throws Exception {
    DatasetManifest manifest = remote.manifest();
    boolean ok = true;
    long jpegs = 0;
    Path local = Files.createTempFile("beton-verify-", ".beton");
    try (FfcvPixels pixels = decode ? RgbMode.strict() : null) {
      for (ShardEntry shard : manifest.shards()) {
        List<String> problems = new ArrayList<>();
        boolean downloaded;
        try {
          downloaded = remote.download(shard.path(), local);
        } catch (IllegalArgumentException e) {
          problems.add(e.getMessage());
          downloaded = false;
        } catch (java.io.IOException e) {
          problems.add("cannot read it: " + RemoteManifest.firstLine(e));
          downloaded = false;
        }
        if (downloaded) {
          jpegs += addProblems(DatasetVerifier.verifyShardFile(local, manifest, shard), local, pixels, problems);
        } else if (problems.isEmpty()) {
          problems.add("missing: the manifest lists it, the directory has no such file");
        }
        String name = remote.shardName(shard.path());
        problems.replaceAll(p -> p.replace(local.toString(), name)); // the checks name the file they read
        ok &= reportShard(name, problems, out);
      }
    } finally {
      Files.deleteIfExists(local);
    }
    printVerdict(remote.arg(), manifest, ok, jpegs, out);
    return ok;
  }

  /**
   * Adds the problems of one listed shard, read from {@code file}, to {@code problems}: the manifest's checks, the
   * structure's and, with {@code --decode}, its JPEGs' (decoded with {@code pixels}); returns the JPEGs decoded.
   */
  private long addProblems(DatasetVerifier.ShardResult r, Path file, FfcvPixels pixels, List<String> problems)
      throws Exception {
    problems.addAll(r.problems());
    if (r.report() == null) {
      return 0;
    }
    problems.addAll(r.report().problems());
    return decode ? decodeShard(file, pixels, problems) : 0;
  }

  /** The dataset's verdict line: OK or FAILED, its shards and samples (the manifest's), the JPEGs decoded. */
  private void printVerdict(String name, DatasetManifest manifest, boolean ok, long jpegs, PrintWriter out) {
    long samples = manifest.shards().stream().mapToLong(ShardEntry::samples).sum();
    String summary = Words.plural(manifest.shards().size(), "shard") + ", " + Words.plural(samples, "sample")
        + (decode ? ", " + Words.plural(jpegs, "JPEG") + " decoded" : "");
    out.printf("%s: %s (%s)%n", name, ok ? "OK" : "FAILED", summary);
  }

  /** Prints a shard's problems under its name; true when it has none. */
  private static boolean reportShard(String name, List<String> problems, PrintWriter out) {
    if (problems.isEmpty()) {
      return true;
    }
    out.printf("%s: FAILED, %s%n", name, Words.plural(problems.size(), "problem"));
    for (String p : problems) {
      out.println("  - " + p);
    }
    return false;
  }

  /** Decodes every JPEG of one listed shard, adding what fails to {@code problems}; returns the JPEGs decoded. */
  private static long decodeShard(Path shard, FfcvPixels pixels, List<String> problems) throws Exception {
    try (BetonReader reader = BetonReader.open(shard)) {
      JpegDecodeCheck.Result d = JpegDecodeCheck.run(reader, pixels, BetonVerifier.MAX_LISTED);
      problems.addAll(d.problems());
      if (d.problemCount() > d.problems().size()) {
        problems.add("... and " + (d.problemCount() - d.problems().size()) + " more JPEGs that do not decode");
      }
      return d.decoded();
    }
  }

  /**
   * Files of jobs that died (no live job holds them, no manifest lists them): not part of the dataset, so not a
   * problem of it, but disk space to reclaim with {@code beton gc}.
   */
  private static void reportOrphans(Path dir, PrintWriter out) throws java.io.IOException {
    Orphans.Findings found = Orphans.find(dir);
    if (found.orphans().isEmpty()) {
      return;
    }
    out.printf("%s: %s of jobs that died (%s), not part of the dataset; `beton gc %s --delete` deletes them%n", dir,
        Words.plural(found.orphans().size(), "orphaned file"), SizeArgs.human(found.orphanBytes()), dir);
    found.orphans().stream().limit(BetonVerifier.MAX_LISTED).forEach(o -> out.printf("  - %s (%s): %s%n", o.path(),
        SizeArgs.human(o.bytes()), o.reason()));
    if (found.orphans().size() > BetonVerifier.MAX_LISTED) {
      out.printf("  ... and %d more%n", found.orphans().size() - BetonVerifier.MAX_LISTED);
    }
  }

  /** Opens the file to check: a local one, or a remote one read in place. */
  @FunctionalInterface
  private interface Opener {
    BetonReader open() throws java.io.IOException;
  }

  private boolean verify(String file, Opener opener, PrintWriter out) throws Exception {
    VerifyReport report;
    JpegDecodeCheck.Result decoded = null;
    try (BetonReader reader = opener.open()) {
      report = BetonVerifier.verify(reader);
      if (decode) {
        try (FfcvPixels pixels = RgbMode.strict()) {
          decoded = JpegDecodeCheck.run(reader, pixels, BetonVerifier.MAX_LISTED);
        }
      }
    } catch (BetonFormatException e) {
      // the file cannot even be opened: that is a verification finding, not a usage error
      out.println(file + ": FAILED, 1 problem");
      out.println("  - " + e.getMessage());
      return false;
    }
    long problems = report.problemCount() + (decoded == null ? 0 : decoded.problemCount());
    String summary = Words.plural(report.samples(), "sample") + ", " + Words.plural(report.allocations(), "allocation")
        + ", " + Words.plural(report.pages(), "page")
        + (decoded == null ? "" : ", " + Words.plural(decoded.decoded(), "JPEG") + " decoded");
    if (problems == 0) {
      out.printf("%s: OK (%s)%n", file, summary);
      return true;
    }
    out.printf("%s: FAILED, %s (%s)%n", file, Words.plural(problems, "problem"), summary);
    for (String p : report.problems()) {
      out.println("  - " + p);
    }
    if (report.problemCount() > report.problems().size()) {
      out.printf("  ... and %d more%n", report.problemCount() - report.problems().size());
    }
    if (decoded != null) {
      for (String p : decoded.problems()) {
        out.println("  - " + p);
      }
      if (decoded.problemCount() > decoded.problems().size()) {
        out.printf("  ... and %d more JPEGs that do not decode%n", decoded.problemCount() - decoded.problems().size());
      }
    }
    return false;
  }
}
