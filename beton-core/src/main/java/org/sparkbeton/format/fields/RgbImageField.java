package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;

/**
 * Type 2: an image. Metadata is FFCV's packed 13-byte struct {@code mode u8 @0, width u16 @1,
 * height u16 @3, data_ptr u64 @5} (alignment 1, so the pointer is unaligned). One allocation holds
 * the JPEG or raw RGB payload. The argument blob is all zero: FFCV saves none of the writer settings.
 */
public final class RgbImageField implements FieldCodec {
  public static final RgbImageField INSTANCE = new RgbImageField();
  public static final int MODE = 0;
  public static final int WIDTH = 1;
  public static final int HEIGHT = 3;
  public static final int DATA_PTR = 5;
  private static final int[] POINTERS = {DATA_PTR};

  private RgbImageField() {}

  @Override public int typeId() { return FieldTypes.RGB_IMAGE; }
  @Override public int metadataSize() { return 13; }
  @Override public int metadataAlignment() { return 1; }
  @Override public byte[] arguments() { return new byte[0]; }
  @Override public int[] pointerOffsets() { return POINTERS; }
  @Override public String describe() { return "(jpg or raw)"; }

  @Override
  public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
    if (!(value instanceof RgbImage image)) {
      throw new IllegalArgumentException("RGBImage field expects an RgbImage (mode, size, encoded payload), got "
          + Values.describe(value));
    }
    long ptr = ctx.allocate(image.payload().duplicate());
    record.put(offset + MODE, (byte) image.mode().code());
    record.putShort(offset + WIDTH, (short) image.width());
    record.putShort(offset + HEIGHT, (short) image.height());
    record.putLong(offset + DATA_PTR, ptr);
  }

  @Override
  public RgbImage decode(ByteBuffer record, int offset, PayloadReader payloads) {
    ImageMode mode = modeOf(record, offset);
    int width = Short.toUnsignedInt(record.getShort(offset + WIDTH));
    int height = Short.toUnsignedInt(record.getShort(offset + HEIGHT));
    long ptr = record.getLong(offset + DATA_PTR);
    long size = payloadSize(record, offset, payloads);
    if (width == 0 || height == 0) {
      throw new IllegalArgumentException("image size " + width + "x" + height + " has a zero side");
    }
    return new RgbImage(mode, width, height, payloads.read(ptr, size));
  }

  /** Payload size: {@code H*W*3} for raw images, the allocation's size for JPEGs. */
  public static long payloadSize(ByteBuffer record, int offset, PayloadReader payloads) {
    if (modeOf(record, offset) == ImageMode.RAW) {
      return RgbImage.rawSize(Short.toUnsignedInt(record.getShort(offset + WIDTH)),
          Short.toUnsignedInt(record.getShort(offset + HEIGHT)));
    }
    return payloads.allocationSize(record.getLong(offset + DATA_PTR));
  }

  public static ImageMode modeOf(ByteBuffer record, int offset) {
    int code = Byte.toUnsignedInt(record.get(offset + MODE));
    ImageMode mode = ImageMode.ofCode(code);
    if (mode == null) {
      throw new IllegalArgumentException("image mode byte is " + code + ", expected 0 (jpg) or 1 (raw)");
    }
    return mode;
  }
}
