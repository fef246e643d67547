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
import org.sparkbeton.codec.testing.BenchPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/**
 * JPEG training-loader throughput, not a test: photos written as one {@code .beton} (JPEG payloads passed
 * through), batch 256, RandomResizedCrop 224 + horizontal flip, for epoch 1 and epochs 2–5, as (i) uint8
 * NHWC and (ii) the same + NormalizeImage to float16 NCHW; each with pixel fusion (one pass per sample
 * after the resize) and without ({@code fuse(false)}: one pass per operation), next to a plain-Java
 * ImageIO loop doing the same work (decode, same box rule, crop, bilinear resize to 224, flip, [normalize
 * + float16 + NCHW], copy into a batch array) on the same number of threads. The first row is this
 * machine's decode limit ({@link DecodeLimit}: the codec alone decoding the same crop boxes at the same
 * DCT scales), measured in the same run before and after each loader row; the last column is each row as
 * a fraction of the mean of the two limits next to it.
 *
 * <p>Arguments: {@code [photoDir=/tmp/photos] [n=5000] [threads=2]}; a photo directory without JPEGs gets
 * {@link BenchPhotos}' test photos. The command and the current figures are in BENCHMARKS.md.
 */
public final class JpegLoaderBenchmark {
  static final int BATCH = 256;
  static final int SIDE = 224;
  static final long SEED = 1;
  static final double[] MEAN = {0.485 * 255, 0.456 * 255, 0.406 * 255};
  static final double[] STD = {0.229 * 255, 0.224 * 255, 0.225 * 255};

