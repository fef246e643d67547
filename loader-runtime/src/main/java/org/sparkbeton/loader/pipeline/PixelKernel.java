package org.sparkbeton.loader.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.sparkbeton.codec.pixels.ChannelLookup;
import org.sparkbeton.format.fields.Float16;

/**
 * One worker's fused pass over a run of {@link PixelStage}s: per sample it composes the stages'
 * coordinate mappings into a column and a row table and their value mappings into a per-channel
 * lookup table of the final element type, then reads each input row once and writes each output row
 * once in the final layout. The loop is one of six monomorphic loops (uint8/float16/float32 ×
 * HWC/CHW) chosen at plan time: no call per pixel, nothing allocated per sample.
 */
final class PixelKernel {
  private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final PixelStage[] stages;
  private final int firstStep;
  private final int height;
  private final int width;
  private final DType dtype;
  private final boolean channelsFirst;
  private final boolean randomValues;
  private final int[] columns; // composed coordinate mapping of this sample
  private final int[] rows;
  private final int[] sourceOffsets; // columns * 3
  private final int[] identityRows; // what the pass reads when a decoder has applied the mapping already
  private final int[] identityOffsets;
  private int[] passRows;
  private int[] passOffsets;
  private final float[][] table = new float[3][256];
  // the composed tables of the output type, channel c at [256 c, 256 c + 256) (ChannelLookup's layout)
  private final byte[] flatU8 = new byte[768];
  private final short[] flatF16 = new short[768];
  private final int[] flatF32 = new int[768];
  private final Object flatTable; // the one of the output type
  private final float[] halfAffine; // float16 planes from fixed tables: ChannelLookup's exact fit, or null
  private final byte[] sourceRow; // one spare byte at the end: a pixel is read as one 4-byte int
  private final byte[][] outRows; // HWC: spare bytes at the end, a pixel is written as one int or long
  private boolean identityValues; // uint8 out and every value mapped to itself: pixels are copied
  private boolean mappedColumnsIdentity; // the composed mapping leaves columns (rows) where they are
  private boolean mappedRowsIdentity;
  private boolean identityColumns; // the pass reads every column where it writes it
  private boolean rowsInPlace; // ... and every row

  /** {@code stages} planned for a uint8 [H, W, 3] input; {@code firstStep} is the pipeline step of the first. */
  PixelKernel(PixelStage[] stages, TensorSpec input, int firstStep) {
    this.stages = stages;
    this.firstStep = firstStep;
    this.height = input.dim(0);
    this.width = input.dim(1);
    PixelStage last = stages[stages.length - 1];
    this.dtype = last.output().dtype();
    this.channelsFirst = last.channelsFirst();
    boolean random = false;
    for (PixelStage s : stages) {
      random |= s.randomValues();
    }
    this.randomValues = random;
    this.flatTable = switch (dtype) {
      case UINT8 -> flatU8;
      case FLOAT16 -> flatF16;
      default -> flatF32;
    };
    this.columns = new int[width];
    this.rows = new int[height];
    this.sourceOffsets = new int[width];
    this.identityRows = new int[height];
    this.identityOffsets = new int[width];
    for (int y = 0; y < height; y++) {
      identityRows[y] = y;
    }
    for (int x = 0; x < width; x++) {
      identityOffsets[x] = 3 * x;
    }
    this.sourceRow = new byte[width * 3 + 1];
    int e = dtype.size();
    this.outRows = channelsFirst ? new byte[][] {new byte[width * e], new byte[width * e], new byte[width * e]}
        : new byte[][] {new byte[width * 3 * e + 8]};
    if (!randomValues) {
      buildTables();
    }
    // a fixed float16 map into planes (NormalizeImage's): computed eight values at a time where a float pair
    // reproduces every entry; checked on all 256 values per channel, so the same bytes as the lookup
    this.halfAffine = !randomValues && dtype == DType.FLOAT16 && channelsFirst ? ChannelLookup.fitHalfAffine(flatF16)
        : null;
  }

