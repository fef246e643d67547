package org.sparkbeton.spark.write;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.sparkbeton.codec.ImageDecodeException;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.PixelLimit;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegColorSpace;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.jpeg.JpegMarkers;
import org.sparkbeton.codec.jpeg.Strictness;
import org.sparkbeton.codec.jpeg.YccPlanes;
import org.sparkbeton.codec.resize.Plane;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;

/**
 * The per-row image step of the writer, on executors (FFCV {@code RGBImageField.encode}): decode,
 * resize with FFCV's rules (longer side to {@code maxResolution} or shorter side to
 * {@code minResolution}, sizes truncated, never upscaled, area filter), then store as raw RGB or JPEG
 * by write mode. JPEG inputs are decoded by the fastest codec at the smallest DCT scale that still
 * covers the target size; a JPEG to be stored as JPEG at its own size is passed through untouched
 * (lossless, and no encode; FFCV always re-encodes) once a decode at 1/8 scale shows it whole (option
 * {@code jpegPassThroughCheck}). Every image's size is read from its header and checked against
 * {@code maxImagePixels} before anything is decoded, and JPEGs are decoded {@link Strictness#STRICT strictly} unless
 * {@code jpegStrict=false}. A YCbCr JPEG re-encoded as a 4:2:0 JPEG is resized as its
 * Y, Cb and Cr planes (unless {@code jpegResizeSpace=rgb}): Y to the target size, chroma to half of it, so
 * libjpeg neither upsamples and converts the chroma on decode nor converts and downsamples it on encode.
 * One instance per task thread.
 *
 * <p>Decoded and resized pixels live in two direct buffers reused from image to image (the native
 * resize twin needs direct memory), and so does the JPEG output; a payload returned by this class is a view
 * of one of them (or of the caller's input), valid until the next call, which is enough because the writer
 * copies it into its page at once.
 */
final class ImageEncoder implements AutoCloseable {
  private final BetonWriteConf conf;
  private final int partition;
  private final JpegCodec codec;
  private final PixelLimit pixelLimit;
  private final JpegHeader header = new JpegHeader();
  private final Resizer resizer = new Resizer();
  private final ChromaSubsampling subsampling;
  private final YccPlanes planes = new YccPlanes();
  private ByteBuffer decoded = ByteBuffer.allocateDirect(1 << 20);
  private ByteBuffer resized = ByteBuffer.allocateDirect(1 << 20);
  /** JPEG output; sized for the worst case, so a fresh array of that size per image is not needed. */
  private ByteBuffer encoded = ByteBuffer.allocateDirect(1 << 20);
  private final TaskCounters counters;

  /** With counters of its own (tests, benchmarks). */
  ImageEncoder(BetonWriteConf conf, int partition) {
    this(conf, partition, new TaskCounters());
  }

  /** Counting into the task's {@code counters}. */
  ImageEncoder(BetonWriteConf conf, int partition, TaskCounters counters) {
    this.conf = conf;
    this.counters = counters;
    this.partition = partition;
    this.codec = JpegCodecs.fastest(conf.jpegStrictness);
    this.pixelLimit = new PixelLimit(conf.maxImagePixels, "option maxImagePixels");
    this.subsampling = conf.subsampling;
  }

  TaskCounters counters() {
    return counters;
  }

  /** An encoded image in any format the codec layer reads. */
  RgbImage fromEncoded(byte[] input, long row) {
    return fromEncoded(ByteBuffer.wrap(input), row);
  }

  /**
   * An encoded image in any format the codec layer reads: the bytes from position to limit of {@code input},
   * which may be a view of Spark's row (a passed-through JPEG payload is returned as such a view).
   */
  RgbImage fromEncoded(ByteBuffer input, long row) {
    int at = input.position();
    int n = input.remaining();
    counters.addImageBytesIn(n);
    if (n >= 3 && (input.get(at) & 0xff) == 0xFF && (input.get(at + 1) & 0xff) == 0xD8
        && (input.get(at + 2) & 0xff) == 0xFF) {
      RgbImage fast = fromPlainJpeg(input.slice(), row);
      if (fast != null) {
        return fast;
      }
    }
    byte[] bytes;
    if (input.hasArray() && input.arrayOffset() + at == 0 && n == input.array().length) {
      bytes = input.array(); // a whole array (fromEncoded(byte[])): no copy
    } else {
      bytes = new byte[n];
      input.get(at, bytes);
    }
    long t0 = System.nanoTime();
    RgbPixels decoded = ImageDecoder.decode(bytes, pixelLimit, codec.strictness());
    counters.addDecodeNanos(System.nanoTime() - t0);
    return fromPixels(decoded.pixels(), decoded.width(), decoded.height(), row);
  }

