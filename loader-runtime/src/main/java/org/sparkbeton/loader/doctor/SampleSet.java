package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.ImageTranscoder;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.Counts;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.LoaderFailedException;
import org.sparkbeton.loader.io.Shards;

/**
 * The sample the doctor measures CPU work on, held in memory (a {@code .beton} file per variant in a work folder,
 * {@code /dev/shm} where there is one): the chosen samples' images as stored, and the same images as
 * {@code beton prepare} would store them with other settings, made with the writer's own codec steps
 * ({@link ImageTranscoder}: area resize to the longer side, JPEG q90 4:2:0). Reading them costs no storage, so
 * what the loader does with them is pure CPU, and each variant's speed is measured, not guessed.
 */
final class SampleSet implements AutoCloseable {
  /** How the images of a variant are stored. */
  enum Variant {
    /** As in the dataset (payloads copied unchanged). */
    STORED,
    /** {@code beton prepare --max-resolution R}: JPEGs re-encoded at q90, RAW images resized. */
    RESIZED,
    /** {@code beton prepare --max-resolution R --mode proportion}: each image JPEG with probability 0.5, else RAW. */
    PROPORTION
  }

  /** Probability that {@code --mode proportion} stores an image as JPEG (the writer's default). */
  static final double JPEG_PROBABILITY = 0.5;
  static final int QUALITY = 90;

  private final Path dir;
  private final int[] samples; // the dataset's index of each of the set's images, in the set's order
  private final Map<Variant, Path> files = new EnumMap<>(Variant.class);
  private final Map<Variant, Long> bytes = new EnumMap<>(Variant.class);

  private SampleSet(Path dir, int[] samples) {
    this.dir = dir;
    this.samples = samples;
  }

  /**
   * Writes the {@code samples} (global indices) of {@code field} as stored and, when {@code maxResolution > 0},
   * the variants at that longer side, transcoding on {@code threads} threads.
   */
  static SampleSet write(Shards shards, int field, int[] samples, Path workDir, int maxResolution, List<Variant> variants,
      int threads) throws IOException {
    Path dir = Files.createTempDirectory(workDir, "beton-doctor-");
    SampleSet set = new SampleSet(dir, samples.clone());
    try {
      RgbImage[] stored = new RgbImage[samples.length];
      for (int i = 0; i < samples.length; i++) {
        int s = shards.shardOf(samples[i]);
        stored[i] = (RgbImage) shards.reader(s).value(samples[i] - shards.start(s), field);
      }
      set.put(Variant.STORED, stored);
      for (Variant v : variants) {
        if (v != Variant.STORED) {
          set.put(v, transcode(stored, samples, v, maxResolution, threads));
        }
      }
    } catch (IOException | RuntimeException e) {
      set.close();
      throw e;
    }
    return set;
  }

  Path file(Variant v) {
    return files.get(v);
  }

  boolean has(Variant v) {
    return files.containsKey(v);
  }

  int size() {
    return samples.length;
  }

  /**
   * A loader's data failure on one of this set's files, said of the dataset's own sample: the set is a temporary
   * copy the user never named, so its path and its sample index would send them to the wrong place. The message
   * names the dataset's shard and the sample's index there, as the loader over the dataset would; not a data
   * failure, or outside one sample, it is returned as it is.
   */
  RuntimeException ofDataset(LoaderFailedException e, Shards shards, String dataset) {
    if (!e.isDataError() || e.sample() < 0 || e.sample() >= samples.length) {
      return e;
    }
    int inSet = (int) e.sample();
    int sample = samples[inSet];
    int shard = shards.shardOf(sample);
    String where = shards.reader(shard).file() + ", sample " + (sample - shards.start(shard));
    Throwable cause = e.getCause();
    String reason = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    String copy = null;
    for (Path file : files.values()) {
      String prefix = file + ", sample " + inSet;
      if (reason.startsWith(prefix)) {
        copy = prefix;
      }
    }
    String located = copy != null ? where + reason.substring(copy.length()) : where + ": " + reason;
    return new IllegalArgumentException(located + " (sample " + sample + " of " + dataset + ", read by the doctor's"
        + " training loader from its copy of " + Counts.of(samples.length, "sample") + " in memory)", e);
  }