  private JpegLoaderBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path photos = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    int n = args.length > 1 ? Integer.parseInt(args[1]) : BenchPhotos.COUNT;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    List<byte[]> jpegs = read(photos, n);
    Path file = Files.createTempFile("photos", ".beton");
    try {
      long t0 = System.nanoTime();
      int[][] sizes = write(jpegs, file);
      System.out.printf(Locale.ROOT, "%d photos written to %s (%.1f MB) in %.1f s; %d threads, batch %d, codec %s;"
              + " load average %.2f%n", jpegs.size(), file, Files.size(file) / 1e6, (System.nanoTime() - t0) / 1e9,
          threads, BATCH, JpegCodecs.nativeAvailable() ? "native libjpeg-turbo" : "pure Java", loadAverage());
      // one epoch of each loader first, so no row pays for compiling the code all rows share (the JIT's
      // threads count in the process's CPU time)
      for (boolean normalize : new boolean[] {false, true}) {
        loader(file, threads, normalize, true, 1);
        loader(file, threads, normalize, false, 1);
      }
      // the decode limit is measured next to each loader row (before and after it): this machine's speed
      // drifts by 20-30% within minutes, so a limit measured minutes away would make the ratio a lottery
      Throughput[] limits = new Throughput[5];
      limits[0] = decodeLimit(jpegs, sizes, threads);
      Throughput u8Fused = loader(file, threads, false, true, 5);
      limits[1] = decodeLimit(jpegs, sizes, threads);
      Throughput u8Unfused = loader(file, threads, false, false, 5);
      limits[2] = decodeLimit(jpegs, sizes, threads);
      Throughput f16Fused = loader(file, threads, true, true, 5);
      limits[3] = decodeLimit(jpegs, sizes, threads);
      Throughput f16Unfused = loader(file, threads, true, false, 5);
      limits[4] = decodeLimit(jpegs, sizes, threads);
      Throughput u8ImageIo = imageIo(jpegs, threads, false, 2);
      Throughput f16ImageIo = imageIo(jpegs, threads, true, 2);
      double minWall = Double.MAX_VALUE;
      double maxWall = 0;
      double sumWall = 0;
      double sumCpu = 0;
      for (Throughput l : limits) {
        minWall = Math.min(minWall, l.restWall());
        maxWall = Math.max(maxWall, l.restWall());
        sumWall += l.restWall();
        sumCpu += l.restCpu();
      }
      System.out.println("| RRC 224 + flip, batch " + BATCH + ", " + threads + " threads | epoch 1 images/s"
          + " | epochs 2-5 images/s | epochs 2-5 images per CPU-second | vs ImageIO loop (wall / CPU)"
          + " | vs decode limit next to it (wall / CPU) |");
      System.out.println("|---|---:|---:|---:|---:|---:|");
      System.out.printf(Locale.ROOT, "| decode limit: bare native region decode of the same boxes at the same DCT"
              + " scales, measured 5 times between the rows (wall %.0f-%.0f) | | %.0f | %.0f | | 1.00x / 1.00x |%n",
          minWall, maxWall, sumWall / limits.length, sumCpu / limits.length);
      row("(i) uint8 NHWC, loader, fused", u8Fused, u8ImageIo, limits[0], limits[1]);
      row("(i) uint8 NHWC, loader, unfused (fuse(false))", u8Unfused, u8ImageIo, limits[1], limits[2]);
      row("(i) uint8 NHWC, plain-Java ImageIO loop (epochs 1, 2)", u8ImageIo, u8ImageIo, limits[4], limits[4]);
      row("(ii) + NormalizeImage float16 NCHW, loader, fused", f16Fused, f16ImageIo, limits[2], limits[3]);
      row("(ii) + NormalizeImage float16 NCHW, loader, unfused (fuse(false))", f16Unfused, f16ImageIo, limits[3],
          limits[4]);
      row("(ii) + NormalizeImage float16 NCHW, plain-Java ImageIO loop (epochs 1, 2)", f16ImageIo, f16ImageIo,
          limits[4], limits[4]);
      System.out.printf(Locale.ROOT, "fused vs unfused, epochs 2-5 (wall / CPU): (i) %.2fx / %.2fx, (ii) %.2fx /"
              + " %.2fx; load average at end %.2f%n", u8Fused.restWall() / u8Unfused.restWall(),
          u8Fused.restCpu() / u8Unfused.restCpu(), f16Fused.restWall() / f16Unfused.restWall(),
          f16Fused.restCpu() / f16Unfused.restCpu(), loadAverage());
      int rounds = Integer.getInteger("alternatingRounds", 7);
      if (rounds > 0) {
        double[] u8 = AlternatingRatio.median(file, jpegs, sizes, threads, false, rounds);
        double[] f16 = AlternatingRatio.median(file, jpegs, sizes, threads, true, rounds);
        System.out.printf(Locale.ROOT, "alternating, fused, median of %d epochs each against the limit epochs beside"
            + " it (wall / CPU): (i) %.2fx / %.2fx, (ii) %.2fx / %.2fx; decode + resize alone (no loader): %.2fx /"
            + " %.2fx and %.2fx / %.2fx; load average at end %.2f%n", rounds, u8[0], u8[1], f16[0], f16[1], u8[2],
            u8[3], f16[2], f16[3], loadAverage());
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  static Throughput decodeLimit(List<byte[]> jpegs, int[][] sizes, int threads) throws InterruptedException {
    if (!JpegCodecs.nativeAvailable()) {
      throw new IllegalStateException("The decode limit is measured with the native codec; libbetoncodec did not load");
    }
    return DecodeLimit.measure(jpegs, sizes, SEED, threads, SIDE, 2);
  }

  static double loadAverage() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** One row; the ratio to the decode limit uses the mean of the limits measured just before and after it. */
  static void row(String name, Throughput r, Throughput imageIo, Throughput limitBefore, Throughput limitAfter) {
    double limitWall = (limitBefore.restWall() + limitAfter.restWall()) / 2;
    double limitCpu = (limitBefore.restCpu() + limitAfter.restCpu()) / 2;
    System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.2fx / %.2fx | %.2fx / %.2fx |%n", name, r.firstWall(),
        r.restWall(), r.restCpu(), r.restWall() / imageIo.restWall(), r.restCpu() / imageIo.restCpu(),
        r.restWall() / limitWall, r.restCpu() / limitCpu);
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

  /** Writes the photos as one file; returns each one's {width, height}. */
  static int[][] write(List<byte[]> jpegs, Path file) throws IOException {
    int[][] sizes = new int[jpegs.size()][];
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE), new BetonField("label", IntField.INSTANCE));
    JpegHeader header = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest(); BetonWriter w = BetonWriter.builder(fields).open(file)) {
      for (int i = 0; i < jpegs.size(); i++) {
        byte[] j = jpegs.get(i);
        codec.probe(ByteBuffer.wrap(j), header);
        sizes[i] = new int[] {header.width(), header.height()};
        w.append(RgbImage.jpeg(header.width(), header.height(), j), (long) (i % 1000));
      }
      w.finish();
    }
    return sizes;
  }

  /** The benchmark's loader: RRC 224 + flip [+ normalize to float16 + NCHW], labels, RANDOM order. */
  static LoaderBuilder builder(Path file, int threads, boolean normalize, boolean fuse) {
    Operation[] ops = normalize
        ? new Operation[] {new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT16), new ToChannelsFirst()}
        : new Operation[] {new RandomHorizontalFlip()};
    return Loader.builder(file).batchSize(BATCH).numThreads(threads).seed(SEED).order(OrderOption.RANDOM).fuse(fuse)
        .pipeline("image", new RandomResizedCropRgbDecoder(SIDE, SIDE), ops)
        .pipeline("label", new IntDecoder());
  }

  /** Throughput of epoch 1 (building the loader included) and of epochs 2..epochs. */
  static Throughput loader(Path file, int threads, boolean normalize, boolean fuse, int epochs) throws IOException {
    Throughput t = new Throughput();
    long checksum = 0;
    t.start();
    try (Loader loader = builder(file, threads, normalize, fuse).build()) {
      for (int e = 0; e < epochs; e++) {
        int images = 0;
        for (Batch b : loader) {
          images += b.size();
          checksum += b.data("image").get(12345) + b.data("label").getLong(0);
        }
        t.epochDone(e, images);
      }
    }
    if (checksum == 42) {
      System.out.println();
    }
    return t;
  }

  /** The same work with ImageIO + Java2D on {@code threads} threads; images/s of epoch 1 and of the later epochs. */
  static Throughput imageIo(List<byte[]> jpegs, int threads, boolean normalize, int epochs) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    Throughput timing = new Throughput();
    int batches = jpegs.size() / BATCH;
    byte[][] slots = new byte[threads][BATCH * SIDE * SIDE * 3 * (normalize ? 2 : 1)];
    try {
      timing.start();
      for (int e = 0; e < epochs; e++) {
        int epoch = e;
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
                imageIoOne(jpegs.get(sample), new SplittableRandom(epoch * 1_000_003L + sample), slot, i, normalize);
              }
              return null;
            }));
          }
          for (Future<?> f : parts) {
            f.get();
          }
        }
        timing.epochDone(e, (long) batches * BATCH);
      }
    } finally {
      pool.shutdown();
    }
    return timing;
  }

  static void imageIoOne(byte[] jpeg, SplittableRandom r, byte[] slot, int row, boolean normalize) throws IOException {
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
    if (normalize) { // (v - mean) / std as float16, channels first
      int plane = SIDE * SIDE * 2;
      int base = row * plane * 3;
      for (int y = 0; y < SIDE; y++) {
        for (int x = 0; x < SIDE; x++) {
          int s = (y * SIDE + (flip ? SIDE - 1 - x : x)) * 3;
          for (int c = 0; c < 3; c++) {
            short h = Float16.fromFloat((float) (((bgr[s + 2 - c] & 0xff) - MEAN[c]) / STD[c]));
            int d = base + c * plane + (y * SIDE + x) * 2;
            slot[d] = (byte) h;
            slot[d + 1] = (byte) (h >> 8);
          }
        }
      }
      return;
    }
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
