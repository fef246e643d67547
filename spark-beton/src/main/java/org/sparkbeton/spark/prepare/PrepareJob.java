package org.sparkbeton.spark.prepare;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * {@code beton-prepare}: the main job. With no arguments it draws a labelled demo set and prepares it
 * on an embedded Spark; with {@code --input/--output} it prepares any ImageFolder tree on any Hadoop
 * FileSystem; under {@code spark-submit} the cluster's master is used. Exit codes: 0 done, 2 usage
 * or input error, 1 failure.
 */
public final class PrepareJob {
  private PrepareJob() {}

  public static void main(String[] args) {
    PrepareArgs a;
    try {
      a = PrepareArgs.parse(args);
    } catch (PrepareArgs.UsageException e) {
      if (e.getMessage() != null) {
        System.err.println("beton-prepare: " + e.getMessage());
      }
      System.err.println(PrepareArgs.USAGE);
      System.exit(e.getMessage() == null ? 0 : 2);
      return;
    }
    int code = run(a);
    System.exit(code);
  }

  static int run(PrepareArgs a) {
    org.sparkbeton.codec.jpeg.JpegCodecs.javaFallbackWarning()
        .ifPresent(w -> System.err.println("beton-prepare: " + w)); // the Java codec: why, and what it costs
    SparkSession.Builder builder = SparkSession.builder().appName("beton-prepare");
    if (System.getProperty("spark.master") == null) {
      builder.master(a.master()).config("spark.ui.showConsoleProgress", "false");
    }
    SparkSession spark = builder.getOrCreate();
    try {
      if (a.demoImages() > 0) {
        long t0 = System.nanoTime();
        DemoImageFolder.ensure(Path.of(a.input()), a.demoImages(), 42);
        System.out.printf("demo input: %,d labelled shape images in %s (%.1f s)%n", a.demoImages(), a.input(),
            (System.nanoTime() - t0) / 1e9);
      }
      ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, a.input(), a.output(), a.writeOptions(), a.shards(),
          a.overwrite());
      System.out.print(ImageFolderPrepare.summary(r, a.output()));
      return 0;
    } catch (IllegalArgumentException e) {
      System.err.println("beton-prepare: " + rootMessage(e));
      return 2;
    } catch (Exception e) {
      System.err.println("beton-prepare: failed: " + rootMessage(e));
      e.printStackTrace();
      return 1;
    } finally {
      spark.stop();
    }
  }

  private static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c == t ? t.getMessage() : t.getMessage() + " (" + c.getMessage() + ")";
  }
}
