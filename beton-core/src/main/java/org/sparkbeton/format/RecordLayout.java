package org.sparkbeton.format;

import java.util.List;

/**
 * Where each field's metadata sits inside a record: numpy's {@code align=True} rule applied at the top
 * level only (docs/format.md#metadata-table). Each column is placed at the next multiple of its alignment; the
 * record size is rounded up to the largest alignment. Padding bytes are zero.
 */
public final class RecordLayout {
  private final int[] offsets;
  private final int recordSize;

  private RecordLayout(int[] offsets, int recordSize) {
    this.offsets = offsets;
    this.recordSize = recordSize;
  }

  public static RecordLayout of(List<FieldCodec> codecs) {
    int[] offsets = new int[codecs.size()];
    long off = 0;
    int maxAlign = 1;
    for (int i = 0; i < codecs.size(); i++) {
      FieldCodec codec = codecs.get(i);
      int align = codec.metadataAlignment();
      if (!BetonFormat.isPowerOfTwo(align)) {
        throw new IllegalArgumentException("Field " + i + " declares alignment " + align + ", expected a power of two");
      }
      if (codec.metadataSize() < 0) {
        throw new IllegalArgumentException("Field " + i + " declares a negative metadata size");
      }
      off = BetonFormat.alignUp(off, align);
      offsets[i] = (int) off;
      off += codec.metadataSize();
      maxAlign = Math.max(maxAlign, align);
      if (off > Integer.MAX_VALUE / 2) {
        throw new IllegalArgumentException("Metadata record too large: " + off + " bytes");
      }
    }
    return new RecordLayout(offsets, (int) BetonFormat.alignUp(off, maxAlign));
  }

  public int offset(int field) {
    return offsets[field];
  }

  public int recordSize() {
    return recordSize;
  }

  public int numFields() {
    return offsets.length;
  }
}
