package org.sparkbeton.spark.write;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Issue 4's benchmark: JPEG photos → .beton, {@code jpg} at maxResolution 256, q90, through
 * {@code df.write.format("beton")} on Spark {@code local[2]}, next to a single-threaded plain-Java loop
 * doing the same work with the same per-image step ({@link ImageEncoder}: read file, decode, area
 * resize, encode, write) in the same run. (In the writer's package for that access.)
 *
 * <pre>./mvnw -q -pl spark-beton -am test-compile -DskipTests
 * java [Spark --add-opens] -cp spark-beton/target/test-classes:spark-beton/target/classes:$(cat spark-beton/target/prepare.classpath) \
 *   org.sparkbeton.spark.write.WriterBenchmark /tmp/photos /tmp/writer-bench</pre>
 */
public final class WriterBenchmark {
  public static void main(String[] args) throws Exception {
    Path photos = Path.of(args[0]);
    Path out = Path.of(args.length > 1 ? args[1] : "/tmp/writer-bench");
    List<Path> files;
    try (Stream<Path> s = Files.walk(photos)) {
      files = s.filter(p -> p.toString().toLowerCase().endsWith(".jpg")).sorted(Comparator.naturalOrder()).toList();
    }
    Files.createDirectories(out);
    System.out.printf("%d photos from %s, native JPEG codec: %s%n", files.size(), photos, JpegCodecs.nativeAvailable());

    double plain = plainJava(files, out.resolve("plain.beton"));
    SparkSession spark = SparkSession.builder().master("local[2]").appName("WriterBenchmark")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    double[] sparkRuns = new double[3];
    for (int run = 0; run < sparkRuns.length; run++) {
      long t0 = System.nanoTime();
      spark.read().format("binaryFile").option("recursiveFileLookup", "true").option("pathGlobFilter", "*.jpg")
          .load(photos.toString())
          .selectExpr("content as image", "cast(substring(regexp_extract(path, '(\\\\d+)\\\\.jpg$', 1), -1) as int) as label")
          .coalesce(2).write().format("beton").mode(SaveMode.Overwrite).option("imageColumns", "image")
          .option("writeMode", "jpg").option("maxResolution", "256").option("jpegQuality", "90")
          .save(out.resolve("spark").toString());
      sparkRuns[run] = (System.nanoTime() - t0) / 1e9;
    }
    spark.stop();
    double best = Math.min(sparkRuns[0], Math.min(sparkRuns[1], sparkRuns[2]));
    System.out.printf("%n%-62s %12s%n", "what (" + files.size() + " photos, jpg, maxResolution 256, q90)", "images/s");
    System.out.printf("%-62s %,12.0f%n", "plain Java loop, 1 thread (read, decode, resize, encode, write)", files.size() / plain);
    System.out.printf("%-62s %,12.0f%n", "Spark local[2] df.write.format(\"beton\"), first run", files.size() / sparkRuns[0]);
    System.out.printf("%-62s %,12.0f%n", "Spark local[2] df.write.format(\"beton\"), best of 3", files.size() / best);
    System.out.printf("%-62s %11.2fx%n", "Spark local[2] best / plain 1 thread", plain / best);
  }

  private static double plainJava(List<Path> files, Path target) throws Exception {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    long t0 = System.nanoTime();
    BetonWriteConf conf = BetonWriteConf.parse(java.util.Map.of("writeMode", "jpg", "maxResolution", "256",
        "jpegQuality", "90"));
    try (ImageEncoder images = new ImageEncoder(conf, 0);
         BetonWriter w = BetonWriter.builder(fields).expectedSamples(files.size()).open(target)) {
      for (int i = 0; i < files.size(); i++) {
        RgbImage image = images.fromEncoded(Files.readAllBytes(files.get(i)), i);
        w.append(image, (long) (i % 10));
      }
      w.finish();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

}
