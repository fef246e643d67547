package org.sparkbeton.codec;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.sparkbeton.codec.image.Orientation;
import org.sparkbeton.codec.image.Rasters;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.JpegMarkers;
import org.sparkbeton.codec.jpeg.JpegReaderWarnings;
import org.sparkbeton.codec.jpeg.Strictness;

/**
 * Decodes any input image the Spark writer may meet (JPEG incl. CMYK and progressive, PNG, TIFF, BMP, GIF
 * first frame, WebP) to 8-bit RGB through ImageIO + TwelveMonkeys, as FFCV/PIL {@code convert('RGB')} does:
 * alpha dropped, palette expanded, 16-bit reduced to the high byte. JPEG EXIF orientation is applied.
 *
 * <p>The image's size is read from its header first, and an image over the caller's {@link PixelLimit} is refused
 * before any pixel is decoded. A JPEG decoded {@link Strictness#STRICT strictly} fails on any warning of damaged data
 * the reader reports ({@link JpegReaderWarnings}: the JDK's libjpeg reports its corrupt-data warnings through
 * ImageIO's warning listener), as {@code JavaJpegCodec} does; notices about metadata (a CMYK image without an ICC
 * profile) are not damage.
 */
public final class ImageDecoder {
  /** The most pixels whose packed RGB fits a Java array. */
  static final long MAX_ARRAY_PIXELS = (Integer.MAX_VALUE - 16) / 3;

  private ImageDecoder() {}

  /** {@link #decode(byte[], PixelLimit, Strictness)} with no limit but a Java array's, JPEGs {@link Strictness#LENIENT}. */
  public static RgbPixels decode(byte[] bytes) {
    return decode(bytes, new PixelLimit(MAX_ARRAY_PIXELS, "the most pixels whose RGB fits a Java array"),
        Strictness.LENIENT);
  }

  /**
   * Decodes {@code bytes}, refusing an image over {@code limit} (or whose RGB would not fit a Java array) from its
   * header, and a JPEG with corrupt data under {@link Strictness#STRICT}; every failure is an
   * {@link ImageDecodeException} naming the format and the reason.
   */
  public static RgbPixels decode(byte[] bytes, PixelLimit limit, Strictness jpegStrictness) {
    return decode(bytes, limit, jpegStrictness, DecodeMemory.budget());
  }

  /** {@link #decode(byte[], PixelLimit, Strictness)} with {@code heapBudget} bytes for the decode ({@link DecodeMemory}). */
  static RgbPixels decode(byte[] bytes, PixelLimit limit, Strictness jpegStrictness, long heapBudget) {
    if (bytes == null || bytes.length == 0) {
      throw new ImageDecodeException("Cannot decode an empty image (0 bytes)");
    }
    WebpContainer.requireWhole(bytes);
    BufferedImage img;
    String format = "unknown";
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        throw new ImageDecodeException("Unrecognised image format (first bytes " + hex(bytes) + ")");
      }
      ImageReader reader = readers.next();
      format = reader.getFormatName();
      List<String> warnings = new ArrayList<>();
      reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
      try {
        reader.setInput(in, true, true);
        // the header only: a bomb is refused before the reader allocates its raster
        int width;
        int height;
        try {
          width = reader.getWidth(0);
          height = reader.getHeight(0);
        } catch (IndexOutOfBoundsException e) {
          // TwelveMonkeys' TIFF reader on a file cut before its first directory: "index >= numImages (0 >= 0)"
          throw new ImageDecodeException("Cannot decode " + format + " image of " + bytes.length + " bytes: the file"
              + " holds no image (cut short?): " + e.getMessage(), e);
        }
        limit.check(width, height);
        if ((long) width * height > MAX_ARRAY_PIXELS) {
          throw new ImageDecodeException("image is too large to decode: " + width + "x" + height + " = "
              + PixelLimit.pixels((long) width * height) + ", whose RGB does not fit a Java array");
        }
        DecodeMemory.check(reader, format, width, height, heapBudget);
        img = reader.read(0);
        if (jpegStrictness == Strictness.STRICT && isJpeg(bytes)) {
          Optional<String> damage = JpegReaderWarnings.firstDamage(warnings);
          if (damage.isPresent()) {
            throw new ImageDecodeException("Cannot decode " + format + " image of " + bytes.length + " bytes: "
                + damage.get());
          }
        }
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof ImageDecodeException) {
        throw (ImageDecodeException) e;
      }
      String why = e instanceof java.io.EOFException ? "the file ends before its image does (cut short?)" : e.toString();
      throw new ImageDecodeException("Cannot decode " + format + " image of " + bytes.length + " bytes: " + why, e);
    }
    // the decoded raster may differ from the header's size (a reader that lies, a TIFF's first page): checked again
    limit.check(img.getWidth(), img.getHeight());
    if ((long) img.getWidth() * img.getHeight() > MAX_ARRAY_PIXELS) {
      throw new ImageDecodeException("decoded image is " + img.getWidth() + "x" + img.getHeight()
          + ", whose RGB does not fit a Java array");
    }
    byte[] rgb = new byte[img.getWidth() * img.getHeight() * 3];
    Rasters.toRgb(img, ByteBuffer.wrap(rgb), 0);
    RgbPixels out = new RgbPixels(img.getWidth(), img.getHeight(), rgb);
    if (isJpeg(bytes)) {
      out = Orientation.apply(out, JpegMarkers.exifOrientation(ByteBuffer.wrap(bytes)));
    }
    return out;
  }

  static boolean isJpeg(byte[] b) {
    return b.length >= 3 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xD8 && (b[2] & 0xFF) == 0xFF;
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < Math.min(8, b.length); i++) {
      sb.append(String.format("%02X", b[i]));
    }
    return sb.toString();
  }
}
