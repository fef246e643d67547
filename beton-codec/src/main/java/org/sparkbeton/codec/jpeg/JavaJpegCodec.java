package org.sparkbeton.codec.jpeg;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.sparkbeton.codec.image.ByteBufferInputStream;
import org.sparkbeton.codec.image.Rasters;
import org.sparkbeton.codec.resize.Resizer;
import org.w3c.dom.NodeList;

/**
 * Pure-Java JPEG codec: ImageIO with TwelveMonkeys' JPEG plugin (CMYK/YCCK, broken-ICC tolerant). Region
 * decode uses {@link ImageReadParam#setSourceRegion}; DCT scaling is emulated by decoding the source box and
 * area-resizing it to the size libjpeg would produce. The IDCT cannot be chosen (ImageIO's is libjpeg 6b's
 * accurate one), so pixels differ from the native fast-IDCT path within the tolerance stated in the README.
 */
public final class JavaJpegCodec implements JpegCodec {
  /**
   * Refuse progressive JPEGs whose whole-image coefficient buffer could exceed this, as the native codec
   * bounds libjpeg's memory (MAX_LIBJPEG_MEMORY). The JDK's libjpeg buffers every coefficient of a progressive
   * image in native memory, outside the heap limit, even for a small region: a lying 65500x65500 header
   * would take 12.9 GB.
   */
  static final long MAX_COEFFICIENT_BYTES = 1L << 30;

  private final ImageReader reader;
  private final Strictness strictness;
  private final JpegHeader header = new JpegHeader();
  private final Resizer resizer = new Resizer();
  private final List<String> warnings = new ArrayList<>();
  private ByteBuffer scratch = ByteBuffer.allocate(0);
  /** RGB pixels on their way to or from planes (decodePlanes, encodePlanes), reused */
  private ByteBuffer planeRgb = ByteBuffer.allocate(0);
  private final YccPlanes planeLayout = new YccPlanes();
  private boolean closed;

  /** A {@link Strictness#LENIENT} codec. */
  public JavaJpegCodec() {
    this(Strictness.LENIENT);
  }

  /**
   * A codec decoding with {@code strictness}: under {@link Strictness#STRICT} any warning the reader reports (the
   * JDK's libjpeg reports its corrupt-data warnings, {@code Corrupt JPEG data: ...}, through ImageIO's warning
   * listener) fails the decode.
   */
  public JavaJpegCodec(Strictness strictness) {
    this.strictness = java.util.Objects.requireNonNull(strictness, "strictness");
    Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("jpeg");
    if (!readers.hasNext()) {
      throw new IllegalStateException("No ImageIO JPEG reader on the classpath");
    }
    reader = readers.next();
    reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
  }

  @Override
  public boolean isNative() {
    return false;
  }

  @Override
  public Strictness strictness() {
    return strictness;
  }

  @Override
  public void probe(ByteBuffer src, JpegHeader into) {
    live();
    JpegMarkers.probe(src, into);
  }

  @Override
  public long decode(ByteBuffer src, int scaleNum, Idct idct, ByteBuffer dst, int dstOffset) {
    live();
    JpegMarkers.probe(src, header);
    JpegCodec.checkDecodable("Java JPEG decode", header.width(), header.height());
    return decodeBox(src, 0, 0, header.width(), header.height(), scaleNum, dst, dstOffset);
  }

  @Override
  public long decodeRegion(ByteBuffer src, int x, int y, int w, int h, int scaleNum, Idct idct, ByteBuffer dst,
      int dstOffset) {
    live();
    if (x < 0 || y < 0 || w <= 0 || h <= 0) {
      throw new IllegalArgumentException(
          String.format("Crop box %d,%d %dx%d must have a non-negative origin and a positive size", x, y, w, h));
    }
    JpegMarkers.probe(src, header);
    JpegCodec.checkDecodable("Java JPEG decode", header.width(), header.height());
    if ((long) x + w > header.width() || (long) y + h > header.height()) {
      throw new JpegException(String.format("Java JPEG decode failed: crop box %d,%d %dx%d is outside the %dx%d image",
          x, y, w, h, header.width(), header.height()));
    }
    return decodeBox(src, x, y, w, h, scaleNum, dst, dstOffset);
  }

