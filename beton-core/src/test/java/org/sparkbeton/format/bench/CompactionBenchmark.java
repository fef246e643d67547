package org.sparkbeton.format.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetVerifier;
import org.sparkbeton.format.dataset.ShardChecksum;
import org.sparkbeton.format.dataset.ShardCompaction;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;

/**
 * What a compaction task's merge costs ({@link ShardCompaction#merge}: the samples copied into one file, its page
 * checksums and SHA-256) beside two limits measured in the same run, rounds interleaved, from the page cache: a
 * plain concatenation of the same shard files ({@code FileChannel.transferTo}), and that concatenation plus reading
 * the result once for SHA-256 and CRC32C, the hashing a manifest entry needs. Prints a table.
 *
 * <p>Args: PHOTOS_DIR OUT_DIR [SHARDS=50] [ROUNDS=7]. The shards are the writer's own layout ({@code COMPACT}, 8 MiB
 * pages) of the photos' JPEG bytes with labels, split evenly; command and figures in BENCHMARKS.md.
 */
public final class CompactionBenchmark {
  private static final List<BetonField> FIELDS =
      List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  public static void main(String[] args) throws Exception {
    Path photos = Path.of(args[0]);
    Path dir = Files.createDirectories(Path.of(args[1]));
    int shards = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 7;
    List<byte[]> jpegs = new ArrayList<>();
    try (Stream<Path> files = Files.list(photos)) {
      for (Path p : files.filter(f -> f.toString().toLowerCase().endsWith(".jpg")).sorted().toList()) {
        jpegs.add(Files.readAllBytes(p));
      }
    }
    if (jpegs.isEmpty()) {
      throw new IllegalArgumentException(photos + " holds no .jpg: write the benchmark photos there first"
          + " (org.sparkbeton.codec.testing.BenchPhotos, BENCHMARKS.md)");
    }
    List<Path> files = new ArrayList<>();
    List<ShardEntry> entries = new ArrayList<>();
    int per = (jpegs.size() + shards - 1) / shards;
    for (int s = 0; s < shards && s * per < jpegs.size(); s++) {
      Path f = dir.resolve(String.format("in-%03d.beton", s));
      List<byte[]> part = jpegs.subList(s * per, Math.min(jpegs.size(), (s + 1) * per));
      try (BetonWriter w = BetonWriter.builder(FIELDS).pageLayout(PageLayout.COMPACT).open(f)) {
        for (int i = 0; i < part.size(); i++) {
          w.append(new RgbImage(ImageMode.JPG, 400, 300, ByteBuffer.wrap(part.get(i))), (long) (i % 10));
        }
        w.finish();
      }
      files.add(f);
      entries.add(new ShardEntry(f.getFileName().toString(), part.size(), Files.size(f),
          new ShardChecksum(ShardChecksum.SHA256, DatasetVerifier.checksum(f, ShardChecksum.SHA256)), Map.of()));
    }
    ShardCompaction.Group group = new ShardCompaction.Group(0, entries);
    long bytes = group.bytes();
    Path merged = dir.resolve("merged.beton");
    Path copied = dir.resolve("copied.bin");

    int kinds = 3;
    double[][] seconds = new double[kinds][rounds];
    for (int round = -2; round < rounds; round++) { // two untimed rounds first
      for (int k = 0; k < kinds; k++) {
        int kind = Math.floorMod(k + round, kinds); // order rotated each round
        long t0 = System.nanoTime();
        switch (kind) {
          case 0 -> ShardCompaction.merge(group, files, merged, "merged.beton");
          case 1 -> concatenate(files, copied);
          default -> {
            concatenate(files, copied);
            hash(copied);
          }
        }
        if (round >= 0) {
          seconds[kind][round] = (System.nanoTime() - t0) / 1e9;
        }
      }
    }
    double merge = median(seconds[0]);
    double copy = median(seconds[1]);
    double copyHash = median(seconds[2]);
    System.out.printf("%nshard merge: %d shards, %,d samples, %.1f MiB; medians of %d interleaved rounds (Java %s)%n",
        files.size(), group.samples(), bytes / 1048576.0, rounds, System.getProperty("java.version"));
    System.out.printf("%-62s %10s %10s %12s%n", "what", "ms", "MiB/s", "limit / it");
    row("merge (ShardCompaction.merge: copy, page checksums, SHA-256)", merge, bytes, copyHash);
    row("limit: concatenate the files, then SHA-256 and CRC32C of it", copyHash, bytes, copyHash);
    row("concatenate the files only (transferTo)", copy, bytes, copyHash);
  }

  private static void row(String what, double s, long bytes, double limit) {
    System.out.printf("%-62s %10.1f %10.0f %12.2f%n", what, s * 1e3, bytes / 1048576.0 / s, limit / s);
  }

  private static void concatenate(List<Path> files, Path out) throws IOException {
    try (FileChannel o = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      for (Path f : files) {
        try (FileChannel in = FileChannel.open(f)) {
          long n = in.size();
          for (long done = 0; done < n; ) {
            done += in.transferTo(done, n - done, o);
          }
        }
      }
      o.force(true);
    }
  }

  private static void hash(Path file) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocateDirect(8 << 20);
    try (FileChannel in = FileChannel.open(file)) {
      while (in.read(buf.clear()) > 0) {
        buf.flip();
        crc.update(buf.duplicate());
        sha.update(buf);
      }
    }
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
