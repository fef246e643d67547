package org.sparkbeton.loader.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.testing.BenchPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.io.ChannelSource;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/**
 * What checking pages against the manifest's CRC32C costs the training loader, not a test: the photos written as
 * a dataset directory (shards of 1,000 photos, 8 MiB pages, manifest with page checksums, as the Spark writer
 * makes it), loaded as {@link JpegLoaderBenchmark} does (batch 256, RandomResizedCrop 224 + flip, RANDOM order),
 * with {@code verifyChecksums} on and off, in both cache modes. A loader checks each page once, so the cost falls
 * on its first epoch: each round builds a fresh loader per configuration and times its first epoch (the build
 * included) and its second; configurations alternate within a round (their order swapped every round) and the
 * table gives the median over rounds of the on/off throughput ratio, by the wall clock and per CPU-second.
 *
 * <p>Arguments: {@code [photoDir=/tmp/photos] [n=5000] [threads=2] [rounds=5]}; a photo directory without JPEGs
 * gets {@link BenchPhotos}' test photos. The command and the current figures are in BENCHMARKS.md.
 */
public final class ChecksumCostBenchmark {
  static final int SHARD = 1_000;

  private ChecksumCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    int n = args.length > 1 ? Integer.parseInt(args[1]) : BenchPhotos.COUNT;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    List<byte[]> jpegs = JpegLoaderBenchmark.read(photos, n);
    Path dir = Files.createTempDirectory("checksum-bench");
    try {
      long t0 = System.nanoTime();
      long bytes = write(jpegs, dir);
      System.out.printf(Locale.ROOT, "%d photos written to %s (%d shards, %.1f MB) in %.1f s; %d threads, batch %d,"
              + " codec %s; load average %.2f%n", jpegs.size(), dir, (jpegs.size() + SHARD - 1) / SHARD, bytes / 1e6,
          (System.nanoTime() - t0) / 1e9, threads, JpegLoaderBenchmark.BATCH,
          JpegCodecs.nativeAvailable() ? "native libjpeg-turbo" : "pure Java", JpegLoaderBenchmark.loadAverage());
      System.out.println("| cache mode | epoch 1 (build included), checks on / off: wall | CPU | epoch 2: wall | CPU |");
      System.out.println("|---|---:|---:|---:|---:|");
      for (boolean process : new boolean[] {false, true}) {
        run(dir, threads, process, true); // warm-up: JIT, page cache
        run(dir, threads, process, false);
        double[][] ratios = new double[4][rounds];
        for (int r = 0; r < rounds; r++) {
          boolean onFirst = r % 2 == 0;
          double[] a = run(dir, threads, process, onFirst);
          double[] b = run(dir, threads, process, !onFirst);
          double[] on = onFirst ? a : b;
          double[] off = onFirst ? b : a;
          for (int k = 0; k < 4; k++) {
            ratios[k][r] = on[k] / off[k];
          }
          System.out.printf(Locale.ROOT, "  %s round %d: on %.0f / %.0f / %.0f / %.0f, off %.0f / %.0f / %.0f / %.0f"
              + " images/s (epoch 1 wall, CPU, epoch 2 wall, CPU)%n", process ? "PROCESS" : "OS", r + 1, on[0], on[1],
              on[2], on[3], off[0], off[1], off[2], off[3]);
        }
        System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f |%n", process ? "PROCESS (256 MiB budget)" : "OS",
            Throughput.median(ratios[0]), Throughput.median(ratios[1]), Throughput.median(ratios[2]),
            Throughput.median(ratios[3]));
      }
      System.out.printf(Locale.ROOT, "medians of %d rounds of on/off throughput ratios (1.000 = no cost); load average"
          + " at end %.2f%n", rounds, JpegLoaderBenchmark.loadAverage());
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** A fresh loader: {epoch 1 wall, epoch 1 CPU, epoch 2 wall, epoch 2 CPU} in images/s. */
  static double[] run(Path dir, int threads, boolean process, boolean verify) throws IOException {
    Throughput t = new Throughput();
    long checksum = 0;
    t.start();
    LoaderBuilder b = Loader.builder(dir).batchSize(JpegLoaderBenchmark.BATCH).numThreads(threads)
        .seed(JpegLoaderBenchmark.SEED).order(OrderOption.RANDOM).verifyChecksums(verify)
        .pipeline("image", new RandomResizedCropRgbDecoder(JpegLoaderBenchmark.SIDE, JpegLoaderBenchmark.SIDE),
            new RandomHorizontalFlip())
        .pipeline("label", new IntDecoder());
    try (Loader loader = (process ? b.processCache(256L << 20) : b).build()) {
      for (int e = 0; e < 2; e++) {
        int images = 0;
        for (Batch batch : loader) {
          images += batch.size();
          checksum += batch.data("image").get(12345);
        }
        t.epochDone(e, images);
      }
    }
    if (checksum == 42) {
      System.out.println();
    }
    return new double[] {t.firstWall(), t.firstCpu(), t.restWall(), t.restCpu()};
  }


  /** Shards of {@value #SHARD} photos and a manifest with page checksums; returns the bytes written. */
  static long write(List<byte[]> jpegs, Path dir) throws IOException {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    List<ShardEntry> entries = new ArrayList<>();
    long total = 0;
    JpegHeader header = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int from = 0; from < jpegs.size(); from += SHARD) {
        String name = String.format("part-%05d.beton", from / SHARD);
        Path file = dir.resolve(name);
        int to = Math.min(jpegs.size(), from + SHARD);
        try (BetonWriter w = BetonWriter.builder(fields).open(file)) {
          for (int i = from; i < to; i++) {
            codec.probe(ByteBuffer.wrap(jpegs.get(i)), header);
            w.append(RgbImage.jpeg(header.width(), header.height(), jpegs.get(i)), (long) (i % 1000));
          }
          w.finish();
        }
        PageChecksums pages;
        try (BetonReader r = BetonReader.open(new ChannelSource(file), ReadOptions.defaults())) {
          pages = PageChecksums.compute(r);
        }
        entries.add(new ShardEntry(name, to - from, Files.size(file),
            new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(file, ShardChecksum.SHA256)), Map.of(),
            pages));
        total += Files.size(file);
      }
    }
    Files.writeString(dir.resolve(DatasetManifest.FILE_NAME), new DatasetManifest(
        fields.stream().map(ManifestField::of).toList(), entries, Map.of(), "ChecksumCostBenchmark").toJson());
    return total;
  }
}
