package org.sparkbeton.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code beton compact} is the Spark compaction job, which, as {@code prepare}, needs Spark on its class path:
 * {@code bin/beton} hands it to {@code bin/beton-prepare} with the compaction's main class before this jar starts.
 * Listed here so that {@code beton --help} shows it; run from the jar alone it says how to start the job.
 */
@Command(name = "compact", mixinStandardHelpOptions = true,
    description = {"Merge a dataset's runs of small shards in place, with Spark; streams reading it go on.",
        "",
        "Needs Spark on the class path, so it is not run from this jar: bin/beton compact",
        "hands over to bin/beton-prepare, and 'bin/beton compact --help' lists its options.",
        "On a cluster:",
        "  spark-submit --class " + CompactCommand.MAIN_CLASS,
        "      " + PrepareCommand.RUNTIME_JAR + " DATASET"})
final class CompactCommand implements Callable<Integer> {
  static final String MAIN_CLASS = "org.sparkbeton.spark.prepare.CompactJob";

  /** Whatever the job's arguments are: they belong to the job, not to this jar. */
  @Unmatched
  List<String> jobArguments;

  @Override
  public Integer call() {
    throw new CliException("compact runs with Spark on its class path, which this jar does not have: run it as"
        + " 'bin/beton compact', or spark-submit --class " + MAIN_CLASS + " " + PrepareCommand.RUNTIME_JAR);
  }
}
