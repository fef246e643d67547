package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.loader.io.PayloadView;
import org.sparkbeton.loader.pipeline.BadSampleException;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * An RGBImage field whose images all have one size, as uint8 [H, W, 3] (FFCV's
 * {@code SimpleRGBImageDecoder}). Planning scans the metadata of every sample the loader reads: mixed
 * sizes are refused with the sizes found; JPEG payloads are refused unless a {@link JpegCodecPool} is
 * available. An empty image, or one over the loader's {@code maxImagePixels}, is no size to plan for: it is a
 * bad sample when read, as is a JPEG whose frame (SOF) is not the size its metadata says. JPEGs are decoded in
 * full with the fast IDCT (FFCV's pixels with the native codec).
 */
public final class SimpleRgbDecoder implements Decoder {
  private final OwnedCodec codec;

  /**
   * RAW and JPEG images; JPEGs through beton-codec ({@link JpegCodecPool#fastest()}), whose per-thread
   * handles are freed when the last loader using this decoder closes.
   */
  public SimpleRgbDecoder() {
    this(JpegCodecPool.fastest(), true);
  }

  /** Decodes JPEGs with {@code codec}, which the caller owns and closes ({@link JpegCodecPool#NONE}: RAW only). */
  public SimpleRgbDecoder(JpegCodecPool codec) {
    this(codec, false);
  }

  private SimpleRgbDecoder(JpegCodecPool codec, boolean ownsCodec) {
    this.codec = new OwnedCodec(codec, ownsCodec);
  }

  @Override
  public void retain() {
    codec.retain();
  }

  @Override
  public void release() {
    codec.release();
  }

  @Override
  public String name() {
    return "SimpleRGB";
  }

  @Override
  public Stage plan(FieldSource field) {
    field.requireType(name(), FieldTypes.RGB_IMAGE);
    Map<Long, Integer> sizes = new LinkedHashMap<>(); // (w << 16 | h) -> first sample with that size
    int firstJpeg = -1;
    long firstKey = -1;
    for (int s : field.samples()) {
      ByteBuffer rec = field.records(s);
      int at = field.at(s);
      if (!accepted(width(rec, at), height(rec, at), field)) {
        continue; // a bad sample when read, never a size to plan for
      }
      long key = ((long) width(rec, at) << 16) | height(rec, at);
      if (firstKey < 0) {
        firstKey = key;
      }
      if (key == firstKey && !sizes.isEmpty()) {
        // the common case, with no boxing: the first size again
      } else if (sizes.size() < 4) {
        sizes.putIfAbsent(key, s);
      } else if (!sizes.containsKey(key)) {
        sizes.put(-1L, s); // more than four sizes: stop collecting
        break;
      }
      if (firstJpeg < 0 && rec.get(at + RgbImageField.MODE) == ImageMode.JPG.code()) {
        firstJpeg = s;
      }
    }
    if (sizes.isEmpty()) {
      sizes.put(1L << 16 | 1, -1); // every image is bad: a 1x1 plan, each sample fails when read
    }
    if (sizes.size() > 1) {
      StringBuilder found = new StringBuilder();
      sizes.forEach((k, s) -> found.append(found.length() == 0 ? "" : ", ")
          .append(k < 0 ? "more" : (k >>> 16) + "x" + (k & 0xffff) + " (sample " + s + ")"));
      throw new IllegalArgumentException("SimpleRGB needs every image of field '" + field.name()
          + "' to have the same size, found " + found
          + " (width x height); use RandomResizedCropRGB or CenterCropRGB for a fixed output size");
    }
    codec.requireFor(field, firstJpeg);
    long key = sizes.keySet().iterator().next();
    return new RgbStage(field, codec.codec(), (int) (key >>> 16), (int) (key & 0xffff));
  }

  static int width(ByteBuffer rec, int at) {
    return Short.toUnsignedInt(rec.getShort(at + RgbImageField.WIDTH));
  }

  static int height(ByteBuffer rec, int at) {
    return Short.toUnsignedInt(rec.getShort(at + RgbImageField.HEIGHT));
  }

  /** Whether an image of this size is decoded at all: not empty, at most the loader's maxImagePixels. */
  static boolean accepted(int width, int height, FieldSource field) {
    return width > 0 && height > 0 && (long) width * height <= field.maxImagePixels();
  }

  /** The bad-sample error for an image whose size is not accepted. */
  static BadSampleException refused(int width, int height, FieldSource field, long sample) {
    long pixels = (long) width * height;
    return new BadSampleException(field.where(sample) + ", field '" + field.name() + "': its metadata claims a "
        + width + "x" + height + " image" + (pixels == 0 ? ", which is empty"
            : " (" + pixels + " pixels), over the loader's maxImagePixels of " + field.maxImagePixels()));
  }

  private static final class RgbStage implements Stage {
    private final FieldSource field;
    private final JpegCodecPool codec;
    private final int width;
    private final int height;
    private final TensorSpec output;
    private final ThreadLocal<PayloadView> views = ThreadLocal.withInitial(PayloadView::new);

    RgbStage(FieldSource field, JpegCodecPool codec, int width, int height) {
      this.field = field;
      this.codec = codec;
      this.width = width;
      this.height = height;
      this.output = TensorSpec.image(height, width);
    }

    @Override
    public TensorSpec output() {
      return output;
    }

    @Override
    public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx) {
      ByteBuffer rec = field.records(sample);
      int at = field.at(sample);
      if (width(rec, at) != width || height(rec, at) != height) {
        if (!accepted(width(rec, at), height(rec, at), field)) {
          throw refused(width(rec, at), height(rec, at), field, sample);
        }
        throw new BadSampleException("Sample " + sample + " of field '" + field.name() + "' is "
            + width(rec, at) + "x" + height(rec, at) + ", not the " + width + "x" + height + " planned");
      }
      long ptr = rec.getLong(at + RgbImageField.DATA_PTR);
      int mode = rec.get(at + RgbImageField.MODE);
      if (mode == ImageMode.RAW.code()) {
        field.copyPayload(sample, ptr, output.bytes(), out, offset);
      } else if (mode == ImageMode.JPG.code()) {
        long size = field.allocationSize(sample, ptr);
        PayloadView view = views.get();
        if (!field.viewPayload(sample, ptr, size, view)) {
          throw new UnsupportedOperationException("JPEG payload of sample " + sample + " spans two mapped segments");
        }
        JpegFrame.require(view.buffer(), view.offset(), (int) size, width, height, field, sample);
        codec.decodeRgb(view.buffer(), view.offset(), (int) size, width, height, out, offset);
      } else {
        throw new BetonFormatException(field.file(), "metadata of sample " + sample + " field '" + field.name() + "'",
            field.metadataOffset(sample), "image mode byte is " + mode + ", expected 0 (jpg) or 1 (raw)");
      }
    }
  }
}
