package org.sparkbeton.format.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;

/**
 * Prints a table: (1) time to open an ImageNet-sized index (1.28M image+label samples) and (2)
 * sequential and random sample reads from the page cache, next to plain positional FileChannel
 * reads of the same payload ranges measured in the same run.
 *
 * <p>Args: DIR [INDEX_SAMPLES=1280000] [READ_SAMPLES=10000] [PAYLOAD_BYTES=110000]. The command and the current
 * figures are in BENCHMARKS.md.
 */
public final class FormatBenchmark {
  private static final List<BetonField> FIELDS =
      List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/beton-bench");
    int indexSamples = args.length > 1 ? Integer.parseInt(args[1]) : 1_280_000;
    int readSamples = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int payloadBytes = args.length > 3 ? Integer.parseInt(args[3]) : 110_000;
    Files.createDirectories(dir);

    Path index = dir.resolve("index-" + indexSamples + ".beton");
    double writeIndexS = write(index, indexSamples, 64);
    double[] open = openTimes(index, 5);

    Path data = dir.resolve("data-" + readSamples + ".beton");
    double writeDataS = write(data, readSamples, payloadBytes);
    long bytes = Files.size(data);
    warm(data);

    System.out.printf("%nspark-beton format benchmark (%s)%n", System.getProperty("java.version"));
    System.out.printf("%-58s %14s%n", "what", "result");
    row("write %,d image+label samples (64 B payloads), 1 thread".formatted(indexSamples), "%.2f s".formatted(writeIndexS));
    row("open %,d-sample file, first open in this JVM".formatted(indexSamples), "%.0f ms".formatted(open[0]));
    row("open %,d-sample file, median of next 4".formatted(indexSamples), "%.0f ms".formatted(open[1]));
    row("write %,d samples of %,d B (%.2f GB)".formatted(readSamples, payloadBytes, bytes / 1e9),
        "%.0f MB/s".formatted(bytes / 1e6 / writeDataS));

    Random rnd = new Random(42);
    int[] sequential = new int[readSamples];
    for (int i = 0; i < readSamples; i++) {
      sequential[i] = i;
    }
    int[] random = sequential.clone();
    for (int i = random.length - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = random[i];
      random[i] = random[j];
      random[j] = t;
    }
    for (String order : List.of("sequential", "random")) {
      int[] ids = order.equals("sequential") ? sequential : random;
      double ours = best(() -> readWithReader(data, ids));
      double base = best(() -> readWithChannel(data, ids));
      row("%s read via BetonReader (payload sum)".formatted(order), "%,.0f samples/s".formatted(ids.length / ours));
      row("%s pread of same ranges (FileChannel)".formatted(order), "%,.0f samples/s".formatted(ids.length / base));
      row("%s ratio ours / pread".formatted(order), "%.2fx".formatted(base / ours));
    }
  }

  private static void row(String what, String result) {
    System.out.printf("%-58s %14s%n", what, result);
  }

  private static double write(Path file, int n, int payloadBytes) throws IOException {
    byte[] payload = new byte[payloadBytes];
    new Random(1).nextBytes(payload);
    payload[0] = (byte) 0xFF;
    payload[1] = (byte) 0xD8;
    long t0 = System.nanoTime();
    try (BetonWriter w = BetonWriter.builder(FIELDS).expectedSamples(n).open(file)) {
      for (int i = 0; i < n; i++) {
        w.append(new RgbImage(ImageMode.JPG, 500, 375, ByteBuffer.wrap(payload)), (long) (i % 1000));
      }
      w.finish();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** [first open ms, median of the following ms]. */
  private static double[] openTimes(Path file, int runs) throws IOException {
    double[] t = new double[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      try (BetonReader r = BetonReader.open(file)) {
        // touch the last sample so lazy structures are really there
        r.intValue(r.numSamples() - 1, 1);
        r.allocations().sizeAt(r.allocations().ptr(r.allocations().size() - 1));
      }
      t[i] = (System.nanoTime() - t0) / 1e6;
    }
    double[] rest = java.util.Arrays.copyOfRange(t, 1, runs);
    java.util.Arrays.sort(rest);
    return new double[] {t[0], rest[rest.length / 2]};
  }

  private static void warm(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocateDirect(8 << 20);
      long pos = 0;
      while (ch.read(b.clear(), pos) > 0) {
        pos += b.position();
      }
    }
  }

  private interface Run {
    long run() throws IOException;
  }

  private static long sink;

  /** Best of 3, in seconds. */
  private static double best(Run run) throws IOException {
    double best = Double.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      sink += run.run();
      best = Math.min(best, (System.nanoTime() - t0) / 1e9);
    }
    return best;
  }

  /** Opens the file and, per sample, reads label and image payload, summing every 64th byte. */
  private static long readWithReader(Path file, int[] ids) throws IOException {
    long sum = 0;
    try (BetonReader r = BetonReader.open(file)) {
      for (int id : ids) {
        sum += r.intValue(id, 1);
        ByteBuffer p = ((RgbImage) r.value(id, 0)).payload();
        for (int i = p.position(); i < p.limit(); i += 64) {
          sum += p.get(i);
        }
      }
    }
    return sum;
  }

  /** The baseline: positional reads of the same byte ranges into one reused buffer (offsets precomputed). */
  private static long readWithChannel(Path file, int[] ids) throws IOException {
    long[] ptr;
    int[] size;
    try (BetonReader r = BetonReader.open(file)) {
      ptr = new long[ids.length];
      size = new int[ids.length];
      for (int i = 0; i < ids.length; i++) {
        ByteBuffer rec = r.recordChunk(i);
        ptr[i] = rec.getLong(r.recordOffset(i) + 5);
        size[i] = (int) r.allocations().sizeAt(ptr[i]);
      }
    }
    long sum = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      for (int id : ids) {
        buf.clear().limit(size[id]);
        long pos = ptr[id];
        while (buf.hasRemaining()) {
          pos += ch.read(buf, pos);
        }
        for (int i = 0; i < size[id]; i += 64) {
          sum += buf.get(i);
        }
      }
    }
    return sum;
  }
}
