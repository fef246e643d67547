package org.sparkbeton.spark.write;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.YccPlanes;
import org.sparkbeton.codec.resize.Plane;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.codec.testing.BenchPhotos;

/**
 * Would any M/8 DCT scale lower the writer's limit? For every photo the writer resizes ({@code jpg} at
 * maxResolution 256), its plane decode at the writer's scale (the smallest of 1/8, 1/4, 1/2, 1 covering the stored
 * size, {@link ImageEncoder#plan}) against the smallest M/8 that covers it, each followed by the luma resize to the
 * stored size, on 1 thread, alternating. Arguments: {@code [photoDir=/tmp/photos] [rounds=4]}. Figures in
 * BENCHMARKS.md ("Spark writer").
 */
public final class DctScaleBenchmark {
  public static void main(String[] args) throws Exception {
    Path dir = BenchPhotos.directory(Path.of(args.length > 0 ? args[0] : "/tmp/photos"));
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    List<byte[]> jpegs = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(f -> f.toString().toLowerCase().endsWith(".jpg")).sorted().toList()) {
        jpegs.add(Files.readAllBytes(p));
      }
    }
    List<JpegStep> steps = new ArrayList<>();
    List<byte[]> resized = new ArrayList<>();
    List<Integer> anyScale = new ArrayList<>();
    int[] picked = new int[9];
    try (ImageEncoder writer = new ImageEncoder(BetonWriteConf.parse(Map.of("writeMode", "jpg", "maxResolution", "256",
        "jpegQuality", "90")), 0)) {
      for (int i = 0; i < jpegs.size(); i++) {
        JpegStep step = writer.plan(ByteBuffer.wrap(jpegs.get(i)), i);
        if (step == null || step.kind() != JpegStep.Kind.PLANES) {
          continue;
        }
        org.sparkbeton.codec.jpeg.JpegHeader h = new org.sparkbeton.codec.jpeg.JpegHeader();
        try (JpegCodec codec = JpegCodecs.fastest()) {
          codec.probe(ByteBuffer.wrap(jpegs.get(i)), h);
        }
        int m = JpegGeometry.bestScale(h.width(), h.height(), step.target().width(), step.target().height(),
            JpegGeometry.ALL_SCALES);
        picked[m]++;
        steps.add(step);
        resized.add(jpegs.get(i));
        anyScale.add(m);
      }
    }
    StringBuilder scales = new StringBuilder();
    for (int m = 1; m <= 8; m++) {
      if (picked[m] > 0) {
        scales.append(' ').append(m).append("/8: ").append(picked[m]);
      }
    }
    System.out.printf("%d photos resized as planes; the smallest M/8 that covers them:%s%n", steps.size(), scales);
    System.out.printf("%-8s %22s %22s %12s%n", "round", "writer's scale, ms", "any M/8, ms", "any / writer");
    try (JpegCodec codec = JpegCodecs.fastest()) {
      ByteBuffer decoded = ByteBuffer.allocateDirect(8 << 20);
      ByteBuffer out = ByteBuffer.allocateDirect(1 << 20);
      YccPlanes planes = new YccPlanes();
      Resizer resizer = new Resizer();
      for (int round = 0; round < rounds; round++) {
        double[] ms = new double[2];
        double[] resizeMs = new double[2];
        for (int mode = 0; mode < 2; mode++) {
          for (int i = 0; i < steps.size(); i++) {
            JpegStep step = steps.get(i);
            int scale = mode == 0 ? step.scale() : anyScale.get(i);
            long t0 = System.nanoTime();
            codec.decodePlanes(ByteBuffer.wrap(resized.get(i)), scale, Idct.ACCURATE, decoded, 0, planes);
            long t1 = System.nanoTime();
            resizer.resizePlane(Plane.packed(decoded, 0, planes.width(), planes.height()),
                Plane.packed(out, 0, step.target().width(), step.target().height()));
            long t2 = System.nanoTime();
            ms[mode] += (t1 - t0) / 1e6;
            resizeMs[mode] += (t2 - t1) / 1e6;
          }
        }
        System.out.printf("%-8d %10.0f + %4.0f resize %10.0f + %4.0f resize %11.2fx%n", round, ms[0], resizeMs[0], ms[1],
            resizeMs[1], (ms[1] + resizeMs[1]) / (ms[0] + resizeMs[0]));
      }
    }
  }
}