  /** Reads the uint8 [H, W, 3] sample at {@code inOffset} of {@code in}, writes the run's output at {@code outOffset}. */
  void run(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
    begin(ctx);
    pass(in, inOffset, out, outOffset, false);
  }

  /**
   * First half of {@link #run}: the stages draw this sample's randomness and the mappings are composed.
   * After it, {@link #columnMap()} and {@link #rowMap()} tell a {@link Decoder.MappingStage} where to
   * put its pixels, and {@link #pass} does the rest.
   */
  void begin(SampleContext ctx) {
    for (int k = 0; k < stages.length; k++) {
      ctx.enterStage(firstStep + k); // the same random stream as the stage run on its own
      stages[k].begin(ctx);
    }
    mapCoordinates();
    if (randomValues) {
      buildTables();
    }
  }

  /** This sample's composed column mapping after {@link #begin}, or null when it is the identity. */
  int[] columnMap() {
    return mappedColumnsIdentity ? null : columns;
  }

  /** As {@link #columnMap()}, for rows. */
  int[] rowMap() {
    return mappedRowsIdentity ? null : rows;
  }

  /**
   * True when, after {@link #begin}, the pass over an input whose coordinates are already mapped would
   * only copy it (uint8 [H, W, 3] out, every value mapped to itself): a mapping decoder can then write
   * the run's output itself.
   */
  boolean copiesMappedInput() {
    return identityValues && !channelsFirst;
  }

  /**
   * Second half of {@link #run}: one pass from {@code in} to the run's output, applying the composed
   * coordinate mapping unless {@code coordinatesMapped} (a decoder already did).
   */
  void pass(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, boolean coordinatesMapped) {
    passRows = coordinatesMapped ? identityRows : rows;
    passOffsets = coordinatesMapped ? identityOffsets : sourceOffsets;
    identityColumns = coordinatesMapped || mappedColumnsIdentity;
    rowsInPlace = coordinatesMapped || mappedRowsIdentity;
    boolean copy = identityValues && !channelsFirst;
    if (identityColumns && rowsInPlace && !copy && in.isDirect() && out.isDirect() && ChannelLookup.nativeAvailable()) {
      // pixels in place, direct memory both sides (a resizing decoder's output into the batch slot): the
      // native lookup pass, ~3x the JIT's speed on these loops (three independent loads and stores a pixel)
      if (halfAffine != null) {
        ChannelLookup.applyHalfPlanes(in, inOffset, height * width, flatF16, halfAffine, out, outOffset);
      } else {
        ChannelLookup.apply(in, inOffset, height * width, flatTable, channelsFirst, out, outOffset);
      }
      return;
    }
    if (channelsFirst) {
      switch (dtype) {
        case UINT8 -> planesU8(in, inOffset, out, outOffset);
        case FLOAT16 -> planesF16(in, inOffset, out, outOffset);
        default -> planesF32(in, inOffset, out, outOffset);
      }
    } else {
      switch (dtype) {
        case UINT8 -> {
          if (!identityValues) {
            pixelsU8(in, inOffset, out, outOffset);
          } else if (identityColumns) {
            copyRows(in, inOffset, out, outOffset);
          } else {
            pixelCopyU8(in, inOffset, out, outOffset);
          }
        }
        case FLOAT16 -> pixelsF16(in, inOffset, out, outOffset);
        default -> pixelsF32(in, inOffset, out, outOffset);
      }
    }
  }

  /** Composes the coordinate mappings, last stage first: each turns "its output" indices into "its input" ones. */
  private void mapCoordinates() {
    for (int x = 0; x < width; x++) {
      columns[x] = x;
    }
    for (int y = 0; y < height; y++) {
      rows[y] = y;
    }
    for (int k = stages.length - 1; k >= 0; k--) {
      stages[k].mapColumns(columns);
      stages[k].mapRows(rows);
    }
    boolean sameColumns = true;
    boolean sameRows = true;
    for (int x = 0; x < width; x++) {
      int c = columns[x];
      sameColumns &= c == x;
      if (c < 0 || c >= width) {
        throw new IllegalStateException(describe() + ": a stage mapped output column " + x + " to input column " + c
            + ", outside 0.." + (width - 1));
      }
      sourceOffsets[x] = c * 3;
    }
    for (int y = 0; y < height; y++) {
      sameRows &= rows[y] == y;
      if (rows[y] < 0 || rows[y] >= height) {
        throw new IllegalStateException(describe() + ": a stage mapped output row " + y + " to input row " + rows[y]
            + ", outside 0.." + (height - 1));
      }
    }
    mappedColumnsIdentity = sameColumns;
    mappedRowsIdentity = sameRows;
  }

