package org.sparkbeton.loader.decoders;

import java.nio.ByteBuffer;
import org.sparkbeton.codec.jpeg.ImageSize;
import org.sparkbeton.codec.jpeg.JpegGeometry;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.loader.io.PayloadView;
import org.sparkbeton.loader.pipeline.BadSampleException;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.StageMemory;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * An RGBImage field of images of any sizes as uint8 [outH, outW, 3]: a crop box chosen per sample
 * ({@link #box}), then OpenCV INTER_AREA resize (area when shrinking, bilinear otherwise, beton-codec's
 * {@link Resizer}). RAW payloads are cropped straight from the file's bytes; for JPEGs only the box is
 * decoded, at the smallest DCT scale among 1/8, 1/4, 1/2, 1 whose decoded box is still at least the
 * output size, then the decoded box is resized. (FFCV decodes the whole image at full size first: our
 * pixels differ from its by the DCT scaling and the box's rounding onto the scaled grid.)
 *
 * <p>An empty image, or one over the loader's {@code maxImagePixels}, is a bad sample when read and does not size
 * anything; so is a JPEG whose frame (SOF) is not the size its metadata says.
 *
 * <p>Per sample nothing is allocated: each worker thread keeps a {@link Resizer} and one scratch buffer
 * sized at plan time for the largest image the loader will read. In a loader the scratch is direct memory
 * from its {@link StageMemory}, so the JPEG codec decodes into it without a copy and the resize runs in
 * native code (byte-identical to the Java resizer); planned without memory it is a heap buffer. The output size may be changed between
 * epochs ({@link #outputSize}): the loader re-plans at every epoch (progressive resizing).
 */
public abstract class CropRgbDecoder implements Decoder {
  private final OwnedCodec codec;
  private volatile long outputSize;

  CropRgbDecoder(int outH, int outW, JpegCodecPool codec, boolean ownsCodec) {
    this.codec = new OwnedCodec(codec, ownsCodec);
    outputSize(outH, outW);
  }

  /**
   * Sets the output size from the next epoch on (the loader plans at every {@code iterator()}); batches of
   * earlier epochs become invalid when the size changes.
   */
  public final void outputSize(int outH, int outW) {
    if (outH < 1 || outW < 1 || outH > 65535 || outW > 65535) {
      throw new IllegalArgumentException(name() + " output size must be 1..65535 on each side, got " + outH + "x"
          + outW + " (height x width)");
    }
    long bytes = (long) outH * outW * 3;
    if (bytes > Integer.MAX_VALUE) {
      // a sample is one buffer (and one row of a batch slot), indexed by int
      throw new IllegalArgumentException(name() + " output size " + outH + "x" + outW + " (height x width) needs "
          + bytes + " bytes per sample (height x width x 3), over the limit of " + Integer.MAX_VALUE + " bytes (2 GiB)");
    }
    outputSize = ((long) outH << 32) | outW;
  }

  public final int outputHeight() {
    return (int) (outputSize >>> 32);
  }

  public final int outputWidth() {
    return (int) outputSize;
  }

  /**
   * Chooses the crop box of an image of {@code width x height}: writes top, left, height, width into
   * {@code box[0..3]}. Draws randomness only from {@code ctx.random()}.
   */
  abstract void box(int height, int width, SampleContext ctx, int[] box);

  /**
   * The box this decoder decodes for an image of {@code width x height} (top, left, height, width into
   * {@code box[0..3]}), drawn from {@code ctx} as the loader's stage draws it after {@code ctx.begin(pipeline,
   * epoch, sample, row)} and {@code ctx.enterStage(0)}: for measurements that must decode the same crops
   * ({@link org.sparkbeton.loader.bench.DecodeLimit}).
   */
  public final void cropBox(int height, int width, SampleContext ctx, int[] box) {
    box(height, width, ctx, box);
  }

  /**
   * The DCT scale (M of M/8) a JPEG box of {@code boxW x boxH} is decoded at for an output of {@code outW x outH}:
   * the smallest of 1/8, 1/4, 1/2 and 1 whose decoded box is still at least the output size on both sides (8 when
   * none is: the resize then enlarges). The one rule of the loader's decode and of
   * {@link org.sparkbeton.loader.bench.DecodeLimit}, so that both decode the same pixels.
   */
  public static int dctScale(int boxW, int boxH, int outW, int outH) {
    return JpegGeometry.bestScale(boxW, boxH, outW, outH, JpegGeometry.FAST_SCALES);
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
  public Stage plan(FieldSource field) {
    return plan(field, StageMemory.NONE);
  }

  @Override
  public Stage plan(FieldSource field, StageMemory memory) {
    field.requireType(name(), FieldTypes.RGB_IMAGE);
    long size = outputSize;
    int outH = (int) (size >>> 32);
    int outW = (int) size;
    SampleFacts facts = field.fact(SampleFacts.class, SampleFacts::scan);
    long maxPixels = facts.maxPixels();
    int firstJpeg = facts.firstJpeg();
    codec.requireFor(field, firstJpeg);
    int scratchBytes = (int) Math.max(maxPixels * 3, 3);
    Scratch[] perWorker = new Scratch[memory.workers()];
    for (int w = 0; w < perWorker.length; w++) {
      String purpose = name() + " '" + field.name() + "' worker " + w;
      perWorker[w] = new Scratch(memory.direct(scratchBytes, purpose + " crop box"),
          memory.direct(Math.toIntExact((long) outH * outW * 3), purpose + " resized box")); // checked by outputSize
    }
    return new CropStage(field, scratchBytes, outH, outW, perWorker);
  }

  /**
   * What planning needs from the field's samples, found by one scan of their metadata and kept by the field
   * source for later plans (every epoch): the most pixels of an image the loader accepts (others are bad samples
   * when read), and the first sample stored as JPEG, or -1.
   */
  private record SampleFacts(long maxPixels, int firstJpeg) {
    static SampleFacts scan(FieldSource field) {
      long[] largest = {0};
      int[] jpeg = {-1};
      field.scan((s, rec, at) -> {
        int width = SimpleRgbDecoder.width(rec, at);
        int height = SimpleRgbDecoder.height(rec, at);
        if (SimpleRgbDecoder.accepted(width, height, field)) {
          largest[0] = Math.max(largest[0], (long) width * height);
        }
        if (jpeg[0] < 0 && rec.get(at + RgbImageField.MODE) == ImageMode.JPG.code()) {
          jpeg[0] = s;
        }
      });
      return new SampleFacts(largest[0], jpeg[0]);
    }
  }

  /**
   * Per-worker working set of a stage. With direct buffers (the loader's {@link StageMemory}) the codec
   * decodes the box straight into {@code pixels} and the resizer runs natively, writing into a direct
   * output (the batch slot) or into {@code resized} first; with heap buffers (planned without memory)
   * the codec copies rows into the array and the resizer runs in Java.
   */
  private static final class Scratch {
    final ByteBuffer pixels;
    final ByteBuffer resized; // null: resize straight into the output whatever its kind
    final Resizer resizer = new Resizer();
    final PayloadView view = new PayloadView();
    final int[] box = new int[4];
    final int[] layout = new int[2]; // decoded rows: the box's first column, the row stride (pixels)

    Scratch(ByteBuffer pixels, ByteBuffer resized) {
      this.pixels = pixels;
      this.resized = resized;
    }

    /** Heap scratch for callers that plan without memory. */
    Scratch(int bytes) {
      this(ByteBuffer.allocate(bytes), null);
    }
  }

  /** Also a {@link Decoder.MappingStage}: output coordinate maps go to the resizer, which computes each pixel in place. */
  private final class CropStage implements Decoder.MappingStage {
    private final JpegCodecPool jpeg = codec.codec();
    private final FieldSource field;
    private final int scratchBytes;
    private final int outH;
    private final int outW;
    private final TensorSpec output;
    private final Scratch[] perWorker;
    private final ThreadLocal<Scratch> heapScratch;

    CropStage(FieldSource field, int scratchBytes, int outH, int outW, Scratch[] perWorker) {
      this.field = field;
      this.scratchBytes = scratchBytes;
      this.outH = outH;
      this.outW = outW;
      this.output = TensorSpec.image(outH, outW);
      this.perWorker = perWorker;
      this.heapScratch = perWorker.length == 0 ? ThreadLocal.withInitial(() -> new Scratch(scratchBytes)) : null;
    }

    @Override
    public TensorSpec output() {
      return output;
    }

    @Override
    public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx) {
      decode(sample, out, offset, ctx, null, null);
    }

    @Override
    public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx, int[] columns, int[] rows) {
      ByteBuffer rec = field.records(sample);
      int at = field.at(sample);
      int width = SimpleRgbDecoder.width(rec, at);
      int height = SimpleRgbDecoder.height(rec, at);
      int mode = rec.get(at + RgbImageField.MODE);
      long ptr = rec.getLong(at + RgbImageField.DATA_PTR);
      if (!SimpleRgbDecoder.accepted(width, height, field)) {
        throw SimpleRgbDecoder.refused(width, height, field, sample);
      }
      if ((long) width * height * 3 > scratchBytes) {
        throw new BadSampleException(field.where(sample) + ", field '" + field.name() + "': image is " + width + "x"
            + height + ", larger than the " + scratchBytes / 3 + " pixels planned (the largest found when planning):"
            + " it was not among the samples scanned");
      }
      Scratch s = heapScratch == null ? perWorker[ctx.worker()] : heapScratch.get();
      int[] box = s.box;
      box(height, width, ctx, box);
      int top = box[0];
      int left = box[1];
      int h = box[2];
      int w = box[3];
      // a native resize needs direct memory on both sides: resize into the direct scratch, then copy
      boolean viaResized = s.resized != null && !out.isDirect();
      ByteBuffer dst = viaResized ? s.resized : out;
      int dstOffset = viaResized ? 0 : offset;
      if (mode == ImageMode.RAW.code()) {
        long bytes = (long) width * height * 3;
        if (field.viewPayload(sample, ptr, bytes, s.view)) {
          s.resizer.resize(s.view.buffer(), s.view.offset(), width * 3, left, top, w, h, dst, dstOffset, outW, outH, columns,
              rows);
        } else {
          field.copyPayload(sample, ptr, bytes, s.pixels, 0);
          s.resizer.resize(s.pixels, 0, width * 3, left, top, w, h, dst, dstOffset, outW, outH, columns, rows);
        }
      } else if (mode == ImageMode.JPG.code()) {
        long size = field.allocationSize(sample, ptr);
        if (!field.viewPayload(sample, ptr, size, s.view)) {
          throw new UnsupportedOperationException("JPEG payload of sample " + sample + " spans two mapped segments");
        }
        // the box and the scratch are sized from the metadata: a frame of another size would crop the wrong pixels
        JpegFrame.require(s.view.buffer(), s.view.offset(), (int) size, width, height, field, sample);
        int m = dctScale(w, h, outW, outH);
        // rows left as wide as libjpeg crops them (no copy); the resize reads the box through the stride
        long got = jpeg.decodeRegionRgbPadded(s.view.buffer(), s.view.offset(), (int) size, left, top, w, h, m,
            s.pixels, 0, s.layout);
        int bw = ImageSize.width(got);
        int bh = ImageSize.height(got);
        s.resizer.resize(s.pixels, 0, s.layout[1] * 3, s.layout[0], 0, bw, bh, dst, dstOffset, outW, outH, columns,
            rows);
      } else {
        throw new BetonFormatException(field.file(), "metadata of sample " + sample + " field '" + field.name() + "'",
            field.metadataOffset(sample), "image mode byte is " + mode + ", expected 0 (jpg) or 1 (raw)");
      }
      if (viaResized) {
        out.put(offset, s.resized, 0, outH * outW * 3);
      }
    }
  }
}
