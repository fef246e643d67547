package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldTypes;

/**
 * Types 4 (NDArray) and 6 (TorchTensor, written by FFCV as the numpy equivalent): a fixed dtype and
 * shape. Metadata is the {@code <u8} pointer of one allocation of {@code itemsize * prod(shape)}
 * bytes. Arguments: 32 u64 shape slots, {@code type_length} u64 at 256, the descr JSON at 264.
 *
 * <p>Values to write: {@code byte[]}/{@link ByteBuffer} of exactly the array's byte size, an
 * {@link NdArray}, or a Java primitive array matching a little-endian dtype ({@code float[]} for
 * {@code <f4}, {@code long[]} for {@code <i8}, ...). Decoded as {@link NdArray}.
 */
public final class NdArrayField implements FieldCodec {
  public static final int MAX_DIMS = 32;
  private static final int TYPE_LENGTH_OFFSET = 256;
  private static final int DESCR_OFFSET = 264;
  private static final int[] POINTERS = {0};

  private final int typeId;
  private final NumpyDtype dtype;
  private final long[] shape;
  private final long byteSize;

  private NdArrayField(int typeId, NumpyDtype dtype, long[] shape) {
    this.typeId = typeId;
    this.dtype = dtype;
    this.shape = shape.clone();
    this.byteSize = byteSize(dtype, this.shape);
  }

  public static NdArrayField ndarray(NumpyDtype dtype, long... shape) {
    return new NdArrayField(FieldTypes.NDARRAY, dtype, checkShape(shape));
  }

  public static NdArrayField ndarray(String dtype, long... shape) {
    return ndarray(NumpyDtype.of(dtype), shape);
  }

  public static NdArrayField torchTensor(NumpyDtype dtype, long... shape) {
    return new NdArrayField(FieldTypes.TORCH_TENSOR, dtype, checkShape(shape));
  }

  private static long[] checkShape(long[] shape) {
    if (shape.length == 0 || shape.length > MAX_DIMS) {
      throw new IllegalArgumentException("NDArray shape must have 1 to 32 dimensions, got " + shape.length
          + " (a 0-d shape cannot round-trip: FFCV drops trailing zero slots)");
    }
    for (long d : shape) {
      if (d < 1) {
        throw new IllegalArgumentException("NDArray dimensions must be positive, got " + Arrays.toString(shape));
      }
    }
    return shape;
  }

  private static long byteSize(NumpyDtype dtype, long[] shape) {
    long size = dtype.itemSize();
    for (long d : shape) {
      size = Math.multiplyExact(size, d);
    }
    if (size > BetonFormat.MAX_READ_PAGE_SIZE) {
      throw new IllegalArgumentException("NDArray of " + dtype + " " + Arrays.toString(shape) + " is " + size
          + " bytes, larger than any page");
    }
    return size;
  }

  /** Rebuilds the field from its argument blob (FFCV's {@code from_binary}). */
  public static NdArrayField fromArguments(int typeId, byte[] args) {
    if (args.length < BetonFormat.ARGUMENTS_SIZE) {
      throw new IllegalArgumentException("argument blob has " + args.length + " bytes, expected 1024");
    }
    ByteBuffer b = ByteBuffer.wrap(args).order(ByteOrder.LITTLE_ENDIAN);
    int rank = MAX_DIMS;
    while (rank > 0 && b.getLong((rank - 1) * 8) == 0) {
      rank--;
    }
    long[] shape = new long[rank];
    for (int i = 0; i < rank; i++) {
      shape[i] = b.getLong(i * 8);
      if (shape[i] <= 0) {
        throw new IllegalArgumentException("shape slot " + i + " holds " + Long.toUnsignedString(shape[i])
            + "; only trailing slots may be zero");
      }
    }
    long typeLength = b.getLong(TYPE_LENGTH_OFFSET);
    if (typeLength <= 0 || typeLength > BetonFormat.ARGUMENTS_SIZE - DESCR_OFFSET) {
      throw new IllegalArgumentException("dtype text length " + Long.toUnsignedString(typeLength)
          + " does not fit the 760 bytes after offset 264");
    }
    String json = new String(args, DESCR_OFFSET, (int) typeLength, StandardCharsets.US_ASCII);
    NumpyDtype dtype = NumpyDtype.fromDescrJson(json);
    return new NdArrayField(typeId, dtype, checkShape(shape));
  }

  public NumpyDtype dtype() {
    return dtype;
  }

  public long[] shape() {
    return shape.clone();
  }

  /** Bytes of one value: {@code itemsize * prod(shape)}. */
  public long byteSize() {
    return byteSize;
  }

  @Override public int typeId() { return typeId; }
  @Override public int metadataSize() { return 8; }
  @Override public int metadataAlignment() { return 8; }
  @Override public int[] pointerOffsets() { return POINTERS; }

  @Override
  public String describe() {
    return dtype + " (" + Arrays.stream(shape).mapToObj(Long::toString).collect(Collectors.joining(", "))
        + (shape.length == 1 ? ",)" : ")");
  }

  @Override
  public byte[] arguments() {
    byte[] json = dtype.descrJson().getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocate(BetonFormat.ARGUMENTS_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < shape.length; i++) {
      b.putLong(i * 8, shape[i]);
    }
    b.putLong(TYPE_LENGTH_OFFSET, json.length);
    b.put(DESCR_OFFSET, json);
    return b.array();
  }

  @Override
  public void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx) {
    ByteBuffer payload = payloadOf(value);
    if (payload.remaining() != byteSize) {
      throw new IllegalArgumentException("Array for " + describe() + " must be " + byteSize + " bytes, got "
          + payload.remaining());
    }
    record.putLong(offset, ctx.allocate(payload));
  }

  private ByteBuffer payloadOf(Object value) {
    ByteBuffer bytes = Values.bytesOf(value);
    if (bytes != null) {
      return bytes;
    }
    if (value instanceof NdArray a) {
      if (!a.dtype().equals(dtype) || !Arrays.equals(a.shape(), shape)) {
        throw new IllegalArgumentException("Array " + a + " does not match field " + describe());
      }
      return a.data().duplicate();
    }
    return PrimitiveArrays.toBytes(value, dtype);
  }

  @Override
  public NdArray decode(ByteBuffer record, int offset, PayloadReader payloads) {
    return new NdArray(dtype, shape, payloads.read(record.getLong(offset), byteSize));
  }
}