  private String describe() {
    StringBuilder b = new StringBuilder("Fused pixel stages (");
    for (int i = 0; i < stages.length; i++) {
      b.append(i == 0 ? "" : ", ").append(stages[i].getClass().getName());
    }
    return b.append(')').toString();
  }

  /** Composes the value mappings in order into the output type's lookup tables. */
  private void buildTables() {
    for (int c = 0; c < 3; c++) {
      for (int v = 0; v < 256; v++) {
        table[c][v] = v;
      }
    }
    for (PixelStage s : stages) {
      s.mapValues(table);
      DType t = s.output().dtype();
      for (int c = 0; c < 3; c++) {
        float[] row = table[c];
        for (int v = 0; v < 256; v++) {
          if (t == DType.FLOAT16) {
            row[v] = Float16.toFloat(Float16.fromFloat(row[v])); // what the next stage would read unfused
          } else if (t == DType.UINT8 && !(row[v] >= 0 && row[v] <= 255 && row[v] == (int) row[v])) {
            throw new IllegalStateException(s.getClass().getName() + " declares uint8 output but mapped value " + v
                + " of channel " + c + " to " + row[v]);
          }
        }
      }
    }
    boolean identity = dtype == DType.UINT8;
    for (int c = 0; c < 3; c++) {
      for (int v = 0; v < 256; v++) {
        float f = table[c][v];
        identity &= f == v;
        switch (dtype) {
          case UINT8 -> flatU8[256 * c + v] = (byte) (int) f;
          case FLOAT16 -> flatF16[256 * c + v] = Float16.fromFloat(f);
          default -> flatF32[256 * c + v] = Float.floatToRawIntBits(f);
        }
      }
    }
    identityValues = identity;
  }

  /** Identity values and columns: whole rows (or the whole image) copied buffer to buffer. */
  private void copyRows(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    int rowBytes = width * 3;
    if (rowsInPlace) {
      out.put(outOffset, in, inOffset, rowBytes * height);
      return;
    }
    for (int y = 0; y < height; y++) {
      out.put(outOffset + y * rowBytes, in, inOffset + passRows[y] * rowBytes, rowBytes);
    }
  }

