package org.sparkbeton.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sparkbeton.format.dataset.Orphans;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "gc", mixinStandardHelpOptions = true,
    description = {"List the files of jobs that died in a dataset directory; --delete removes them.",
        "A Spark write that was killed, or whose driver was lost, leaves files behind: shards no manifest lists,"
            + " quarantine records of a job that never published, its job marker, a manifest left half published, a"
            + " stale manifest lock. A running write keeps a marker (_job-<job>.live) that it rewrites every 30 s:"
            + " its files are left alone, and a job whose marker was not rewritten for 10 minutes is taken for dead."
            + " A file whose name is not one a write makes is never touched. The next successful write to the"
            + " dataset deletes the same files.",
        "Exit code 0, also when there is nothing to delete; 2 when DIR is not a directory or its manifest is"
            + " unreadable."})
final class GcCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The dataset directory.")
  Path dir;

  @Option(names = "--delete", description = "Delete the orphaned files (without it, they are only listed).")
  boolean delete;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(dir)) {
      throw new CliException(dir + ": not a directory" + (Files.exists(dir) ? "" : " (no such directory)"));
    }
    Orphans.Findings found;
    try {
      found = Orphans.find(dir);
    } catch (IOException e) {
      throw new CliException(e.getMessage() + "; gc judges files against the manifest, so it deletes nothing");
    }
    PrintWriter out = spec.commandLine().getOut();
    for (Orphans.Orphan o : found.orphans()) {
      out.printf("%s (%s): %s%n", dir.resolve(o.path()), SizeArgs.human(o.bytes()), o.reason());
    }
    if (!found.held().isEmpty()) {
      out.printf("%s: %s of running jobs left alone%n", dir, Words.plural(found.held().size(), "file"));
    }
    String files = Words.plural(found.orphans().size(), "orphaned file") + ", " + SizeArgs.human(found.orphanBytes());
    if (found.orphans().isEmpty()) {
      out.printf("%s: no orphaned files%n", dir);
    } else if (delete) {
      int deleted = Orphans.delete(dir, found);
      out.printf("%s: deleted %s%n", dir, deleted == found.orphans().size() ? files
          : Words.plural(deleted, "orphaned file") + " of " + found.orphans().size() + " (the others were gone)");
    } else {
      out.printf("%s: %s; run `beton gc %s --delete` to delete them%n", dir, files, dir);
    }
    return BetonCli.OK;
  }
}