  /** H x W x 3 RGB pixels. */
  RgbImage fromPixels(byte[] rgb, int w, int h, long row) {
    pixelLimit.check(w, h);
    StoredSize target = targetSize(w, h);
    int tw = target.width();
    int th = target.height();
    decoded = ensure(decoded, rgb.length);
    decoded.put(0, rgb);
    ByteBuffer pixels = resized(decoded, w, h, tw, th);
    return store(pixels, tw, th, row);
  }

  /** Null when the JPEG needs the general decoder (EXIF rotation, CMYK/YCCK). */
  private RgbImage fromPlainJpeg(ByteBuffer src, long row) {
    JpegStep step = plan(src, row);
    if (step == null) {
      return null;
    }
    int w = header.width();
    int h = header.height();
    int tw = step.target().width();
    int th = step.target().height();
    switch (step.kind()) {
      case PASS_THROUGH -> {
        // stored as they are, so no decoder will look at them later here: refuse a stream that is cut short, and
        // (jpegPassThroughCheck=decode) one that does not decode, or not to the size its header gives
        JpegMarkers.requireComplete(src);
        if (step.scale() > 0) {
          checkByDecoding(src, w, h);
        }
        counters.countPassedThrough();
        return new RgbImage(ImageMode.JPG, w, h, src);
      }
      case PLANES -> {
        decoded = ensure(decoded, Math.multiplyExact(Math.multiplyExact(JpegGeometry.scaledDim(w, step.scale()),
            JpegGeometry.scaledDim(h, step.scale())), 3)); // YccPlanes.maxBytes
        long t0 = System.nanoTime();
        codec.decodePlanes(src, step.scale(), Idct.ACCURATE, decoded, 0, planes);
        counters.addDecodeNanos(System.nanoTime() - t0);
        return reencodedPlanes(tw, th);
      }
      default -> {
        int sw = JpegGeometry.scaledDim(w, step.scale());
        int sh = JpegGeometry.scaledDim(h, step.scale());
        decoded = ensure(decoded, Math.multiplyExact(Math.multiplyExact(sw, sh), 3));
        long t0 = System.nanoTime();
        codec.decode(src, step.scale(), Idct.ACCURATE, decoded, 0);
        counters.addDecodeNanos(System.nanoTime() - t0);
        return store(resized(decoded, sw, sh, tw, th), tw, th, row);
      }
    }
  }

  /**
   * What this step does to the JPEG from position to limit of {@code src} (its header probed into this encoder's,
   * and its size checked against {@code maxImagePixels}); null when it needs the general decoder (EXIF rotation,
   * CMYK/YCCK). The DCT scale is the smallest of 1/8, 1/4, 1/2 and 1 that still covers the stored size (the others
   * skip libjpeg-turbo's SIMD IDCTs).
   */
  JpegStep plan(ByteBuffer src, long row) {
    codec.probe(src, header);
    pixelLimit.check(header.width(), header.height());
    JpegColorSpace cs = header.colorSpace();
    if (JpegMarkers.exifOrientation(src) != 1 || (cs != JpegColorSpace.YCBCR && cs != JpegColorSpace.GRAYSCALE)) {
      return null;
    }
    int w = header.width();
    int h = header.height();
    StoredSize target = targetSize(w, h);
    int tw = target.width();
    int th = target.height();
    boolean jpeg = storeAsJpeg(tw, th, row);
    if (tw == w && th == h && jpeg) {
      return new JpegStep(JpegStep.Kind.PASS_THROUGH, conf.passThroughCheck == PassThroughCheck.DECODE ? 1 : 0,
          target, true);
    }
    int scale = JpegGeometry.bestScale(w, h, tw, th, JpegGeometry.FAST_SCALES);
    boolean asPlanes = conf.resizeSpace == JpegResizeSpace.YCBCR && subsampling == ChromaSubsampling.S420
        && cs == JpegColorSpace.YCBCR && header.components() == 3 && header.subsampling() != ChromaSubsampling.UNKNOWN
        && jpeg;
    return new JpegStep(asPlanes ? JpegStep.Kind.PLANES : JpegStep.Kind.RGB, scale, target, jpeg);
  }