  /**
   * Identity values, mapped columns (a flip): each pixel moved as one 4-byte load and store; the 4th
   * byte written is overwritten by the next pixel, and the row buffers have a spare byte for the last.
   */
  private void pixelCopyU8(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o = outRows[0];
    int[] at = passOffsets;
    int rowBytes = width * 3;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * rowBytes, src, 0, rowBytes);
      for (int x = 0, d = 0; x < width; x++, d += 3) {
        INTS.set(o, d, (int) INTS.get(src, at[x]));
      }
      out.put(outOffset + y * rowBytes, o, 0, rowBytes);
    }
  }

  private void pixelsU8(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o = outRows[0];
    byte[] t = flatU8; // channel c at [256 c, 256 c + 256)
    int[] at = passOffsets;
    int rowBytes = width * 3;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * rowBytes, src, 0, rowBytes);
      for (int x = 0, d = 0; x < width; x++, d += 3) {
        int p = (int) INTS.get(src, at[x]);
        INTS.set(o, d, (t[p & 0xff] & 0xff) | (t[256 + ((p >>> 8) & 0xff)] & 0xff) << 8
            | (t[512 + ((p >>> 16) & 0xff)] & 0xff) << 16);
      }
      out.put(outOffset + y * rowBytes, o, 0, rowBytes);
    }
  }

  private void pixelsF16(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o = outRows[0];
    short[] t = flatF16; // channel c at [256 c, 256 c + 256)
    int[] at = passOffsets;
    int rowBytes = width * 3;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * rowBytes, src, 0, rowBytes);
      for (int x = 0, d = 0; x < width; x++, d += 6) {
        int p = (int) INTS.get(src, at[x]);
        LONGS.set(o, d, (t[p & 0xff] & 0xffffL) | (t[256 + ((p >>> 8) & 0xff)] & 0xffffL) << 16
            | (t[512 + ((p >>> 16) & 0xff)] & 0xffffL) << 32);
      }
      out.put(outOffset + y * rowBytes * 2, o, 0, rowBytes * 2);
    }
  }

  private void pixelsF32(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o = outRows[0];
    int[] t = flatF32; // channel c at [256 c, 256 c + 256)
    int[] at = passOffsets;
    int rowBytes = width * 3;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * rowBytes, src, 0, rowBytes);
      for (int x = 0, d = 0; x < width; x++, d += 12) {
        int s = at[x];
        INTS.set(o, d, t[src[s] & 0xff]);
        INTS.set(o, d + 4, t[256 + (src[s + 1] & 0xff)]);
        INTS.set(o, d + 8, t[512 + (src[s + 2] & 0xff)]);
      }
      out.put(outOffset + y * rowBytes * 4, o, 0, rowBytes * 4);
    }
  }

  private void planesU8(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o0 = outRows[0];
    byte[] o1 = outRows[1];
    byte[] o2 = outRows[2];
    byte[] t = flatU8; // channel c at [256 c, 256 c + 256)
    int[] at = passOffsets;
    int plane = height * width;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * width * 3, src, 0, width * 3);
      for (int x = 0; x < width; x++) {
        int s = at[x];
        o0[x] = t[src[s] & 0xff];
        o1[x] = t[256 + (src[s + 1] & 0xff)];
        o2[x] = t[512 + (src[s + 2] & 0xff)];
      }
      int d = outOffset + y * width;
      out.put(d, o0, 0, width);
      out.put(d + plane, o1, 0, width);
      out.put(d + 2 * plane, o2, 0, width);
    }
  }

  private void planesF16(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o0 = outRows[0];
    byte[] o1 = outRows[1];
    byte[] o2 = outRows[2];
    short[] t = flatF16; // channel c at [256 c, 256 c + 256)
    int[] at = passOffsets;
    int plane = height * width * 2;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * width * 3, src, 0, width * 3);
      for (int x = 0, d = 0; x < width; x++, d += 2) {
        int p = (int) INTS.get(src, at[x]);
        SHORTS.set(o0, d, t[p & 0xff]);
        SHORTS.set(o1, d, t[256 + ((p >>> 8) & 0xff)]);
        SHORTS.set(o2, d, t[512 + ((p >>> 16) & 0xff)]);
      }
      int d = outOffset + y * width * 2;
      out.put(d, o0, 0, width * 2);
      out.put(d + plane, o1, 0, width * 2);
      out.put(d + 2 * plane, o2, 0, width * 2);
    }
  }

  private void planesF32(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset) {
    byte[] src = sourceRow;
    byte[] o0 = outRows[0];
    byte[] o1 = outRows[1];
    byte[] o2 = outRows[2];
    int[] t = flatF32; // channel c at [256 c, 256 c + 256)
    int[] at = passOffsets;
    int plane = height * width * 4;
    for (int y = 0; y < height; y++) {
      in.get(inOffset + passRows[y] * width * 3, src, 0, width * 3);
      for (int x = 0, d = 0; x < width; x++, d += 4) {
        int s = at[x];
        INTS.set(o0, d, t[src[s] & 0xff]);
        INTS.set(o1, d, t[256 + (src[s + 1] & 0xff)]);
        INTS.set(o2, d, t[512 + (src[s + 2] & 0xff)]);
      }
      int d = outOffset + y * width * 4;
      out.put(d, o0, 0, width * 4);
      out.put(d + plane, o1, 0, width * 4);
      out.put(d + 2 * plane, o2, 0, width * 4);
    }
  }
}
