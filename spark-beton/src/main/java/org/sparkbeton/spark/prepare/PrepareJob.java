package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;
import org.sparkbeton.format.io.HadoopJavaSupport;
import org.sparkbeton.spark.BetonKryoRegistrator;
import org.sparkbeton.spark.write.BadImageException;
import org.sparkbeton.spark.write.Causes;
import org.sparkbeton.spark.write.DatasetDirectory;
import org.sparkbeton.spark.write.PublishedMeanwhileException;

/**
 * {@code beton-prepare}: the main job. With no arguments it draws a labelled demo set and prepares it
 * on an embedded Spark; with {@code --input/--output} it prepares any ImageFolder tree on any Hadoop
 * FileSystem; under {@code spark-submit} the cluster's master is used. Progress goes to standard error, the
 * summary to standard output; a failure is one line on standard error, in the command line's terms (its flags),
 * with the stack trace only under {@code --debug}. Exit codes: 0 done, 2 usage or input error (a bad image
 * included, and a master Spark cannot start on), 1 failure.
 */
public final class PrepareJob {
  /**
   * System property: whether standard error is a terminal ({@code bin/beton-prepare} tests it); without it, the
   * JDK's guess ({@code System.console()}, which looks at standard input and output).
   */
  static final String TERMINAL_PROPERTY = "beton.stderr.terminal";

  private PrepareJob() {}

  public static void main(String[] args) {
    // run() prints the codec's fallback warning itself (on this JVM only: executors still log it)
    System.setProperty(NativeLibrary.LOG_FALLBACK_PROPERTY, "false");
    PrepareArgs a;
    try {
      a = PrepareArgs.parse(args);
    } catch (PrepareArgs.UsageException e) {
      System.exit(usage(e, System.out, System.err));
      return;
    }
    System.exit(OutputCheck.exitCode("beton-prepare", run(a, System.out, System.err), System.out, System.err));
  }

  /**
   * Prints what {@code --help} asked for, or the usage error: help is output (stdout, exit 0, so it pipes into a
   * pager), an error goes to stderr with the usage (exit 2). Returns the exit code.
   */
  static int usage(PrepareArgs.UsageException e, PrintStream out, PrintStream err) {
    if (e.getMessage() == null) {
      out.println(PrepareArgs.USAGE);
      return 0;
    }
    err.println("beton-prepare: " + e.getMessage());
    err.println(PrepareArgs.USAGE);
    return 2;
  }

