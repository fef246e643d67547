package org.sparkbeton.spark.prepare;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.format.Counts;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.spark.write.BetonCompaction;
import org.sparkbeton.spark.write.Causes;

/**
 * {@link BetonCompaction} as a job to submit, the runtime jar being the application:
 * {@code spark-submit --class org.sparkbeton.spark.prepare.CompactJob $JAR $DATASET [--target-shard-size 256M]
 * [--keep-replaced-for 12h] [--dry-run]}. Prints one line saying what it merged (with {@code --dry-run}, what it
 * would merge, changing nothing); a bad argument or a path without a dataset is one line and exit code 2.
 */
public final class CompactJob {
  static final String USAGE = String.join("\n",
      "usage: beton compact DATASET [--target-shard-size SIZE] [--keep-replaced-for DURATION] [--dry-run]",
      "       spark-submit --class " + CompactJob.class.getName() + " <runtime jar> DATASET [...]",
      "Merges the dataset's runs of small shards in place (BetonCompaction); streams reading it go on.",
      "  --target-shard-size SIZE      merged shards stay within it (default 1G)",
      "  --keep-replaced-for DURATION  the shards replaced stay this long for reads planned before (default 1h;"
          + " 0s: deleted at once)",
      "  --dry-run                     say what it would merge, reading only the manifest; change nothing",
      "Without spark-submit it runs on local[*].");

  private CompactJob() {}

  public static void main(String[] args) {
    System.exit(OutputCheck.exitCode("beton-compact", run(args, System.out, System.err), System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    String path = null;
    boolean dryRun = false;
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("-h") || flag.equals("--help")) {
        out.println(USAGE);
        return 0;
      }
      if (flag.equals("--dry-run")) {
        dryRun = true;
        continue;
      }
      String option = switch (flag) {
        case "--target-shard-size" -> BetonCompaction.TARGET_SHARD_SIZE;
        case "--keep-replaced-for" -> BetonCompaction.KEEP_REPLACED_FOR;
        default -> null;
      };
      if (option != null && i + 1 < args.length) {
        String value = args[++i];
        if (option.equals(BetonCompaction.KEEP_REPLACED_FOR) && value.trim().startsWith("-")) {
          // Spark's duration parser takes "-1h", and a negative time to keep is the past: the replaced shards were
          // deleted at once, under reads planned before the compaction
          err.println("beton-compact: " + flag + " must not be negative: how long the replaced shards stay (90s, 30m,"
              + " 12h, 7d; 0s deletes them at once), got '" + value + "'");
          return 2;
        }
        options.put(option, value);
      } else if (option != null || flag.startsWith("-") || path != null) {
        err.println("beton-compact: " + (option != null ? flag + " needs a value" : "unexpected argument " + flag));
        err.println(USAGE);
        return 2;
      } else {
        path = flag;
      }
    }
    if (path == null) {
      err.println(USAGE);
      return 2;
    }
    if (HadoopJavaSupport.refusal().isPresent()) {
      err.println("beton-compact: Spark 3.5 cannot start on this Java: " + HadoopJavaSupport.refusal().get());
      return 2;
    }
    ProcessEnding.watch();
    SparkSession.Builder builder = SparkSession.builder().appName("beton-compact").config(PrepareJob.KRYO_REGISTRATOR,
        PrepareJob.withOurRegistrator(System.getProperty(PrepareJob.KRYO_REGISTRATOR)));
    if (System.getProperty("spark.master") == null) {
      builder.master("local[*]"); // started without spark-submit: on this machine
    }
    SparkSession spark = builder.getOrCreate();
    try {
      FileSystemSchemes.require(spark.sparkContext().hadoopConfiguration(), "dataset", path);
      StoreWaitNotice.reach(spark.sparkContext().hadoopConfiguration(), "beton-compact", "dataset", path, err);
      out.println(dryRun ? describePlan(BetonCompaction.plan(spark, path, options))
          : describe(BetonCompaction.compact(spark, path, options)));
      return 0;
    } catch (Exception e) {
      if (ProcessEnding.ending()) {
        err.println(ProcessEnding.line("beton-compact"));
        return 1;
      }
      if (e instanceof IllegalArgumentException || e instanceof java.io.IOException) {
        err.println("beton-compact: " + e.getMessage());
        return 2;
      }
      // a task's refusal (a shard cut short or corrupt: nothing is merged) reaches here wrapped in Spark's job
      // failure, whose message holds a stack trace: said in its own words, as bad input
      Throwable refusal = badInput(e);
      if (refusal != null) {
        err.println("beton-compact: " + PrepareJob.rootMessage(refusal));
        return 2;
      }
      err.println("beton-compact: failed: " + PrepareJob.rootMessage(e));
      return 1;
    } finally {
      spark.stop();
    }
  }

  /**
   * The first refusal of bad input (an IllegalArgumentException or IOException) among {@code e}'s causes, or null;
   * {@code e} itself is neither (those are caught before).
   */
  private static Throwable badInput(Throwable e) {
    return Causes.first(e, c -> c instanceof IllegalArgumentException || c instanceof java.io.IOException);
  }

  /**
   * {@code beton compaction of hdfs:///x (dry run): would merge 9 shards into 2 (2 runs, 1,200 samples, 48.0 MiB to
   * move); nothing changed}; counts of one are singular ({@code 1 run}).
   */
  static String describePlan(BetonCompaction.Result r) {
    if (r.groupsMerged() == 0) {
      return "beton compaction of " + r.path() + " (dry run): " + Counts.of(r.shardsBefore(), "shard")
          + ", none to merge";
    }
    return String.format(java.util.Locale.ROOT, "beton compaction of %s (dry run): would merge %d shards into %d (%s,"
        + " %s, %.1f MiB to move); nothing changed", r.path(), r.shardsBefore(), r.shardsAfter(),
        Counts.of(r.groupsMerged(), "run"), Counts.of(r.samplesMoved(), "sample"), r.bytesMoved() / 1048576.0);
  }

  /** {@code beton compaction of hdfs:///x: 9 shards into 2 (2 runs merged, 1,200 samples, 48.0 MiB moved)}. */
  static String describe(BetonCompaction.Result r) {
    if (r.groupsMerged() == 0) {
      return "beton compaction of " + r.path() + ": " + Counts.of(r.shardsBefore(), "shard") + ", none to merge"
          + (r.groupsLeftAsTheyWere() > 0 ? " (" + changedUnderIt(r) + ", most often merged by another compaction"
          + " meanwhile, which leaves nothing to do; a dry run says what is left to merge)" : "");
    }
    return String.format(java.util.Locale.ROOT, "beton compaction of %s: %d shards into %d (%s merged, %s, %.1f MiB"
        + " moved)%s", r.path(), r.shardsBefore(), r.shardsAfter(), Counts.of(r.groupsMerged(), "run"),
        Counts.of(r.samplesMoved(), "sample"), r.bytesMoved() / 1048576.0,
        r.groupsLeftAsTheyWere() > 0 ? "; " + changedUnderIt(r) + (r.groupsLeftAsTheyWere() == 1
            ? " was left as it was" : " were left as they were") : "");
  }

  /** {@code 1 run changed under it}, {@code 2 runs changed under it}. */
  private static String changedUnderIt(BetonCompaction.Result r) {
    return Counts.of(r.groupsLeftAsTheyWere(), "run") + " changed under it";
  }
}
