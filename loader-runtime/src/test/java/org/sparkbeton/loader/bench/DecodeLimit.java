package org.sparkbeton.loader.bench;

import java.nio.ByteBuffer;
import java.util.List;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.SampleRandom;

/**
 * The decode limit of a RandomResizedCrop loader on this machine: a bare loop over beton-codec decoding
 * the same crop boxes (same seed, epochs and samples as the loader's pipeline 0, same rule) at the same
 * DCT scales into direct memory (rows left as libjpeg crops them, as the loader decodes), on the same
 * number of threads, with no resize, slot or loader around it. A loader cannot beat this; how close it
 * gets is the loader's overhead.
 */
final class DecodeLimit {
  private DecodeLimit() {}

  /** Throughput over {@code epochs} epochs after one warm-up epoch; JPEGs copied once into direct memory. */
  static Throughput measure(List<byte[]> jpegs, int[][] sizes, long seed, int threads, int side, int epochs)
      throws InterruptedException {
    return measure(direct(jpegs), sizes, seed, threads, side, epochs);
  }

  /** The JPEGs copied into direct memory, as {@link #measure} and {@link #epoch} read them. */
  static ByteBuffer[] direct(List<byte[]> jpegs) {
    ByteBuffer[] sources = new ByteBuffer[jpegs.size()];
    for (int i = 0; i < sources.length; i++) {
      sources[i] = ByteBuffer.allocateDirect(jpegs.get(i).length).put(jpegs.get(i)).flip();
    }
    return sources;
  }

  /** One epoch ({@code epoch} picks the boxes), no warm-up: images/s by the wall clock and per CPU-second. */
  static double[] epoch(ByteBuffer[] sources, int[][] sizes, long seed, int threads, int side, int epoch)
      throws InterruptedException {
    Throughput t = new Throughput();
    t.start();
    run(sources, sizes, seed, threads, side, epoch, 1);
    t.epochDone(1, sources.length);
    return new double[] {t.restWall(), t.restCpu()};
  }

  static Throughput measure(ByteBuffer[] sources, int[][] sizes, long seed, int threads, int side, int epochs)
      throws InterruptedException {
    Throughput t = new Throughput();
    t.start();
    run(sources, sizes, seed, threads, side, 0, 1);
    t.epochDone(0, sources.length);
    run(sources, sizes, seed, threads, side, 1, epochs);
    t.epochDone(1, (long) sources.length * epochs);
    return t;
  }

  private static void run(ByteBuffer[] sources, int[][] sizes, long seed, int threads, int side, int firstEpoch,
      int epochs) throws InterruptedException {
    Thread[] workers = new Thread[threads];
    long[] checksum = new long[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers[t] = new Thread(() -> {
        int maxPixels = 0;
        for (int[] s : sizes) {
          maxPixels = Math.max(maxPixels, s[0] * s[1]);
        }
        ByteBuffer out = ByteBuffer.allocateDirect(maxPixels * 3);
        SampleContext ctx = new SampleContext(seed, id);
        int[] box = new int[4];
        int[] layout = new int[2];
        try (JpegCodec codec = JpegCodecs.fastest()) {
          for (int e = firstEpoch; e < firstEpoch + epochs; e++) {
            for (int i = id; i < sources.length; i += threads) {
              ctx.begin(0, e, i, 0);
              ctx.enterStage(0);
              rrcBox(sizes[i][1], sizes[i][0], ctx.random(), box);
              int m = JpegGeometry.bestScale(box[3], box[2], side, side, JpegGeometry.FAST_SCALES);
              ByteBuffer src = sources[i].duplicate();
              // padded rows, as the loader decodes: the scanlines land in `out` with no row copy
              checksum[id] += codec.decodeRegionPadded(src, box[1], box[0], box[3], box[2], m, Idct.FAST, out, 0,
                  layout);
            }
          }
        }
      });
      workers[t].start();
    }
    for (Thread w : workers) {
      w.join();
    }
  }

  /** torchvision's RandomResizedCrop box, scale (0.08, 1), ratio (3/4, 4/3), as the loader's decoder draws it. */
  static void rrcBox(int height, int width, SampleRandom random, int[] box) {
    double area = (double) height * width;
    double logMin = Math.log(3.0 / 4.0);
    double logMax = Math.log(4.0 / 3.0);
    for (int t = 0; t < 10; t++) {
      double target = area * (0.08 + (1 - 0.08) * random.nextDouble());
      double aspect = Math.exp(logMin + (logMax - logMin) * random.nextDouble());
      int w = (int) Math.rint(Math.sqrt(target * aspect));
      int h = (int) Math.rint(Math.sqrt(target / aspect));
      if (w > 0 && w <= width && h > 0 && h <= height) {
        box[0] = (int) ((height - h + 1) * random.nextDouble());
        box[1] = (int) ((width - w + 1) * random.nextDouble());
        box[2] = h;
        box[3] = w;
        return;
      }
    }
    double inRatio = (double) width / height;
    int w = width;
    int h = height;
    if (inRatio < 3.0 / 4.0) {
      h = (int) Math.rint(w / (3.0 / 4.0));
    } else if (inRatio > 4.0 / 3.0) {
      w = (int) Math.rint(h * (4.0 / 3.0));
    }
    h = Math.max(1, Math.min(h, height));
    w = Math.max(1, Math.min(w, width));
    box[0] = (height - h) / 2;
    box[1] = (width - w) / 2;
    box[2] = h;
    box[3] = w;
  }
}