  static int run(PrepareArgs a, PrintStream out, PrintStream err) {
    Optional<String> noHadoop = HadoopJavaSupport.refusal();
    if (noHadoop.isPresent()) {
      // Spark's first step, before any option is read, is Hadoop's user lookup: say so instead of its stack trace
      err.println("beton-prepare: Spark 3.5 cannot start on this Java: " + noHadoop.get());
      return 2;
    }
    org.sparkbeton.codec.jpeg.JpegCodecs.javaFallbackWarning()
        .ifPresent(w -> err.println("beton-prepare: " + w)); // the Java codec: why, and what it costs
    ProcessEnding.watch();
    SparkSession.Builder builder = SparkSession.builder().appName("beton-prepare")
        .config(KRYO_REGISTRATOR, withOurRegistrator(System.getProperty(KRYO_REGISTRATOR)));
    String submitted = System.getProperty("spark.master");
    if (submitted == null) {
      // heartbeats carry the running tasks' counts to the progress line: every second rather than every 10
      builder.master(a.master()).config("spark.ui.showConsoleProgress", "false")
          .config("spark.executor.heartbeatInterval", "1s");
    }
    SparkSession spark;
    try {
      spark = submitted == null ? SessionStart.start(builder, a.master(), "--master " + a.master())
          : SessionStart.start(builder, submitted, "master " + submitted + " (spark.master)");
    } catch (IllegalArgumentException e) {
      err.println("beton-prepare: " + e.getMessage());
      return fail(e, a, err, 2);
    }
    try {
      // the demo's input is a local path, which any Hadoop serves
      Configuration hadoop = spark.sparkContext().hadoopConfiguration();
      FileSystemSchemes.require(hadoop, "--input", a.input());
      FileSystemSchemes.require(hadoop, "--output", a.output());
      StoreWaitNotice.reach(hadoop, "beton-prepare", "--output", a.output(), err);
      StoreWaitNotice.reach(hadoop, "beton-prepare", "--input", a.input(), err);
      if (a.demoImages() > 0) {
        long t0 = System.nanoTime();
        DemoImageFolder.ensure(Path.of(a.input()), a.demoImages(), 42);
        out.printf("demo input: %,d labelled shape images in %s (%.1f s)%n", a.demoImages(),
            Path.of(a.input()).toAbsolutePath(), (System.nanoTime() - t0) / 1e9);
      }
      boolean appendToDataset = checkOutput(spark, a, err) == DatasetDirectory.State.DATASET
          && a.saveMode() == SaveMode.Append;
      ImageFolderPrepare.Progress progress = a.progressSeconds() > 0
          ? new ImageFolderPrepare.Progress(err, stderrIsTerminal(), a.progressSeconds()) : null;
      // an append takes the image settings its flags do not give from the dataset's manifest, as the rest were stored
      Map<String, String> options = appendToDataset ? a.writeOptions() : a.newDatasetOptions();
      ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, a.input(), a.output(), options, a.shards(),
          a.saveMode(), progress);
      out.print(PrepareSummary.format(r));
      r.listing().warnings().forEach(w -> err.println("beton-prepare: warning: " + w));
      SmallShardsNote.of(r).ifPresent(note -> err.println("beton-prepare: note: " + note));
      return 0;
    } catch (BadImageException e) {
      err.println("beton-prepare: bad image in " + e.detail() + "; pass "
          + (e.refusedOnlyWhenStrict() ? "--lenient-jpeg to store what libjpeg decodes around the damage (as FFCV"
              + " does), " : "")
          + "--bad-images skip to leave such images out, or --bad-images quarantine to list them in " + a.output()
          + "/_quarantine/");
      return fail(e, a, err, 2);
    } catch (IllegalArgumentException e) {
      err.println("beton-prepare: " + e.getMessage());
      return fail(e, a, err, 2);
    } catch (Exception e) {
      if (ProcessEnding.ending()) {
        err.println(ProcessEnding.line("beton-prepare"));
        return fail(e, a, err, 1);
      }
      PublishedMeanwhileException meanwhile = Causes.first(e, PublishedMeanwhileException.class);
      if (meanwhile != null) {
        err.println("beton-prepare: " + publishedMeanwhile(meanwhile));
        return fail(e, a, err, 2);
      }
      // a Spark session stopped under the job (a standalone master that gave up on the application) fails every
      // later call with "Cannot call methods on a stopped SparkContext", which does not say that
      String stopped = spark.sparkContext().isStopped() ? "the Spark session on " + spark.sparkContext().master()
          + " was stopped while the job ran (Spark's log above says why); " : "";
      err.println("beton-prepare: failed: " + stopped + rootMessage(e)
          + (a.debug() ? "" : " (--debug prints the stack trace)"));
      return fail(e, a, err, 1);
    } finally {
      spark.stop();
    }
  }

  /**
   * Another write (a second {@code beton prepare} of the same output) published a dataset at the output while this
   * run wrote: said in the command's flags, as an output found holding a dataset at the start is.
   */
  static String publishedMeanwhile(PublishedMeanwhileException e) {
    return "--output " + e.path() + " holds a dataset that another write (a second beton prepare?) published while"
        + " this run wrote, so this run published nothing and deleted its files. If that write stored the same"
        + " input, the dataset is complete (beton verify checks it); otherwise pass --append to add this input to"
        + " it, or --overwrite to replace it";
  }

  private static int fail(Exception e, PrepareArgs a, PrintStream err, int code) {
    if (a.debug()) {
      e.printStackTrace(err);
    }
    return code;
  }

  /** An existing output refused in flag terms, before Spark's write would refuse it in DataFrame terms. */
  static final String KRYO_REGISTRATOR = "spark.kryo.registrator";

  /**
   * {@code spark.kryo.registrator} with ours added to the registrators the cluster names (spark-submit hands its
   * configuration to the driver as system properties): where Kryo requires registration the job's task results
   * need it, and where Kryo is not the serializer the setting is unused.
   */
  static String withOurRegistrator(String registrators) {
    String ours = BetonKryoRegistrator.class.getName();
    if (registrators == null || registrators.isBlank()) {
      return ours;
    }
    return Arrays.stream(registrators.split(",")).map(String::trim).anyMatch(ours::equals) ? registrators
        : registrators + "," + ours;
  }

  /**
   * What {@code --output} holds, refused in flag terms where the mode does not allow writing there; a note on
   * {@code err} for each job whose files there the write will leave alone ({@link LiveJobsNote}).
   */
  private static DatasetDirectory.State checkOutput(SparkSession spark, PrepareArgs a, PrintStream err)
      throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(a.output());
    FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
    DatasetDirectory.Inspection found = DatasetDirectory.inspect(fs, dir);
    String where = fs.makeQualified(dir).toString();
    switch (found.state()) {
      case FILE -> throw new IllegalArgumentException("--output " + where + " is a file; a dataset is a directory");
      case DATASET -> {
        if (a.saveMode() == SaveMode.ErrorIfExists) {
          throw new IllegalArgumentException("--output " + where + " already holds a dataset; pass --overwrite to"
              + " replace it, or --append to add to it");
        }
      }
      case OCCUPIED -> {
        if (a.saveMode() == SaveMode.ErrorIfExists) {
          throw new IllegalArgumentException("--output " + where + " holds files that are not part of a dataset ("
              + found.example() + "); choose another --output, or pass --overwrite or --append to write the dataset"
              + " beside them (they are never deleted)");
        }
      }
      case UNLISTED_SHARDS -> {
        if (a.saveMode() != SaveMode.Overwrite) {
          throw new IllegalArgumentException("--output " + DatasetDirectory.unlistedShardsMessage(where,
              found.example(), "--overwrite"));
        }
      }
      default -> {
        // missing, or the leftovers of a failed run, which the write takes over
      }
    }
    if (found.state() != DatasetDirectory.State.MISSING) {
      LiveJobsNote.of(fs, dir, where, System.currentTimeMillis(), java.time.ZoneId.systemDefault())
          .forEach(note -> err.println("beton-prepare: note: " + note));
    }
    return found.state();
  }

  private static boolean stderrIsTerminal() {
    String told = System.getProperty(TERMINAL_PROPERTY);
    return told != null ? Boolean.parseBoolean(told) : System.console() != null;
  }

  /** The failure's message and its root cause's, first lines only (Spark's go on with a stack trace). */
  static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c == t ? firstLine(t) : firstLine(t) + " (" + firstLine(c) + ")";
  }

  private static String firstLine(Throwable t) {
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl).strip();
  }
}