  /**
   * Decodes {@code src} at 1/8 scale, the cheapest decode that still reads every coefficient of the stream (so all
   * of libjpeg's checks run, strictly unless {@code jpegStrict=false}), and requires the size the header promises:
   * a JPEG passed through is checked as thoroughly as one re-encoded, for about a third of a full decode's time.
   */
  private void checkByDecoding(ByteBuffer src, int w, int h) {
    int sw = JpegGeometry.scaledDim(w, 1);
    int sh = JpegGeometry.scaledDim(h, 1);
    decoded = ensure(decoded, sw * sh * 3);
    long t0 = System.nanoTime();
    long size = codec.decode(src, 1, Idct.FAST, decoded, 0);
    counters.addDecodeNanos(System.nanoTime() - t0);
    counters.countPassThroughDecoded();
    if (size != org.sparkbeton.codec.jpeg.ImageSize.pack(sw, sh)) {
      throw new ImageDecodeException("JPEG header says " + w + "x" + h + " but its data decodes at 1/8 to "
          + org.sparkbeton.codec.jpeg.ImageSize.width(size) + "x" + org.sparkbeton.codec.jpeg.ImageSize.height(size)
          + " instead of " + sw + "x" + sh);
    }
  }

  /**
   * The decoded planes resized to 4:2:0 planes of {@code tw x th} and encoded from them. Y goes to {@code tw x th};
   * each output chroma sample covers 2 x 2 target pixels, so the chroma planes shrink by twice the luma ratio over
   * their own subsampling ({@link #chromaScale}), with that exact scale rather than their rounded sizes' ratio: a
   * chroma plane of an odd side holds one sample past the image's edge, and whole-plane sizes would stretch chroma
   * by up to half a sample (0.2-0.8 dB on such images). Where chroma must grow instead (4:1:1 sources at little
   * shrink), whole planes are resized (bilinear).
   */
  private RgbImage reencodedPlanes(int tw, int th) {
    int cw = YccPlanes.chromaSide420(tw);
    int ch = YccPlanes.chromaSide420(th);
    int ySize = tw * th;
    resized = ensure(resized, ySize + 2 * cw * ch);
    long t0 = System.nanoTime();
    resizer.resizePlane(Plane.packed(decoded, 0, planes.width(), planes.height()), Plane.packed(resized, 0, tw, th));
    resizeChroma(planes.cbOffset(), ySize, tw, th);
    resizeChroma(planes.crOffset(), ySize + cw * ch, tw, th);
    long t1 = System.nanoTime();
    counters.addResizeNanos(t1 - t0);
    counters.countReencoded(true);
    encoded = ensure(encoded, JpegCodec.maxEncodedSize(tw, th));
    int n = codec.encodePlanes(resized, 0, tw, th, conf.jpegQuality, encoded, 0);
    counters.addEncodeNanos(System.nanoTime() - t1);
    return new RgbImage(ImageMode.JPG, tw, th, encoded.duplicate().position(0).limit(n));
  }

  private ByteBuffer resized(ByteBuffer rgb, int w, int h, int tw, int th) {
    if (tw == w && th == h) {
      return rgb;
    }
    resized = ensure(resized, Math.multiplyExact(Math.multiplyExact(tw, th), 3));
    long t0 = System.nanoTime();
    resizer.resize(rgb, 0, w * 3, 0, 0, w, h, resized, 0, tw, th);
    counters.addResizeNanos(System.nanoTime() - t0);
    return resized;
  }

