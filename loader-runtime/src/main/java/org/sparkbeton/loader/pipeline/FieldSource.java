package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.io.PayloadStore;
import org.sparkbeton.loader.io.PayloadView;

/**
 * One field of the dataset as a decoder sees it: zero-copy metadata, bounds-checked payload reads,
 * and the samples the loader will read (so a decoder can scan their metadata while planning).
 */
public final class FieldSource {
  private final BetonReader reader;
  private final int field;
  private final int fieldOffset;
  private final int[] samples;
  private final PayloadStore payloads;
  private final long dataStart;
  private final long dataEnd;

  public FieldSource(BetonReader reader, int field, int[] samples, PayloadStore payloads) {
    this.reader = reader;
    this.field = field;
    this.fieldOffset = reader.layout().offset(field);
    this.samples = samples;
    this.payloads = payloads;
    this.dataStart = reader.metadataEnd();
    this.dataEnd = reader.header().allocTablePtr();
  }

  public BetonField field() {
    return reader.fields().get(field);
  }

  public String name() {
    return field().name();
  }

  public int typeId() {
    return field().typeId();
  }

  public String file() {
    return reader.file();
  }

  /** The samples the loader may read, in no particular order, possibly repeated. Do not modify. */
  public int[] samples() {
    return samples;
  }

  /** The metadata chunk holding {@code sample}'s record; use absolute gets at {@link #at(long)}. */
  public ByteBuffer records(long sample) {
    return reader.recordChunk(sample);
  }

  /** Offset of this field's metadata for {@code sample} inside {@link #records(long)}. */
  public int at(long sample) {
    return reader.recordOffset(sample) + fieldOffset;
  }

  /** Copies a payload into {@code dst}; throws {@link BetonFormatException} if it lies outside the data region. */
  public void copyPayload(long sample, long ptr, long length, ByteBuffer dst, int dstOffset) {
    check(sample, ptr, length);
    payloads.copy(ptr, (int) length, dst, dstOffset);
  }

  /** Points {@code view} at a payload without copying when possible (see {@link PayloadStore#view}). */
  public boolean viewPayload(long sample, long ptr, long length, PayloadView view) {
    check(sample, ptr, length);
    return payloads.view(ptr, (int) length, view);
  }

  /** Size of the allocation starting exactly at {@code ptr} (JPEG payloads). */
  public long allocationSize(long sample, long ptr) {
    long size = reader.allocations().sizeAt(ptr);
    if (size < 0) {
      throw new BetonFormatException(file(), "payload of sample " + sample + " field '" + name() + "'", ptr,
          "pointer " + Long.toUnsignedString(ptr) + " matches no allocation table entry");
    }
    return size;
  }

  /** File offset of this field's metadata for {@code sample} (for messages). */
  public long metadataOffset(long sample) {
    return reader.metadataStart() + sample * reader.layout().recordSize() + fieldOffset;
  }

  private void check(long sample, long ptr, long length) {
    if (ptr < dataStart || length < 0 || ptr > dataEnd || length > dataEnd - ptr || length > Integer.MAX_VALUE) {
      throw new BetonFormatException(file(), "payload of sample " + sample + " field '" + name() + "'", ptr,
          "pointer " + Long.toUnsignedString(ptr) + " with size " + Long.toUnsignedString(length)
              + " is outside the data region [" + dataStart + ", " + dataEnd + ")");
    }
  }

  /** Throws unless the field has one of {@code typeIds}. */
  public void requireType(String decoder, int... typeIds) {
    StringBuilder names = new StringBuilder();
    for (int t : typeIds) {
      if (t == typeId()) {
        return;
      }
      names.append(names.length() == 0 ? "" : " or ").append(FieldTypes.name(t));
    }
    throw new IllegalArgumentException(decoder + " decodes " + names + " fields, but field '" + name() + "' is "
        + FieldTypes.name(typeId()));
  }
}
