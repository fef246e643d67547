package org.sparkbeton.codec;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.ChromaSubsampling;
import org.sparkbeton.codec.jpeg.Idct;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegColorSpace;
import org.sparkbeton.codec.jpeg.JpegException;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.jpeg.JpegMarkers;
import org.sparkbeton.codec.resize.Resizer;

/**
 * The Spark writer's image step (FFCV {@code RGBImageField} in jpg mode): any input image → RGB → area
 * resize so the longer side is at most {@code maxResolution} (FFCV's rule, never upscaling) → JPEG at
 * {@code quality}. A JPEG that needs no resize and that FFCV's decoder reads as is (YCbCr or grey, no EXIF
 * rotation) is passed through unchanged. JPEG inputs are decoded with DCT scaling when the target allows it.
 * One instance per thread; it does not own the codec.
 */
public final class ImageTranscoder {
  private final JpegCodec codec;
  private final int maxResolution;
  private final int quality;
  private final ChromaSubsampling subsampling;
  private final JpegHeader header = new JpegHeader();
  private final Resizer resizer = new Resizer();

  /** @param maxResolution longest side after resize; {@code Integer.MAX_VALUE} disables resizing */
  public ImageTranscoder(JpegCodec codec, int maxResolution, int quality, ChromaSubsampling subsampling) {
    this.codec = Objects.requireNonNull(codec, "codec");
    if (maxResolution <= 0) {
      throw new IllegalArgumentException("maxResolution must be positive, got " + maxResolution);
    }
    if (quality < 1 || quality > 100) {
      throw new IllegalArgumentException("JPEG quality must be 1..100, got " + quality);
    }
    this.maxResolution = maxResolution;
    this.quality = quality;
    this.subsampling = Objects.requireNonNull(subsampling, "subsampling");
  }

  /** The result: JPEG bytes and the stored image size. */
  public static final class Result {
    private final byte[] jpeg;
    private final int width;
    private final int height;
    private final boolean passedThrough;

    Result(byte[] jpeg, int width, int height, boolean passedThrough) {
      this.jpeg = jpeg;
      this.width = width;
      this.height = height;
      this.passedThrough = passedThrough;
    }

    public byte[] jpeg() {
      return jpeg;
    }

    public int width() {
      return width;
    }

    public int height() {
      return height;
    }

    /** True when the input JPEG bytes were stored unchanged. */
    public boolean passedThrough() {
      return passedThrough;
    }
  }

  public Result transcode(byte[] input) {
    if (input == null || input.length == 0) {
      throw new ImageDecodeException("Cannot decode an empty image (0 bytes)");
    }
    if (ImageDecoder.isJpeg(input)) {
      Result r = transcodeJpeg(input);
      if (r != null) {
        return r;
      }
    }
    RgbPixels img = ImageDecoder.decode(input);
    return resizeAndEncode(ByteBuffer.wrap(img.pixels()), img.width(), img.height());
  }

  /** Null when the JPEG needs the general path (EXIF rotation or a colour space we leave to ImageIO). */
  private Result transcodeJpeg(byte[] input) {
    ByteBuffer src = ByteBuffer.wrap(input);
    try {
      codec.probe(src, header);
    } catch (JpegException e) {
      return null; // let ImageIO try, it reports its own error
    }
    if (JpegMarkers.exifOrientation(src) != 1) {
      return null;
    }
    int w = header.width();
    int h = header.height();
    long target = Resizer.fitWithin(w, h, maxResolution);
    int tw = ImageSize.width(target);
    int th = ImageSize.height(target);
    JpegColorSpace cs = header.colorSpace();
    if (tw == w && th == h && (cs == JpegColorSpace.YCBCR || cs == JpegColorSpace.GRAYSCALE)) {
      return new Result(input, w, h, true);
    }
    int scale = JpegGeometry.bestScale(w, h, tw, th, JpegGeometry.FAST_SCALES);
    int sw = JpegGeometry.scaledDim(w, scale);
    int sh = JpegGeometry.scaledDim(h, scale);
    ByteBuffer decoded = ByteBuffer.allocate(Math.multiplyExact(Math.multiplyExact(sw, sh), 3));
    codec.decode(src, scale, Idct.ACCURATE, decoded, 0);
    return resizeAndEncode(decoded, sw, sh, tw, th);
  }

  private Result resizeAndEncode(ByteBuffer rgb, int w, int h) {
    long target = Resizer.fitWithin(w, h, maxResolution);
    return resizeAndEncode(rgb, w, h, ImageSize.width(target), ImageSize.height(target));
  }

  private Result resizeAndEncode(ByteBuffer rgb, int w, int h, int tw, int th) {
    ByteBuffer pixels = rgb;
    if (tw != w || th != h) {
      pixels = ByteBuffer.allocate(Math.multiplyExact(Math.multiplyExact(tw, th), 3));
      resizer.resize(rgb, 0, w * 3, 0, 0, w, h, pixels, 0, tw, th);
    }
    byte[] jpeg = codec.encode(pixels, 0, tw, th, quality, subsampling);
    return new Result(jpeg, tw, th, false);
  }
}
