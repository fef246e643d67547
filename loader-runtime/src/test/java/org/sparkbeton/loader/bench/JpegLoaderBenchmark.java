package org.sparkbeton.loader.bench;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.BetonCodecJpeg;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/**
 * JPEG training-loader throughput, not a test: photos written as one {@code .beton} (JPEG payloads passed
 * through), batch 256, RandomResizedCrop 224 + horizontal flip, uint8 NHWC, for epoch 1 and epochs 2–5,
 * next to a plain-Java ImageIO loop doing the same work (decode, same box rule, crop, bilinear resize to
 * 224, flip, copy into a batch array) on the same number of threads in the same run.
 *
 * <pre>
 * ./mvnw -q -o test-compile -pl beton-core,beton-codec,loader-runtime
 * ./mvnw -q -o dependency:build-classpath -pl loader-runtime -Dmdep.outputFile=/tmp/loader-cp.txt
 * java -cp loader-runtime/target/test-classes:loader-runtime/target/classes:$(cat /tmp/loader-cp.txt) \
 *     org.sparkbeton.loader.bench.JpegLoaderBenchmark /tmp/photos 5000 2
 * </pre>
 */
public final class JpegLoaderBenchmark {
  static final int BATCH = 256;
  static final int SIDE = 224;

  private JpegLoaderBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path photos = Path.of(args.length > 0 ? args[0] : "/tmp/photos");
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    List<byte[]> jpegs = read(photos, n);
    Path file = Files.createTempFile("photos", ".beton");
    try {
      long t0 = System.nanoTime();
      write(jpegs, file);
      System.out.printf(Locale.ROOT, "%d photos written to %s (%.1f MB) in %.1f s; %d threads, batch %d, codec %s;"
              + " load average %.2f%n", jpegs.size(), file, Files.size(file) / 1e6, (System.nanoTime() - t0) / 1e9,
          threads, BATCH, JpegCodecs.nativeAvailable() ? "native libjpeg-turbo" : "pure Java",
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      double[] loader = loader(file, threads, BetonCodecJpeg.fastest(), 5);
      double[] imageIo = imageIo(jpegs, threads, 2);
      double[] javaCodec = loader(file, threads, BetonCodecJpeg.java(), 2);
      System.out.println("| RRC 224 + flip, uint8 NHWC | epoch 1 images/s | epochs 2-5 (or 2) images/s | vs ImageIO loop |");
      System.out.println("|---|---:|---:|---:|");
      row("loader, " + (JpegCodecs.nativeAvailable() ? "native codec" : "Java codec (no native)"), loader, imageIo);
      row("loader, Java codec (BetonCodecJpeg.java())", javaCodec, imageIo);
      row("plain-Java ImageIO loop (same work)", imageIo, imageIo);
      System.out.printf(Locale.ROOT, "load average at end %.2f%n",
          java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    } finally {
      Files.deleteIfExists(file);
    }
  }

  static void row(String name, double[] r, double[] base) {
    System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2fx |%n", name, r[0], r[1], r[1] / base[1]);
  }

  static List<byte[]> read(Path dir, int n) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".jpg")).sorted().limit(n).toList();
    }
    List<byte[]> out = new ArrayList<>();
    for (Path p : files) {
      out.add(Files.readAllBytes(p));
    }
    return out;
  }

  static void write(List<byte[]> jpegs, Path file) throws IOException {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    JpegHeader header = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest(); BetonWriter w = BetonWriter.builder(fields).open(file)) {
      for (int i = 0; i < jpegs.size(); i++) {
        byte[] j = jpegs.get(i);
        codec.probe(ByteBuffer.wrap(j), header);
        w.append(RgbImage.jpeg(header.width(), header.height(), j), (long) (i % 1000));
      }
      w.finish();
    }
  }

  /** images/s of epoch 1 and of epochs 2..epochs together. */
  static double[] loader(Path file, int threads, BetonCodecJpeg codec, int epochs) throws IOException {
    double first = 0;
    long rest = 0;
    long restNanos = 0;
    long checksum = 0;
    try (codec; Loader loader = Loader.builder(file).batchSize(BATCH).numThreads(threads).seed(1)
        .order(OrderOption.RANDOM)
        .pipeline("image", new RandomResizedCropRgbDecoder(SIDE, SIDE, 0.08, 1, 3.0 / 4, 4.0 / 3, codec),
            new RandomHorizontalFlip())
        .pipeline("label", new IntDecoder()).build()) {
      for (int e = 0; e < epochs; e++) {
        long t0 = System.nanoTime();
        int images = 0;
        for (Batch b : loader) {
          images += b.size();
          checksum += b.data("image").get(12345) + b.data("label").getLong(0);
        }
        long dt = System.nanoTime() - t0;
        if (e == 0) {
          first = images / (dt / 1e9);
        } else {
          rest += images;
          restNanos += dt;
        }
      }
    }
    if (checksum == 42) {
      System.out.println();
    }
    return new double[] {first, rest / (restNanos / 1e9)};
  }

  /** The same work with ImageIO + Java2D on {@code threads} threads; images/s of epoch 1 and of the later epochs. */
  static double[] imageIo(List<byte[]> jpegs, int threads, int epochs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    double first = 0;
    long rest = 0;
    long restNanos = 0;
    int batches = jpegs.size() / BATCH;
    byte[][] slots = new byte[threads][BATCH * SIDE * SIDE * 3];
    try {
      for (int e = 0; e < epochs; e++) {
        int epoch = e;
        long t0 = System.nanoTime();
        for (int b = 0; b < batches; b++) {
          int batch = b;
          List<Future<?>> parts = new ArrayList<>();
          for (int t = 0; t < threads; t++) {
            int from = t * BATCH / threads;
            int to = (t + 1) * BATCH / threads;
            byte[] slot = slots[batch % threads];
            parts.add(pool.submit(() -> {
              for (int i = from; i < to; i++) {
                int sample = batch * BATCH + i;
                imageIoOne(jpegs.get(sample), new SplittableRandom(epoch * 1_000_003L + sample), slot, i);
              }
              return null;
            }));
          }
          for (Future<?> f : parts) {
            f.get();
          }
        }
        long dt = System.nanoTime() - t0;
        int images = batches * BATCH;
        if (e == 0) {
          first = images / (dt / 1e9);
        } else {
          rest += images;
          restNanos += dt;
        }
      }
    } finally {
      pool.shutdown();
    }
    return new double[] {first, rest / (restNanos / 1e9)};
  }

  static void imageIoOne(byte[] jpeg, SplittableRandom r, byte[] slot, int row) throws IOException {
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(jpeg));
    int height = img.getHeight();
    int width = img.getWidth();
    int[] box = {0, 0, height, width};
    double area = (double) height * width;
    for (int t = 0; t < 10; t++) {
      double target = area * (0.08 + 0.92 * r.nextDouble());
      double aspect = Math.exp(Math.log(0.75) + (Math.log(4.0 / 3) - Math.log(0.75)) * r.nextDouble());
      int w = (int) Math.rint(Math.sqrt(target * aspect));
      int h = (int) Math.rint(Math.sqrt(target / aspect));
      if (w > 0 && w <= width && h > 0 && h <= height) {
        box = new int[] {(int) ((height - h + 1) * r.nextDouble()), (int) ((width - w + 1) * r.nextDouble()), h, w};
        break;
      }
    }
    BufferedImage out = new BufferedImage(SIDE, SIDE, BufferedImage.TYPE_3BYTE_BGR);
    Graphics2D g = out.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
    g.drawImage(img, 0, 0, SIDE, SIDE, box[1], box[0], box[1] + box[3], box[0] + box[2], null);
    g.dispose();
    byte[] bgr = ((DataBufferByte) out.getRaster().getDataBuffer()).getData();
    boolean flip = r.nextBoolean();
    int base = row * SIDE * SIDE * 3;
    for (int y = 0; y < SIDE; y++) {
      for (int x = 0; x < SIDE; x++) {
        int s = (y * SIDE + (flip ? SIDE - 1 - x : x)) * 3;
        int d = base + (y * SIDE + x) * 3;
        slot[d] = bgr[s + 2];
        slot[d + 1] = bgr[s + 1];
        slot[d + 2] = bgr[s];
      }
    }
  }
}
