package org.sparkbeton.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
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
        "DIR may be remote (hdfs://, s3a://, any Hadoop FileSystem URI): the same rules, its files listed and deleted"
            + " through Hadoop (-D, --hadoop-conf and $HADOOP_CONF_DIR configure it, as for inspect).",
        "Exit code 0, also when there is nothing to delete; 2 when DIR is not a directory or its manifest is"
            + " unreadable."})
final class GcCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The dataset directory, local or remote.")
  String target;

  @CommandLine.Mixin
  HadoopFlags hadoop;

  @Option(names = "--delete", description = "Delete the orphaned files (without it, they are only listed).")
  boolean delete;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Path local = LocalPathArgument.localPath(target);
    Orphans.Directory dir;
    Function<String, String> name;
    Orphans.Findings found;
    try {
      if (local != null) {
        hadoop.refuseFor(List.of(target));
        if (!Files.isDirectory(local)) {
          throw new CliException(local + ": not a directory" + (Files.exists(local) ? "" : " (no such directory)"));
        }
        dir = Orphans.local(local);
        name = p -> local.resolve(p).toString();
        found = Orphans.find(local);
      } else {
        RemoteDirectory remote = RemoteDirectory.open(target, hadoop);
        dir = remote;
        name = remote::name;
        found = Orphans.find(remote, remote::manifest);
      }
    } catch (IOException e) {
      throw new CliException(RemoteManifest.firstLine(e) + "; gc judges files against the manifest, so it deletes nothing");
    }
    PrintWriter out = spec.commandLine().getOut();
    for (Orphans.Orphan o : found.orphans()) {
      out.printf("%s (%s): %s%n", name.apply(o.path()), SizeArgs.human(o.bytes()), o.reason());
    }
    if (!found.replaced().isEmpty()) {
      out.printf("%s: %s a compaction replaced left alone for the readers that planned them (until its"
          + " keepReplacedFor has passed: %s)%n", target, Words.plural(found.replaced().size(), "shard"),
          java.time.Instant.ofEpochMilli(found.replacedKeptUntilMillis()));
    }
    if (!found.held().isEmpty()) {
      out.printf("%s: %s of running jobs left alone%n", target, Words.plural(found.held().size(), "file"));
    }
    long now = System.currentTimeMillis();
    found.liveJobs().forEach((job, beat) -> out.printf("%s: %s%n", target, Orphans.liveJob(job, beat, now)));
    String files = Words.plural(found.orphans().size(), "orphaned file") + ", " + SizeArgs.human(found.orphanBytes());
    if (found.orphans().isEmpty()) {
      out.printf("%s: no orphaned files%n", target);
    } else if (delete) {
      int deleted = Orphans.delete(dir, found);
      out.printf("%s: deleted %s%n", target, deleted == found.orphans().size() ? files
          : Words.plural(deleted, "orphaned file") + " of " + found.orphans().size() + " (the others were gone)");
    } else {
      out.printf("%s: %s; run `beton gc %s --delete` to delete them%n", target, files, target);
    }
    return BetonCli.OK;
  }
}
