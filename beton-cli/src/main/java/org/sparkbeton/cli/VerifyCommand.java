package org.sparkbeton.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
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
        + " (orphans of failed attempts) are not read.",
        "Exit code 0 when every file is sound; 1 when any has problems, including a file too damaged to open;"
        + " 2 when a file is missing or not readable."})
final class VerifyCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "The .beton files or dataset directories.")
  List<Path> files;

  @Option(names = "--decode",
      description = "Also decode every JPEG in full (libjpeg-turbo when available, else the pure-Java decoder) and"
          + " report the ones that fail. Slower: reads every payload.")
  boolean decode;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    for (Path file : files) {
      if (!Files.isDirectory(file)) {
        Inputs.requireReadableFile(file);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (decode) { // decoding on the Java path: say why and what it costs
      org.sparkbeton.codec.jpeg.JpegCodecs.javaFallbackWarning().ifPresent(spec.commandLine().getErr()::println);
    }
    boolean allOk = true;
    for (Path file : files) {
      allOk &= Files.isDirectory(file) ? verifyDataset(file, out) : verify(file, out);
      out.flush();
    }
    return allOk ? BetonCli.OK : BetonCli.PROBLEMS;
  }

  private boolean verifyDataset(Path dir, PrintWriter out) throws Exception {
    DatasetManifest manifest;
    try {
      manifest = DatasetVerifier.manifest(dir);
    } catch (java.io.IOException e) {
      throw new CliException(e.getMessage());
    }
    boolean ok = true;
    long samples = 0;
    for (DatasetVerifier.ShardResult r : DatasetVerifier.verify(dir, manifest)) {
      samples += r.shard().samples();
      if (r.ok()) {
        continue;
      }
      ok = false;
      List<String> problems = new java.util.ArrayList<>(r.problems());
      if (r.report() != null) {
        problems.addAll(r.report().problems());
      }
      out.printf("%s: FAILED, %s%n", dir.resolve(r.shard().path()), Words.plural(problems.size(), "problem"));
      for (String p : problems) {
        out.println("  - " + p);
      }
    }
    String summary = Words.plural(manifest.shards().size(), "shard") + ", " + samples + " samples";
    out.printf("%s: %s (%s)%n", dir, ok ? "OK" : "FAILED", summary);
    return ok;
  }

  private boolean verify(Path file, PrintWriter out) throws Exception {
    VerifyReport report;
    JpegDecodeCheck.Result decoded = null;
    try (BetonReader reader = Inputs.open(file)) {
      report = BetonVerifier.verify(reader);
      if (decode) {
        try (JpegPixels pixels = JpegPixels.best()) {
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
    String summary = report.samples() + " samples, " + report.allocations() + " allocations, "
        + Words.plural(report.pages(), "page") + (decoded == null ? "" : ", " + decoded.decoded() + " JPEGs decoded");
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
