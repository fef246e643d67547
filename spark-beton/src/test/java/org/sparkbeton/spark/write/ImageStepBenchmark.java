package org.sparkbeton.spark.write;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.sparkbeton.codec.testing.BenchPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;

/**
 * Issue 24's question "where does the rest go?" answered by measurement rather than by a profile: the writer's task
 * work per photo built up a step at a time on one thread, each rung beside the writer's own limit ({@link
 * WriterLimit}: the decode and encode alone) in the same run, rounds alternating (the order rotated each round),
 * medians of each rung's CPU time per photo (and of its wall time: a thread waiting on the file system). The rungs:
 * the image step from bytes in memory ({@link ImageEncoder}: markers, probe, plan, decode, resize, encode), then
 * with each file read by path as the tasks read it ({@link ImageFileReader}), then with each stored image written
 * into shards as a task writes them ({@link ShardWriter}: pages, page checksums, SHA-256, the shard files; 8 shards
 * as 8 tasks would). What is left between the last rung and a Spark task (rows, Spark's task code) and around the
 * tasks (the driver, the JIT, idle cores) is {@link WriterBenchmark}'s.
 *
 * <pre>
 * java [-DimageStep.warmUps=2] -cp ... org.sparkbeton.spark.write.ImageStepBenchmark /tmp/photos [rounds=7]
 *     [workDir=/tmp/image-step-bench]
 * </pre>
 */
public final class ImageStepBenchmark {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final int SHARDS = 8;

  private ImageStepBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Path work = Path.of(args.length > 2 ? args[2] : "/tmp/image-step-bench");
    List<Path> files = WriterBenchmark.photoFiles(photos);
    List<byte[]> jpegs = WriterBenchmark.readAll(files);
    BetonWriteConf conf = BetonWriteConf.parse(Map.of("writeMode", "jpg", "maxResolution", "256", "jpegQuality", "90"));
    WriterLimit limit = new WriterLimit(jpegs, conf);
    Rungs rungs = new Rungs(files, jpegs, conf, work);
    int n = files.size();
    String[] names = {
        "the writer's limit (its decode and encode, nothing else)",
        "image step, bytes in memory (markers, probe, plan, decode, resize, encode)",
        "+ each file read by path (ImageFileReader)",
        "+ each image written into 8 shards (ShardWriter: pages, checksums, SHA-256, files)",
    };
    double[][] micros = new double[names.length][rounds];
    double[][] wallMicros = new double[names.length][rounds];
    double[][] parts = new double[3][rounds];
    // untimed rounds first: the JIT, and the heap growing to what the rungs use (first touches of memory are slow on
    // this project's VMs; the shard rung read 40-80 us per photo more in the first rounds than once the heap had grown)
    int warmUps = Integer.getInteger("imageStep.warmUps", 2);
    for (int r = -warmUps; r < rounds; r++) {
      for (int k0 = 0; k0 < names.length; k0++) {
        int k = Math.floorMod(k0 + r, names.length);
        rungs.clearWorkDir(); // the last round's shards deleted outside the timing: no rung's work
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        TaskCounters counters = switch (k) {
          case 0 -> {
            limit.run(0, 1);
            yield null;
          }
          case 1 -> rungs.inMemory();
          case 2 -> rungs.byPath(false);
          default -> rungs.byPath(true);
        };
        if (r < 0) {
          continue;
        }
        micros[k][r] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e3 / n;
        wallMicros[k][r] = (System.nanoTime() - t0) / 1e3 / n;
        if (k == 1) {
          parts[0][r] = counters.decodeNanos() / 1e3 / n;
          parts[1][r] = counters.resizeNanos() / 1e3 / n;
          parts[2][r] = counters.encodeNanos() / 1e3 / n;
        }
      }
    }
    System.out.printf("%d photos, jpg at maxResolution 256, q90; 1 thread, %d rounds alternating after %d untimed,"
        + " medians of CPU time per photo; load average %.2f%n%n", n, rounds, warmUps,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    System.out.println("| rung | CPU us per photo | limit / rung | added by the rung, us | wall us per photo"
        + " | limit / rung (wall) |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    double lim = WriterBenchmark.median(micros[0], micros[0].length);
    double limWall = WriterBenchmark.median(wallMicros[0], wallMicros[0].length);
    double before = lim;
    for (int k = 0; k < names.length; k++) {
      double m = WriterBenchmark.median(micros[k], micros[k].length);
      double wall = WriterBenchmark.median(wallMicros[k], wallMicros[k].length);
      System.out.printf("| %s | %.1f | %.3f | %s | %.1f | %.3f |%n", names[k], m, lim / m,
          k == 0 ? "" : String.format("%+.1f", m - before), wall, limWall / wall);
      before = m;
      if (k == 1) {
        System.out.printf("| (of which decode %.1f, resize %.1f, encode %.1f: the image step's own counters)"
            + " | | | | | |%n", WriterBenchmark.median(parts[0], rounds), WriterBenchmark.median(parts[1], rounds),
            WriterBenchmark.median(parts[2], rounds));
      }
    }
  }

  /** The rungs above the limit, each over every photo on the calling thread. */
  private static final class Rungs {
    private final List<Path> files;
    private final List<byte[]> jpegs;
    private final BetonWriteConf conf;
    private final Path work;
    private final FileSystem fs;
    private final List<BetonField> fields =
        List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));

    Rungs(List<Path> files, List<byte[]> jpegs, BetonWriteConf conf, Path work) throws Exception {
      this.files = files;
      this.jpegs = jpegs;
      this.conf = conf;
      this.work = work;
      this.fs = FileSystem.getLocal(new Configuration());
    }

    TaskCounters inMemory() {
      try (ImageEncoder images = new ImageEncoder(conf, 0)) {
        for (int i = 0; i < jpegs.size(); i++) {
          images.fromEncoded(jpegs.get(i), i);
        }
        return images.counters();
      }
    }

    void clearWorkDir() throws Exception {
      fs.delete(dir(), true);
      fs.mkdirs(dir());
    }

    private org.apache.hadoop.fs.Path dir() {
      return new org.apache.hadoop.fs.Path(work.toUri());
    }

    TaskCounters byPath(boolean write) throws Exception {
      org.apache.hadoop.fs.Path dir = dir();
      ImageFileReader reader = new ImageFileReader(new Configuration());
      int n = files.size();
      try (ImageEncoder images = new ImageEncoder(conf, 0)) {
        for (int shard = 0; shard < SHARDS; shard++) {
          ShardWriter out = write ? new ShardWriter(fs, dir, "part-" + shard, fields, conf) : null;
          for (int i = shard * n / SHARDS; i < (shard + 1) * n / SHARDS; i++) {
            RgbImage image = images.fromEncoded(reader.read(files.get(i).toString()), i);
            if (out != null) {
              out.write(new Object[] {image, (long) (i % 10)});
            }
          }
          if (out != null) {
            out.finish();
          }
        }
        return images.counters();
      }
    }
  }
}