  /** One decoded chroma plane (from {@code at}) to its 4:2:0 plane of a {@code tw x th} image (from {@code out}). */
  private void resizeChroma(int at, int out, int tw, int th) {
    int cw = YccPlanes.chromaSide420(tw);
    int ch = YccPlanes.chromaSide420(th);
    int pcw = planes.chromaWidth();
    int pch = planes.chromaHeight();
    double sx = chromaScale(planes.width(), tw, pcw);
    double sy = chromaScale(planes.height(), th, pch);
    if (sx >= 1 && sy >= 1 && (cw - 1) * sx < pcw && (ch - 1) * sy < pch) {
      resizer.areaPlane(Plane.packed(decoded, at, pcw, pch), sx, sy, Plane.packed(resized, out, cw, ch));
    } else {
      resizer.resizePlane(Plane.packed(decoded, at, pcw, pch), Plane.packed(resized, out, cw, ch));
    }
  }

  /**
   * Source chroma samples per output chroma sample along one side: an output chroma sample covers 2 target
   * pixels, {@code 2 * side / target} source luma pixels, and a source chroma sample covers {@code side / chroma}
   * of those (the subsampling factor, 1, 2 or 4). Where the target side is odd, the output's last chroma sample
   * covers a pixel past the image too: its window runs past the plane and is averaged over what is left, as the
   * RGB path's encoder averages the last row with its own copy. At most the image's extent in chroma samples,
   * {@code side / factor}: on an odd side the plane's last sample is half padding (the encoder's copy of the edge),
   * so a 1-sample output that took the whole plane would weigh the last luma row twice (a 1001x17 JPEG decoded as
   * 126x3 with 63x2 chroma, stored as 97x1, lost 20 dB of colour that way).
   */
  static double chromaScale(int side, int target, int chroma) {
    long factor = Math.max(1, Math.round((double) side / chroma));
    return Math.min((double) side / factor, 2.0 * side / target / factor);
  }

  /** {@code buffer} if it holds {@code size} bytes, else a larger direct one; position 0, limit capacity. */
  private static ByteBuffer ensure(ByteBuffer buffer, int size) {
    return buffer.capacity() >= size ? buffer.clear() : ByteBuffer.allocateDirect(Math.max(size, buffer.capacity() * 2));
  }

  private RgbImage store(ByteBuffer pixels, int w, int h, long row) {
    if (storeAsJpeg(w, h, row)) {
      counters.countReencoded(false);
      long t0 = System.nanoTime();
      encoded = ensure(encoded, JpegCodec.maxEncodedSize(w, h));
      int n = codec.encode(pixels, 0, w, h, conf.jpegQuality, subsampling, encoded, 0);
      counters.addEncodeNanos(System.nanoTime() - t0);
      return new RgbImage(ImageMode.JPG, w, h, encoded.duplicate().position(0).limit(n));
    }
    return new RgbImage(ImageMode.RAW, w, h, pixels.duplicate().position(0).limit(w * h * 3));
  }

  /** FFCV's size rules. */
  StoredSize targetSize(int w, int h) {
    if (w > RgbImage.MAX_SIDE * 64L || h > RgbImage.MAX_SIDE * 64L) {
      throw new ImageDecodeException("image is " + w + "x" + h + ", absurdly large");
    }
    double ratio = conf.resolution.ratio(w, h);
    int tw = w;
    int th = h;
    if (ratio < 1) {
      tw = Math.max(1, (int) (ratio * w));
      th = Math.max(1, (int) (ratio * h));
    }
    if (tw > RgbImage.MAX_SIDE || th > RgbImage.MAX_SIDE) {
      throw new ImageDecodeException("image " + w + "x" + h + " would be stored as " + tw + "x" + th
          + ", over the format's 65535 per side; set a maxResolution of 65535 or less (beton prepare:"
          + " --max-resolution)");
    }
    return new StoredSize(tw, th);
  }

  boolean storeAsJpeg(int w, int h, long row) {
    return switch (conf.writeMode) {
      case RAW -> false;
      case JPG -> true;
      case SMART -> 3L * w * h > conf.smartThreshold;
      case PROPORTION -> new SplittableRandom(conf.seed * 0x9E3779B97F4A7C15L ^ ((long) partition << 40) ^ row)
          .nextDouble() < conf.compressProbability;
    };
  }

  @Override
  public void close() {
    codec.close();
  }
}
