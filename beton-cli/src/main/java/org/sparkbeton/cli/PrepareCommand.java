package org.sparkbeton.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code beton prepare} is the Spark dataset preparation job, which needs Spark on its class path and so is not
 * in this jar: {@code bin/beton} hands {@code prepare} to {@code bin/beton-prepare} before this jar starts. The
 * command is listed here so that {@code beton --help} shows every command; run from the jar alone it says how to
 * start the job.
 */
@Command(name = "prepare", mixinStandardHelpOptions = true,
    description = {"Prepare a sharded .beton dataset from an ImageFolder tree with Spark.",
        "",
        "Decodes, resizes and re-encodes every image on Spark executors and writes",
        "attempt-unique shards plus a _manifest.json. Needs Spark on the class path,",
        "so it is not run from this jar: bin/beton prepare hands over to",
        "bin/beton-prepare, and 'bin/beton prepare --help' lists the job's options.",
        "On a cluster:",
        "  spark-submit --class " + PrepareCommand.MAIN_CLASS,
        "      " + PrepareCommand.RUNTIME_JAR + " --input DIR --output URI"})
final class PrepareCommand implements Callable<Integer> {
  static final String MAIN_CLASS = "org.sparkbeton.spark.prepare.PrepareJob";
  /** The jar users submit: the Spark runtime jar, named the way README.md's "Install and deploy" names it. */
  static final String RUNTIME_JAR = "spark-beton-runtime-3.5_2.12-<version>.jar";

  /** Whatever the job's options are: they belong to bin/beton-prepare, not to this jar. */
  @Unmatched
  List<String> jobArguments;

  @Override
  public Integer call() {
    throw new CliException("prepare runs with Spark on its class path, which this jar does not have: run it as"
        + " 'bin/beton prepare' (or bin/beton-prepare), or spark-submit --class " + MAIN_CLASS + " " + RUNTIME_JAR);
  }
}
