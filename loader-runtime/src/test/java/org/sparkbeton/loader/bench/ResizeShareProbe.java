package org.sparkbeton.loader.bench;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.loader.pipeline.SampleContext;

/**
 * How much of the JPEG loader's work the resize is, not a test: on one thread, the decode limit's own loop
 * ({@link DecodeLimit#plan}: the loader's RandomResizedCrop boxes and DCT scales, the loader's region decode) with
 * the loader's resize of each decoded box to 224x224 (the benchmark's side) after it, each call timed on its own, split by what the resize
 * does: enlarge both sides (bilinear), enlarge one, or shrink both (area). The decode limit leaves the resize out, so
 * its share here bounds how close the loader can come to that limit.
 *
 * <p>Arguments: {@code [photos=/tmp/photos] [count=5000] [epochs=4]}; epoch 0 warms up and is not printed. The figures
 * are in BENCHMARKS.md ("Training loader, JPEG").
 */
public final class ResizeShareProbe {
  private static final int SIDE = JpegLoaderBenchmark.SIDE;
  private static final String[] KINDS = {"enlarge both sides (bilinear)", "enlarge one side (bilinear)",
      "shrink both sides (area)"};

  private ResizeShareProbe() {}

  public static void main(String[] args) throws Exception {
    List<byte[]> jpegs = JpegLoaderBenchmark.read(Path.of(args.length > 0 ? args[0] : "/tmp/photos"),
        args.length > 1 ? Integer.parseInt(args[1]) : 5000);
    int epochs = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int[][] sizes = new int[jpegs.size()][];
    JpegHeader header = new JpegHeader();
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int i = 0; i < sizes.length; i++) {
        codec.probe(ByteBuffer.wrap(jpegs.get(i)), header);
        sizes[i] = new int[] {header.width(), header.height()};
      }
    }
    DecodeLimit.Images images = DecodeLimit.Images.of(jpegs, sizes);
    int maxPixels = 0;
    for (int[] s : sizes) {
      maxPixels = Math.max(maxPixels, s[0] * s[1]);
    }
    ByteBuffer decoded = ByteBuffer.allocateDirect(maxPixels * 3);
    ByteBuffer resized = ByteBuffer.allocateDirect(SIDE * SIDE * 3);
    Resizer resizer = new Resizer();
    SampleContext ctx = new SampleContext(JpegLoaderBenchmark.SEED, 0);
    int[] box = new int[4];
    int[] layout = new int[2];
    System.out.printf(Locale.ROOT, "%d photos, 1 thread, RandomResizedCrop %dx%d boxes at the loader's DCT scales%n",
        jpegs.size(), SIDE, SIDE);
    System.out.println("| epoch | resize | photos | decode us each | resize us each | resize share of decode + resize |");
    System.out.println("|---:|---|---:|---:|---:|---:|");
    try (JpegCodec codec = JpegCodecs.fastest()) {
      for (int e = 0; e <= epochs; e++) {
        long[] decodeNs = new long[3];
        long[] resizeNs = new long[3];
        int[] count = new int[3];
        for (int i = 0; i < images.count(); i++) {
          int m = DecodeLimit.plan(images, i, DecodeLimit.RANDOM_RESIZED, SIDE, SIDE, ctx, e, box);
          long t0 = System.nanoTime();
          long got = codec.decodeRegionPadded(images.jpegs()[i].duplicate(), box[1], box[0], box[3], box[2], m,
              Idct.FAST, decoded, 0, layout);
          long t1 = System.nanoTime();
          int w = ImageSize.width(got);
          int h = ImageSize.height(got);
          resizer.resize(decoded, 0, layout[1] * 3, layout[0], 0, w, h, resized, 0, SIDE, SIDE);
          long t2 = System.nanoTime();
          int kind = w < SIDE && h < SIDE ? 0 : w < SIDE || h < SIDE ? 1 : 2;
          decodeNs[kind] += t1 - t0;
          resizeNs[kind] += t2 - t1;
          count[kind]++;
        }
        if (e == 0) {
          continue;
        }
        long all = 0;
        long allResize = 0;
        for (int k = 0; k < 3; k++) {
          all += decodeNs[k] + resizeNs[k];
          allResize += resizeNs[k];
        }
        for (int k = 0; k < 3; k++) {
          System.out.printf(Locale.ROOT, "| %d | %s | %d | %.1f | %.1f | %.3f |%n", e, KINDS[k], count[k],
              decodeNs[k] / 1e3 / Math.max(1, count[k]), resizeNs[k] / 1e3 / Math.max(1, count[k]),
              resizeNs[k] / (double) all);
        }
        System.out.printf(Locale.ROOT, "| %d | all | %d | | | **%.3f** |%n", e, images.count(), allResize / (double) all);
      }
    }
  }
}
