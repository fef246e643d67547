package org.sparkbeton.spark.write;

import java.nio.ByteBuffer;
import java.util.List;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.jpeg.YccPlanes;
import org.sparkbeton.format.fields.RgbImage;

/**
 * Issue 24's yardstick for the writer: bare libjpeg-turbo doing only what the image step must do to each photo,
 * nothing else. For each photo, the decode the writer itself does ({@link ImageEncoder#plan}: the same DCT scale,
 * to Y, Cb and Cr planes or to RGB as the writer would), then the encode of an image of the writer's output size at
 * the writer's quality: no resize, no file read, no row, page or hash. A photo the writer stores as it came costs
 * its 1/8 check decode (with {@code jpegPassThroughCheck=decode}) and no encode. The images encoded are the writer's
 * own resized photos, prepared once (decoded from its output) so that the encoder sees the same content as the
 * writer's. For {@link WriterBenchmark}.
 */
final class WriterLimit {
  private final List<byte[]> jpegs;
  private final BetonWriteConf conf;
  private final JpegStep[] steps;
  /** Per photo, the image its encode takes: 4:2:0 planes or RGB of the stored size; null where none. */
  private final byte[][] encodeInputs;
  /** The largest decode of any photo at its scale, 3 bytes a pixel (also a bound of its planes). */
  private final int maxDecodeBytes;

  /** Plans every photo of {@code jpegs} with {@code conf}'s rules and prepares its encode's input. */
  WriterLimit(List<byte[]> jpegs, BetonWriteConf conf) {
    this.jpegs = jpegs;
    this.conf = conf;
    this.steps = new JpegStep[jpegs.size()];
    this.encodeInputs = new byte[jpegs.size()][];
    int maxBytes = 0;
    try (ImageEncoder encoder = new ImageEncoder(conf, 0); JpegCodec codec = JpegCodecs.fastest()) {
      YccPlanes planes = new YccPlanes();
      JpegHeader header = new JpegHeader();
      for (int i = 0; i < jpegs.size(); i++) {
        JpegStep step = encoder.plan(ByteBuffer.wrap(jpegs.get(i)), i);
        if (step == null) {
          throw new IllegalArgumentException("photo " + i + " needs the writer's general decoder (EXIF rotation, "
              + "CMYK or YCCK), which this limit does not model");
        }
        steps[i] = step;
        codec.probe(ByteBuffer.wrap(jpegs.get(i)), header);
        int scale = Math.max(1, step.scale());
        maxBytes = Math.max(maxBytes, 3 * JpegGeometry.scaledDim(header.width(), scale)
            * JpegGeometry.scaledDim(header.height(), scale));
        if (step.kind() == JpegStep.Kind.PASS_THROUGH || !step.jpeg()) {
          continue;
        }
        RgbImage stored = encoder.fromEncoded(jpegs.get(i), i);
        int w = stored.width();
        int h = stored.height();
        ByteBuffer pixels = ByteBuffer.allocate(w * h * 3);
        if (step.kind() == JpegStep.Kind.PLANES) {
          codec.decodePlanes(stored.payload(), 8, Idct.ACCURATE, pixels, 0, planes);
          if (planes.chromaWidth() != YccPlanes.chromaSide420(w) || planes.chromaHeight() != YccPlanes.chromaSide420(h)) {
            throw new IllegalStateException("photo " + i + ": the writer's output is not 4:2:0");
          }
          encodeInputs[i] = java.util.Arrays.copyOf(pixels.array(), planes.totalBytes());
        } else {
          codec.decode(stored.payload(), 8, Idct.ACCURATE, pixels, 0);
          encodeInputs[i] = pixels.array();
        }
      }
    }
    this.maxDecodeBytes = maxBytes;
  }

  /** Photos of each kind, for the benchmark's header line. */
  String describe() {
    int[] kinds = new int[JpegStep.Kind.values().length];
    int[] scales = new int[9];
    for (JpegStep s : steps) {
      kinds[s.kind().ordinal()]++;
      if (s.kind() != JpegStep.Kind.PASS_THROUGH) {
        scales[s.scale()]++;
      }
    }
    StringBuilder b = new StringBuilder();
    for (JpegStep.Kind k : JpegStep.Kind.values()) {
      b.append(k.name().toLowerCase().replace('_', '-')).append(' ').append(kinds[k.ordinal()]).append(", ");
    }
    b.append("decoded at");
    for (int m = 1; m <= 8; m++) {
      if (scales[m] > 0) {
        b.append(' ').append(m).append("/8: ").append(scales[m]);
      }
    }
    return b.toString();
  }

  /** Seconds for {@code threads} threads to do every photo's decode and encode. */
  double seconds(int threads) throws Exception {
    return WriterBenchmark.inParallel(threads, first -> run(first, threads));
  }

  /** Photos {@code first}, {@code first + stride}, ... on the calling thread. */
  void run(int first, int stride) {
    try (JpegCodec codec = JpegCodecs.fastest(conf.jpegStrictness)) {
      YccPlanes planes = new YccPlanes();
      ByteBuffer decoded = ByteBuffer.allocateDirect(maxDecodeBytes);
      ByteBuffer encoded = ByteBuffer.allocateDirect(1 << 20);
      for (int i = first; i < jpegs.size(); i += stride) {
        JpegStep step = steps[i];
        ByteBuffer src = ByteBuffer.wrap(jpegs.get(i));
        switch (step.kind()) {
          case PASS_THROUGH -> {
            if (step.scale() > 0) {
              codec.decode(src, step.scale(), Idct.FAST, decoded, 0);
            }
          }
          case PLANES -> codec.decodePlanes(src, step.scale(), Idct.ACCURATE, decoded, 0, planes);
          default -> codec.decode(src, step.scale(), Idct.ACCURATE, decoded, 0);
        }
        byte[] input = encodeInputs[i];
        if (input == null) {
          continue;
        }
        int w = step.target().width();
        int h = step.target().height();
        int max = JpegCodec.maxEncodedSize(w, h);
        if (encoded.capacity() < max) {
          encoded = ByteBuffer.allocateDirect(max);
        }
        if (step.kind() == JpegStep.Kind.PLANES) {
          codec.encodePlanes(ByteBuffer.wrap(input), 0, w, h, conf.jpegQuality, encoded, 0);
        } else {
          codec.encode(ByteBuffer.wrap(input), 0, w, h, conf.jpegQuality, conf.subsampling, encoded, 0);
        }
      }
    }
  }
}