  /** Mean bytes of one image's payload in variant {@code v}. */
  double meanPayload(Variant v) {
    return (double) bytes.get(v) / samples.length;
  }

  private void put(Variant v, RgbImage[] images) throws IOException {
    long maxPayload = 1;
    long total = 0;
    for (RgbImage img : images) {
      maxPayload = Math.max(maxPayload, img.payload().remaining());
      total += img.payload().remaining();
    }
    long pageSize = Math.max(BetonFormat.MIN_PAGE_SIZE, Long.highestOneBit(maxPayload - 1) << 1);
    Path file = dir.resolve(v.name().toLowerCase(java.util.Locale.ROOT) + ".beton");
    try (BetonWriter w = BetonWriter.builder(List.of(new BetonField("image", RgbImageField.INSTANCE)))
        .pageSize(pageSize).open(file)) {
      for (RgbImage img : images) {
        w.append(img);
      }
      w.finish();
    }
    files.put(v, file);
    bytes.put(v, total);
  }

  private static RgbImage[] transcode(RgbImage[] stored, int[] samples, Variant v, int maxResolution, int threads)
      throws IOException {
    RgbImage[] out = new RgbImage[stored.length];
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
      Thread t = new Thread(r, "beton-doctor-transcode");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> parts = new ArrayList<>();
      int n = Math.max(1, threads);
      for (int t = 0; t < n; t++) {
        int id = t;
        parts.add(pool.submit(() -> {
          try (JpegCodec codec = JpegCodecs.fastest()) {
            ImageTranscoder transcoder = new ImageTranscoder(codec, maxResolution, QUALITY, ChromaSubsampling.S420);
            Resizer resizer = new Resizer();
            for (int i = id; i < stored.length; i += n) {
              boolean raw = v == Variant.PROPORTION
                  && new SplittableRandom(samples[i] * 0x9E3779B97F4A7C15L + 7).nextDouble() >= JPEG_PROBABILITY;
              try {
                out[i] = raw ? raw(stored[i], maxResolution, resizer) : jpegOrResizedRaw(stored[i], transcoder,
                    maxResolution, resizer);
              } catch (RuntimeException e) {
                throw new IllegalArgumentException("Cannot re-encode the image of sample " + samples[i] + " for the"
                    + " doctor's sample: " + e.getMessage(), e);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : parts) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while re-encoding the doctor's sample", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException("Cannot re-encode the doctor's sample", e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return out;
  }

  /** A JPEG re-encoded as the writer would (passed through when already small enough); RAW stays RAW, resized. */
  private static RgbImage jpegOrResizedRaw(RgbImage img, ImageTranscoder transcoder, int maxResolution,
      Resizer resizer) {
    if (img.mode() == ImageMode.RAW) {
      return raw(img, maxResolution, resizer);
    }
    ImageTranscoder.Result r = transcoder.transcode(img.payloadBytes());
    return RgbImage.jpeg(r.width(), r.height(), r.jpeg());
  }

  /** The image as RAW pixels with its longer side at most {@code maxResolution}. */
  private static RgbImage raw(RgbImage img, int maxResolution, Resizer resizer) {
    int w = img.width();
    int h = img.height();
    byte[] pixels = img.payloadBytes();
    if (img.mode() != ImageMode.RAW) {
      RgbPixels decoded = ImageDecoder.decode(pixels);
      w = decoded.width();
      h = decoded.height();
      pixels = decoded.pixels();
    }
    long target = Resizer.fitWithin(w, h, maxResolution);
    int tw = ImageSize.width(target);
    int th = ImageSize.height(target);
    if (tw == w && th == h) {
      return RgbImage.raw(w, h, pixels);
    }
    ByteBuffer out = ByteBuffer.allocate(tw * th * 3);
    resizer.resize(ByteBuffer.wrap(pixels), 0, w * 3, 0, 0, w, h, out, 0, tw, th);
    return RgbImage.raw(tw, th, out.array());
  }

  /** Deletes the files. */
  @Override
  public void close() {
    try (var list = Files.list(dir)) {
      for (Path p : list.toList()) {
        Files.deleteIfExists(p);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the doctor's sample in " + dir, e);
    }
  }
}
