package org.sparkbeton.loader.bench;

import java.nio.ByteBuffer;
import java.util.List;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.loader.decoders.CropRgbDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.pipeline.SampleContext;

/**
 * The decode limit of a JPEG loader on this machine: a bare loop over beton-codec ({@link JpegCodecs#fastest()})
 * decoding the same crop boxes as the loader's pipeline 0 (same seed, epochs and sample indices, the decoder's own
 * box rule through its {@code cropBox}) at the same DCT scales (the loader's own rule,
 * {@link CropRgbDecoder#dctScale}) with the same codec call into direct memory (rows left as libjpeg crops them, as
 * the loader decodes), on the same number of threads, with no resize, slot or loader around it ({@link #plan}
 * says what it decodes for one image). A loader cannot beat this; how close it
 * gets is the loader's overhead. Used by {@code beton bench --decode-limit} and the loader's benchmarks.
 */
public final class DecodeLimit {
  /** How a decoder picks a sample's box: writes top, left, height, width into {@code box[0..3]}. */
  @FunctionalInterface
  public interface Crop {
    void box(int height, int width, SampleContext ctx, int[] box);
  }

  /**
   * torchvision's RandomResizedCrop box, scale (0.08, 1), ratio (3/4, 4/3): the rule of
   * {@link RandomResizedCropRgbDecoder}'s default constructor (it never decodes, so it holds no codec handle).
   */
  public static final Crop RANDOM_RESIZED = new RandomResizedCropRgbDecoder(1, 1)::cropBox;

  /** The whole image (SimpleRGB: a full decode at 8/8). */
  public static final Crop WHOLE = (height, width, ctx, box) -> {
    box[0] = 0;
    box[1] = 0;
    box[2] = height;
    box[3] = width;
  };

  private DecodeLimit() {}

  /**
   * JPEG payloads in direct memory with their sizes and the sample index the loader knows each by (its boxes
   * depend on it).
   *
   * @param sizes {width, height} of each
   */
  public record Images(ByteBuffer[] jpegs, int[][] sizes, int[] samples) {
    /** Copies the JPEGs into direct memory once; sample i is index i. */
    public static Images of(List<byte[]> jpegs, int[][] sizes) {
      int[] samples = new int[jpegs.size()];
      for (int i = 0; i < samples.length; i++) {
        samples[i] = i;
      }
      return of(jpegs, sizes, samples);
    }

    /** Copies the JPEGs into direct memory once. */
    public static Images of(List<byte[]> jpegs, int[][] sizes, int[] samples) {
      ByteBuffer[] direct = new ByteBuffer[jpegs.size()];
      for (int i = 0; i < direct.length; i++) {
        direct[i] = ByteBuffer.allocateDirect(jpegs.get(i).length).put(jpegs.get(i)).flip();
      }
      return new Images(direct, sizes, samples);
    }

    public int count() {
      return jpegs.length;
    }
  }

  /** Throughput over {@code epochs} epochs after one warm-up epoch, RandomResizedCrop to {@code side}. */
  public static Throughput measure(List<byte[]> jpegs, int[][] sizes, long seed, int threads, int side, int epochs)
      throws InterruptedException {
    return measure(Images.of(jpegs, sizes), RANDOM_RESIZED, side, side, seed, threads, epochs);
  }

  /** Throughput over {@code epochs} epochs after one warm-up epoch (epoch 0). */
  public static Throughput measure(Images images, Crop crop, int outH, int outW, long seed, int threads, int epochs)
      throws InterruptedException {
    Throughput t = new Throughput();
    t.start();
    run(images, crop, outH, outW, seed, threads, 0, 1, false);
    t.epochDone(0, images.count());
    run(images, crop, outH, outW, seed, threads, 1, epochs, false);
    t.epochDone(1, (long) images.count() * epochs);
    return t;
  }

  /**
   * One epoch ({@code epoch} picks the boxes), no warm-up: images/s by the wall clock and per CPU-second.
   * {@code outH} or {@code outW} 0: each box decoded at full size (no DCT scaling), as SimpleRGB does.
   */
  public static Rate epoch(Images images, Crop crop, int outH, int outW, long seed, int threads, int epoch)
      throws InterruptedException {
    return timed(images, crop, outH, outW, seed, threads, epoch, false);
  }

