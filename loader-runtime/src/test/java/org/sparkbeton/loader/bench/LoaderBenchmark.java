package org.sparkbeton.loader.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.transforms.Cutout;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.RandomTranslate;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/**
 * Loader figures, not a test: start-up on an ImageNet-sized index (1,281,167 samples) and CIFAR-like
 * RAW throughput (32x32, the CIFAR-10 pipeline of docs/format.md#reference-pipelines minus the GPU steps) against a
 * decode-only baseline measured in the same run.
 *
 * <p>Arguments: {@code [dir] [ops]} ({@code ops}: the per-operation timings only). The command and the figures
 * are in BENCHMARKS.md.
 */
public final class LoaderBenchmark {
  private LoaderBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path dir = args.length > 0 ? Files.createDirectories(Path.of(args[0])) : Files.createTempDirectory("loader-bench");
    operations(32);
    operations(224);
    if (args.length > 1 && args[1].equals("ops")) {
      return;
    }
    startUp(dir);
    throughput(dir);
  }

  /** One thread, each operation alone on one image in cache: ns per image and MB/s of input. */
  static void operations(int side) {
    org.sparkbeton.loader.pipeline.TensorSpec rgb = org.sparkbeton.loader.pipeline.TensorSpec.image(side, side);
    org.sparkbeton.loader.pipeline.Operation[] ops = {
        new RandomHorizontalFlip(1.0), new RandomTranslate(4, 1, 2, 3), new Cutout(side / 4, 1, 2, 3),
        new NormalizeImage(new double[] {125.3, 123.0, 113.9}, new double[] {63.0, 62.1, 66.7}, DType.FLOAT32),
        new NormalizeImage(new double[] {125.3, 123.0, 113.9}, new double[] {63.0, 62.1, 66.7}, DType.FLOAT16),
        new ToChannelsFirst()};
    java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(rgb.bytes() * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(rgb.bytes() * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    org.sparkbeton.loader.pipeline.SampleContext ctx = new org.sparkbeton.loader.pipeline.SampleContext(1);
    System.out.printf(Locale.ROOT, "%n| operation, %dx%d uint8 in (heap scratch), 1 thread | ns/image | input MB/s |%n|---|---|---|%n",
        side, side);
    for (org.sparkbeton.loader.pipeline.Operation op : ops) {
      org.sparkbeton.loader.pipeline.Operation.Stage st = op.plan(rgb);
      int reps = side == 32 ? 200_000 : 5_000;
      double best = Double.MAX_VALUE;
      for (int round = 0; round < 4; round++) {
        long t = System.nanoTime();
        for (int i = 0; i < reps; i++) {
          ctx.begin(0, 0, i, 0);
          ctx.enterStage(1);
          st.apply(in, 0, out, 0, ctx);
        }
        best = Math.min(best, (System.nanoTime() - t) / (double) reps);
      }
      String name = op.name() + (op instanceof NormalizeImage ? " " + st.output().dtype() : "");
      System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f |%n", name, best, rgb.bytes() / best * 1e3);
    }
  }

  static Path write(Path file, int n, int side) throws IOException {
    if (Files.exists(file)) {
      return file;
    }
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    byte[] rgb = new byte[side * side * 3];
    java.util.SplittableRandom r = new java.util.SplittableRandom(1);
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(8L << 20).expectedSamples(n).open(file)) {
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < rgb.length; k += 97) {
          rgb[k] = (byte) r.nextInt();
        }
        w.append(RgbImage.raw(side, side, rgb), (long) (i % 1000));
      }
      w.finish();
    }
    return file;
  }

  static void startUp(Path dir) throws IOException {
    int n = 1_281_167;
    long t0 = System.nanoTime();
    Path file = write(dir.resolve("imagenet-index-4x4.beton"), n, 4);
    System.out.printf(Locale.ROOT, "wrote %,d samples (4x4 RAW + label) in %.1f s, %,d bytes%n", n,
        (System.nanoTime() - t0) / 1e9, Files.size(file));
    System.out.println("| start-up, 1,281,167 samples | build() ms | first epoch order ms | first batch ms |");
    System.out.println("|---|---|---|---|");
    for (int round = 0; round < 2; round++) {
      for (TraversalOrder.Factory order : new TraversalOrder.Factory[] {OrderOption.SEQUENTIAL, OrderOption.RANDOM, OrderOption.QUASI_RANDOM}) {
        long a = System.nanoTime();
        try (Loader l = Loader.builder(file).batchSize(256).numThreads(2).order(order)
            .pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder()).build()) {
          long b = System.nanoTime();
          l.epochOrder(0);
          long c = System.nanoTime();
          l.iterator().next();
          long d = System.nanoTime();
          if (round == 1) {
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f |%n", order, (b - a) / 1e6, (c - b) / 1e6, (d - c) / 1e6);
          }
        }
      }
    }
  }

  static void throughput(Path dir) throws IOException {
    int n = 50_000;
    Path file = write(dir.resolve("cifar-like-32.beton"), n, 32);
    System.out.println();
    System.out.println("| CIFAR-like 32x32 RAW, batch 512, QUASI_RANDOM | threads | images/s | vs decode-only, same threads |");
    System.out.println("|---|---|---|---|");
    for (int threads : new int[] {1, 2}) {
      double base = 0;
      for (boolean augment : new boolean[] {false, true}) {
        LoaderBuilder b = Loader.builder(file).batchSize(512).numThreads(threads).order(OrderOption.QUASI_RANDOM).seed(1);
        if (augment) {
          b.pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip(), new RandomTranslate(2, 125, 123, 114),
              new Cutout(8, 125, 123, 114), new NormalizeImage(new double[] {125.3, 123.0, 113.9},
                  new double[] {63.0, 62.1, 66.7}, DType.FLOAT16), new ToChannelsFirst());
        } else {
          b.pipeline("image", new SimpleRgbDecoder());
        }
        b.pipeline("label", new IntDecoder());
        try (Loader l = b.build()) {
          List<Double> rates = new ArrayList<>();
          for (int epoch = 0; epoch < 4; epoch++) {
            long t = System.nanoTime();
            long images = 0;
            for (Batch batch : l) {
              images += batch.size();
            }
            rates.add(images / ((System.nanoTime() - t) / 1e9));
          }
          double rate = rates.subList(1, rates.size()).stream().mapToDouble(Double::doubleValue).max().orElse(0);
          if (!augment) {
            base = rate;
          }
          System.out.printf(Locale.ROOT, "| %s | %d | %,.0f | %.2f |%n", augment ? "flip+translate+cutout+normalize f16+CHW" : "decode only (copy)",
              threads, rate, rate / base);
        }
      }
    }
  }
}
