package org.sparkbeton.loader.bench;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.verify.JpegSof;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.ShardWindowOrder;
import org.sparkbeton.loader.store.LocalDirectoryStore;
import org.sparkbeton.loader.testing.ShardDirs;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/**
 * What staging costs a warm epoch, without a remote store, not a test: one dataset directory read (a) through the
 * staging path, as a remote dataset whose shards are all in the cache already ({@code Loader.builder(URI,
 * provider)} over a {@link LocalDirectoryStore}, {@code cacheDir} filled by an epoch before the rounds: each shard
 * pinned, checked, mapped and unmapped as the window passes), and (b) in place ({@code Loader.builder(dir)}), the
 * same epoch (samples, order, crops) each round, the two taking turns at going first. RandomResizedCrop 224 + flip,
 * batch 128, {@code ShardWindowOrder.window(4)}, as {@code RemoteLoaderBenchmark}; a new loader per epoch. Prints
 * each pair and the median of staged / in place.
 *
 * <p>Arguments: {@code [dir=/tmp/staging-bench] [images=20000] [shards=40] [threads=2] [rounds=6]}; the dataset
 * (photos of {@link TestPhotos}, repeating every 300) is written under {@code dir} when it is not there. The figures
 * are in BENCHMARKS.md ("Training loader over a remote store").
 */
public final class StagingOverheadBenchmark {
  private static final List<BetonField> FIELDS =
      List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  private StagingOverheadBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/staging-bench");
    int images = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    int shards = args.length > 2 ? Integer.parseInt(args[2]) : 40;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 6;
    Path data = dir.resolve("photos-" + images + "-" + shards);
    if (!Files.exists(data.resolve("_manifest.json"))) {
      write(data, images, shards);
    }
    Path cache = Files.createDirectories(dir.resolve("cache"));
    try (Loader fill = builder(staged(data, cache), threads).build()) {
      for (Batch b : fill) {
        b.size();
      }
    }
    System.out.printf(Locale.ROOT, "%d photos in %d shards, %d threads, %d rounds; load average %.2f%n", images,
        shards, threads, rounds, Throughput.loadAverage());
    System.out.println("| round | first | staged from the cache, s (CPU s) | in place, s (CPU s) | staged / in place |");
    System.out.println("|---:|---|---:|---:|---:|");
    double[] ratios = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      double[][] t = new double[2][];
      for (int k = 0; k < 2; k++) {
        boolean staged = (r + k) % 2 == 0;
        t[staged ? 0 : 1] = epoch(builder(staged ? staged(data, cache) : Loader.builder(data), threads).startEpoch(r));
      }
      ratios[r] = t[0][0] / t[1][0];
      System.out.printf(Locale.ROOT, "| %d | %s | %.2f (%.2f) | %.2f (%.2f) | %.3fx |%n", r + 1,
          r % 2 == 0 ? "staged" : "in place", t[0][0], t[0][1], t[1][0], t[1][1], ratios[r]);
    }
    Arrays.sort(ratios);
    double median = Throughput.median(ratios);
    System.out.printf(Locale.ROOT, "staged / in place, epoch time: median %.3fx (%.3f-%.3fx); load average at end"
        + " %.2f%n", median, ratios[0], ratios[rounds - 1], Throughput.loadAverage());
  }

  private static LoaderBuilder staged(Path data, Path cache) {
    return Loader.builder(data.toUri(), LocalDirectoryStore.provider()).cacheDir(cache);
  }

  private static LoaderBuilder builder(LoaderBuilder b, int threads) {
    return b.batchSize(128).numThreads(threads).order(ShardWindowOrder.window(4)).seed(1)
        .pipeline("image", new RandomResizedCropRgbDecoder(224, 224), new RandomHorizontalFlip())
        .pipeline("label", new IntDecoder());
  }

  /** Seconds of wall and of this process's CPU for one epoch of a new loader (its build not counted). */
  private static double[] epoch(LoaderBuilder b) throws Exception {
    try (Loader loader = b.build()) {
      long wall = System.nanoTime();
      long cpu = Throughput.processCpuNanos();
      long n = 0;
      for (Batch batch : loader) {
        n += batch.size();
      }
      return new double[] {(System.nanoTime() - wall) / 1e9, (Throughput.processCpuNanos() - cpu) / 1e9, n};
    }
  }

  private static void write(Path data, int images, int shards) throws Exception {
    List<RgbImage> photos = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] jpeg = TestPhotos.photo(7, i);
      int[] wh = JpegSof.dimensions(ByteBuffer.wrap(jpeg));
      photos.add(RgbImage.jpeg(wh[0], wh[1], jpeg));
    }
    int[] samples = new int[shards];
    for (int s = 0; s < shards; s++) {
      samples[s] = images / shards + (s < images % shards ? 1 : 0);
    }
    ShardDirs.write(data, FIELDS, samples, (w, g) -> w.append(photos.get(g % photos.size()), (long) g));
  }
}