  /**
   * One epoch of the limit plus the loader's resize: each decoded box then resized to {@code outH x outW} by
   * {@link Resizer} as the loader's crop stage resizes it (into a per-thread direct buffer; no flip, slot or
   * loader). Not a limit: it tells how much of a loader's distance from {@link #epoch} is the resize itself.
   */
  public static Rate resizeEpoch(Images images, Crop crop, int outH, int outW, long seed, int threads, int epoch)
      throws InterruptedException {
    if (outH <= 0 || outW <= 0) {
      throw new IllegalArgumentException("resizeEpoch needs an output size, got " + outH + "x" + outW);
    }
    return timed(images, crop, outH, outW, seed, threads, epoch, true);
  }

  private static Rate timed(Images images, Crop crop, int outH, int outW, long seed, int threads, int epoch,
      boolean resize) throws InterruptedException {
    long wall = System.nanoTime();
    long cpu = Throughput.processCpuNanos();
    run(images, crop, outH, outW, seed, threads, epoch, 1, resize);
    return new Rate(images.count(), System.nanoTime() - wall, Throughput.processCpuNanos() - cpu);
  }

  /** Images decoded in a span of wall-clock and process CPU time. */
  public record Rate(long images, long wallNanos, long cpuNanos) {
    public double perSecond() {
      return images / (wallNanos / 1e9);
    }

    public double perCpuSecond() {
      return images / (cpuNanos / 1e9);
    }
  }

  /**
   * What the limit decodes for image {@code i} of {@code images} in {@code epoch}: writes the crop box (top, left,
   * height, width) into {@code box} and returns the DCT scale M of M/8, drawn as the loader's stage draws them
   * ({@code ctx} is the worker's; {@code outH} or {@code outW} 0: full size, 8/8).
   */
  public static int plan(Images images, int i, Crop crop, int outH, int outW, SampleContext ctx, int epoch, int[] box) {
    int[] size = images.sizes()[i];
    ctx.begin(0, epoch, images.samples()[i], 0);
    ctx.enterStage(0);
    crop.box(size[1], size[0], ctx, box);
    return outH <= 0 || outW <= 0 ? 8 : CropRgbDecoder.dctScale(box[3], box[2], outW, outH);
  }

  private static void run(Images images, Crop crop, int outH, int outW, long seed, int threads, int firstEpoch,
      int epochs, boolean resize) throws InterruptedException {
    Thread[] workers = new Thread[threads];
    long[] checksum = new long[threads];
    Throwable[] failure = new Throwable[1];
    int maxPixels = 0;
    for (int[] s : images.sizes()) {
      maxPixels = Math.max(maxPixels, s[0] * s[1]);
    }
    int pixels = maxPixels;
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers[t] = new Thread(() -> {
        ByteBuffer out = ByteBuffer.allocateDirect(pixels * 3);
        ByteBuffer resized = resize ? ByteBuffer.allocateDirect(outH * outW * 3) : null;
        Resizer resizer = resize ? new Resizer() : null;
        SampleContext ctx = new SampleContext(seed, id);
        int[] box = new int[4];
        int[] layout = new int[2];
        try (JpegCodec codec = JpegCodecs.fastest()) {
          for (int e = firstEpoch; e < firstEpoch + epochs; e++) {
            for (int i = id; i < images.count(); i += threads) {
              int m = plan(images, i, crop, outH, outW, ctx, e, box);
              ByteBuffer src = images.jpegs()[i].duplicate();
              // padded rows, as the loader decodes: the scanlines land in `out` with no row copy
              long got = codec.decodeRegionPadded(src, box[1], box[0], box[3], box[2], m, Idct.FAST, out, 0, layout);
              checksum[id] += got;
              if (resize) {
                // the crop stage's call: the box read through the padded rows' stride
                resizer.resize(out, 0, layout[1] * 3, layout[0], 0, ImageSize.width(got), ImageSize.height(got),
                    resized, 0, outW, outH);
              }
            }
          }
        } catch (RuntimeException | Error e) {
          synchronized (failure) {
            failure[0] = e;
          }
        }
      }, "beton-decode-limit-" + t);
      workers[t].start();
    }
    for (Thread w : workers) {
      w.join();
    }
    if (failure[0] != null) {
      throw new IllegalStateException("Decode limit: " + failure[0].getMessage(), failure[0]);
    }
  }
}