  private long decodeBox(ByteBuffer src, int x, int y, int w, int h, int scaleNum, ByteBuffer dst, int dstOffset) {
    JpegGeometry.checkScale(scaleNum);
    checkDst(dst, dstOffset);
    int iw = header.width();
    int ih = header.height();
    long size = JpegGeometry.scaledBox(iw, ih, x, y, w, h, scaleNum);
    int ow = ImageSize.width(size);
    int oh = ImageSize.height(size);
    long need = (long) ow * oh * 3;
    if (dstOffset + need > dst.capacity()) {
      throw new JpegException(String.format(
          "Java JPEG decode failed: destination too small: need %d bytes at offset %d, capacity %d", need, dstOffset,
          dst.capacity()));
    }
    // the source pixels behind the scaled box: DCT scaling is emulated as a window of an area downscale of
    // the whole image to libjpeg's scaled size, so a region decode equals the crop of a full decode
    int sw = JpegGeometry.scaledDim(iw, scaleNum);
    int sh = JpegGeometry.scaledDim(ih, scaleNum);
    int sx0 = JpegGeometry.scaledOrigin(x, scaleNum);
    int sy0 = JpegGeometry.scaledOrigin(y, scaleNum);
    int rx0 = scaleNum == 8 ? x : Resizer.areaSourceStart(sx0, iw, sw);
    int ry0 = scaleNum == 8 ? y : Resizer.areaSourceStart(sy0, ih, sh);
    int rx1 = scaleNum == 8 ? x + ow : Resizer.areaSourceEnd(sx0 + ow, iw, sw);
    int ry1 = scaleNum == 8 ? y + oh : Resizer.areaSourceEnd(sy0 + oh, ih, sh);
    if (header.progressive() && coefficientBytes(header) > MAX_COEFFICIENT_BYTES) {
      throw new JpegException(String.format(
          "Java JPEG decode failed: progressive image too large (%dx%d, %d components: up to %d bytes of"
              + " coefficients, limit %d)", iw, ih, header.components(), coefficientBytes(header),
          MAX_COEFFICIENT_BYTES));
    }
    BufferedImage img = read(src, new Rectangle(rx0, ry0, rx1 - rx0, ry1 - ry0));
    if (img.getWidth() != rx1 - rx0 || img.getHeight() != ry1 - ry0) {
      throw new JpegException(String.format("Java JPEG decode failed: reader returned %dx%d for a %dx%d region",
          img.getWidth(), img.getHeight(), rx1 - rx0, ry1 - ry0));
    }
    if (scaleNum == 8) {
      Rasters.toRgb(img, dst, dstOffset);
    } else {
      int n = img.getWidth() * img.getHeight() * 3;
      if (scratch.capacity() < n) {
        scratch = ByteBuffer.allocate(n);
      }
      Rasters.toRgb(img, scratch, 0);
      resizer.areaWindow(scratch, 0, img.getWidth() * 3, rx0, ry0, iw, ih, sw, sh, sx0, sy0, ow, oh, dst, dstOffset);
    }
    return size;
  }

  /**
   * An upper bound on the coefficient buffer libjpeg allocates for a whole progressive image: 64 two-byte
   * coefficients per 8x8 block of every component, subsampled chroma counted at full size.
   */
  static long coefficientBytes(JpegHeader h) {
    long blocks = ((h.width() + 7L) / 8) * ((h.height() + 7L) / 8);
    return blocks * h.components() * 64 * 2;
  }

