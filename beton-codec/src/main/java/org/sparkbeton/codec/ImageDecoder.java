package org.sparkbeton.codec;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.sparkbeton.codec.image.Orientation;
import org.sparkbeton.codec.image.Rasters;
import org.sparkbeton.codec.image.RgbImage;
import org.sparkbeton.codec.jpeg.JpegMarkers;

/**
 * Decodes any input image the Spark writer may meet (JPEG incl. CMYK and progressive, PNG, TIFF, BMP, GIF
 * first frame, WebP) to 8-bit RGB through ImageIO + TwelveMonkeys, as FFCV/PIL {@code convert('RGB')} does:
 * alpha dropped, palette expanded, 16-bit reduced to the high byte. JPEG EXIF orientation is applied.
 */
public final class ImageDecoder {
  private ImageDecoder() {}

  public static RgbImage decode(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      throw new ImageDecodeException("Cannot decode an empty image (0 bytes)");
    }
    BufferedImage img;
    String format = "unknown";
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
      Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
      if (!readers.hasNext()) {
        throw new ImageDecodeException("Unrecognised image format (first bytes " + hex(bytes) + ")");
      }
      ImageReader reader = readers.next();
      format = reader.getFormatName();
      try {
        reader.setInput(in, true, true);
        img = reader.read(0);
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof ImageDecodeException) {
        throw (ImageDecodeException) e;
      }
      throw new ImageDecodeException("Cannot decode " + format + " image of " + bytes.length + " bytes: " + e, e);
    }
    byte[] rgb = new byte[Math.multiplyExact(Math.multiplyExact(img.getWidth(), img.getHeight()), 3)];
    Rasters.toRgb(img, ByteBuffer.wrap(rgb), 0);
    RgbImage out = new RgbImage(img.getWidth(), img.getHeight(), rgb);
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