  private BufferedImage read(ByteBuffer src, Rectangle region) {
    warnings.clear();
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteBufferInputStream(src))) {
      reader.setInput(in, true, true);
      ImageReadParam param = reader.getDefaultReadParam();
      param.setSourceRegion(region);
      BufferedImage img = reader.read(0, param);
      for (String w : warnings) {
        // the JDK's libjpeg reports a stream cut short this way; native libjpeg-turbo says JWRN_JPEG_EOF
        if (w.startsWith("Truncated File") || w.contains("Premature end of JPEG file")) {
          throw new JpegException("Java JPEG decode failed: Premature end of JPEG file (" + w + ")");
        }
      }
      if (strictness == Strictness.STRICT) {
        Optional<String> damage = JpegReaderWarnings.firstDamage(warnings);
        if (damage.isPresent()) {
          throw new JpegException("Java JPEG decode failed: " + damage.get());
        }
      }
      return img;
    } catch (IOException | RuntimeException e) {
      if (e instanceof JpegException) {
        throw (JpegException) e;
      }
      throw new JpegException("Java JPEG decode failed: " + e, e);
    } finally {
      reader.setInput(null);
    }
  }

  @Override
  public int encode(ByteBuffer rgb, int rgbOffset, int width, int height, int quality,
      ChromaSubsampling subsampling, ByteBuffer dst, int dstOffset) {
    live();
    checkEncodeArgs(rgb, rgbOffset, width, height, quality, subsampling);
    checkDst(dst, dstOffset);
    BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_3BYTE_BGR);
    byte[] bgr = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
    rgb.get(rgbOffset, bgr, 0, bgr.length);
    for (int i = 0; i < bgr.length; i += 3) {
      byte r = bgr[i];
      bgr[i] = bgr[i + 2];
      bgr[i + 2] = r;
    }
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
    if (!writers.hasNext()) {
      throw new IllegalStateException("No ImageIO JPEG writer on the classpath");
    }
    ImageWriter writer = writers.next();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(width * height / 2 + 1024);
    try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
      writer.setOutput(out);
      ImageWriteParam param = writer.getDefaultWriteParam();
      param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      param.setCompressionQuality(quality / 100f);
      IIOMetadata meta = writer.getDefaultImageMetadata(new ImageTypeSpecifier(img), param);
      if (subsampling == ChromaSubsampling.S444) {
        String format = "javax_imageio_jpeg_image_1.0";
        IIOMetadataNode tree = (IIOMetadataNode) meta.getAsTree(format);
        NodeList comps = tree.getElementsByTagName("componentSpec");
        for (int i = 0; i < comps.getLength(); i++) {
          IIOMetadataNode c = (IIOMetadataNode) comps.item(i);
          c.setAttribute("HsamplingFactor", "1");
          c.setAttribute("VsamplingFactor", "1");
        }
        meta.setFromTree(format, tree);
      }
      writer.write(null, new IIOImage(img, null, meta), param);
    } catch (IOException e) {
      throw new JpegException("Java JPEG encode failed: " + e, e);
    } finally {
      writer.dispose();
    }
    int n = bytes.size();
    if ((long) dstOffset + n > dst.capacity()) {
      throw new JpegException(String.format(
          "Java JPEG encode failed: destination too small: encoded data is %d bytes, %d available", n,
          dst.capacity() - dstOffset));
    }
    dst.put(dstOffset, bytes.toByteArray(), 0, n);
    return n;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      reader.dispose();
    }
  }

  private void live() {
    if (closed) {
      throw new IllegalStateException("JavaJpegCodec is closed");
    }
  }

  private static void checkDst(ByteBuffer dst, int dstOffset) {
    if (dst.isReadOnly()) {
      throw new IllegalArgumentException("Destination buffer must be writable");
    }
    if (dstOffset < 0 || dstOffset > dst.capacity()) {
      throw new IllegalArgumentException(
          "Destination offset " + dstOffset + " is outside the buffer of capacity " + dst.capacity());
    }
  }

  /**
   * Decodes RGB at the scale (as {@link #decode}), then converts it to 4:2:0 planes in Java
   * ({@link YccConversion}): ImageIO has no way to hand over the stored planes.
   */
  @Override
  public void decodePlanes(ByteBuffer src, int scaleNum, Idct idct, ByteBuffer dst, int dstOffset, YccPlanes into) {
    live();
    JpegMarkers.probe(src, header);
    if (header.components() != 3 || header.colorSpace() != JpegColorSpace.YCBCR) {
      throw new JpegException("Java JPEG plane decode failed: not a YCbCr JPEG (" + header + ")");
    }
    JpegCodec.checkDecodable("Java JPEG plane decode", header.width(), header.height());
    checkDst(dst, dstOffset);
    int w = JpegGeometry.scaledDim(header.width(), scaleNum);
    int h = JpegGeometry.scaledDim(header.height(), scaleNum);
    long need = YccPlanes.bytes420(w, h);
    if (dstOffset + need > dst.capacity()) {
      throw new JpegException(String.format(
          "Java JPEG plane decode failed: destination too small: need %d bytes at offset %d, capacity %d", need,
          dstOffset, dst.capacity()));
    }
    ByteBuffer rgb = planeRgb(Math.multiplyExact(w * 3, h));
    decode(src, scaleNum, idct, rgb, 0);
    YccConversion.rgbToPlanes420(rgb, 0, w, h, dst, dstOffset);
    into.set420(w, h);
  }

  /** Converts the planes to RGB in Java ({@link YccConversion}, chroma repeated), then encodes as {@link #encode}. */
  @Override
  public int encodePlanes(ByteBuffer planes, int srcOffset, int width, int height, int quality, ByteBuffer dst,
      int dstOffset) {
    checkPlaneEncodeArgs(planes, srcOffset, width, height, quality);
    ByteBuffer rgb = planeRgb(Math.multiplyExact(width * 3, height));
    YccConversion.planesToRgb(planes, srcOffset, planeLayout.set420(width, height), rgb, 0);
    return encode(rgb, 0, width, height, quality, ChromaSubsampling.S420, dst, dstOffset);
  }

  private ByteBuffer planeRgb(int bytes) {
    if (planeRgb.capacity() < bytes) {
      planeRgb = ByteBuffer.allocate(bytes);
    }
    return planeRgb;
  }

  static void checkPlaneEncodeArgs(ByteBuffer planes, int srcOffset, int width, int height, int quality) {
    checkSidesAndQuality(width, height, quality);
    long need = YccPlanes.bytes420(width, height);
    if (srcOffset < 0 || srcOffset + need > planes.capacity()) {
      throw new IllegalArgumentException(String.format(
          "Plane source too small: 4:2:0 planes of %dx%d need %d bytes at offset %d, capacity %d", width, height,
          need, srcOffset, planes.capacity()));
    }
  }

  private static void checkSidesAndQuality(int width, int height, int quality) {
    if (width <= 0 || height <= 0 || width > 65500 || height > 65500) {
      throw new IllegalArgumentException("Cannot encode a " + width + "x" + height + " image: sides must be 1..65500");
    }
    if (quality < 1 || quality > 100) {
      throw new IllegalArgumentException("JPEG quality must be 1..100, got " + quality);
    }
  }

  static void checkEncodeArgs(ByteBuffer rgb, int rgbOffset, int width, int height, int quality,
      ChromaSubsampling subsampling) {
    checkSidesAndQuality(width, height, quality);
    if (subsampling != ChromaSubsampling.S420 && subsampling != ChromaSubsampling.S444) {
      throw new IllegalArgumentException("Encoder supports S420 and S444 subsampling, got " + subsampling);
    }
    long need = (long) width * height * 3;
    if (rgbOffset < 0 || rgbOffset + need > rgb.capacity()) {
      throw new IllegalArgumentException(String.format(
          "RGB source too small: %dx%d needs %d bytes at offset %d, capacity %d", width, height, need, rgbOffset,
          rgb.capacity()));
    }
  }
}
