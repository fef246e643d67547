package org.sparkbeton.format;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.sparkbeton.format.io.BetonSource;
import org.sparkbeton.format.io.MappedFileSource;

/**
 * Reads any {@code .beton} file, ours or FFCV's, of any size. Opening reads the header, the
 * descriptors and the allocation table (sorted by pointer; left unread with
 * {@link ReadOptions#withoutAllocationTable()}, read by its first user with
 * {@link ReadOptions#allocationTableOnFirstUse()}); metadata records are fetched in chunks
 * on first use, so a reader that touches a few samples reads a few chunks. Every offset and size
 * from the file is checked before use: a malformed file raises {@link BetonFormatException} naming
 * the file, region and offset. Safe for concurrent reads from many threads.
 */
public final class BetonReader implements Closeable {
  private final BetonSource source;
  private final String file;
  private final Header header;
  private final List<BetonField> fields;
  private final RecordLayout layout;
  private final long metadataStart;
  private final long metadataEnd;
  private final long length;
  private final MetadataChunks metadata;
  /** Null when opened {@link ReadOptions#withoutAllocationTable()}, or until first use when so opened. */
  private volatile AllocationTable allocations;
  private final boolean tableOnFirstUse;

  private BetonReader(BetonSource source, ReadOptions options) throws IOException {
    this.source = source;
    this.file = source.name();
    this.length = source.length();
    if (length < BetonFormat.HEADER_SIZE) {
      throw new BetonFormatException(file, "header", 0,
          "file is " + length + " bytes, shorter than the " + BetonFormat.HEADER_SIZE + "-byte header");
    }
    this.header = Header.parse(source.read(0, BetonFormat.HEADER_SIZE), file);
    if (header.numFields() == 0) {
      throw new BetonFormatException(file, "header", 2, "the file declares no fields");
    }
    this.metadataStart = BetonFormat.metadataStart(header.numFields());
    if (metadataStart > length) {
      throw new BetonFormatException(file, "field descriptors", BetonFormat.HEADER_SIZE,
          header.numFields() + " descriptors need " + (metadataStart - BetonFormat.HEADER_SIZE)
              + " bytes but the file ends at " + length);
    }
    this.fields = readFields(options);
    List<FieldCodec> codecs = new ArrayList<>();
    fields.forEach(f -> codecs.add(f.codec()));
    this.layout = RecordLayout.of(codecs);
    long alloc = header.allocTablePtr();
    long room = Math.min(alloc, length) - metadataStart;
    if (room < 0 || (layout.recordSize() > 0 && header.numSamples() > room / layout.recordSize())) {
      throw new BetonFormatException(file, "metadata", metadataStart, header.numSamples() + " records of "
          + layout.recordSize() + " bytes do not fit before the allocation table at " + alloc
          + " (file length " + length + ")");
    }
    this.metadataEnd = metadataStart + header.numSamples() * layout.recordSize();
    if (alloc > length) {
      throw new BetonFormatException(file, "header", 16,
          "allocation table pointer " + alloc + " is past the end of the file (" + length + " bytes)");
    }
    this.metadata = new MetadataChunks(source, metadataStart, layout.recordSize(), header.numSamples());
    this.tableOnFirstUse = options.tableRead() == ReadOptions.TableRead.ON_FIRST_USE;
    if (options.tableRead() == ReadOptions.TableRead.AT_OPEN) {
      this.allocations = AllocationTable.read(source, alloc, metadataEnd, header.numSamples());
    }
  }

  /** Opens a local file, memory-mapped. */
  public static BetonReader open(Path path) throws IOException {
    return open(path, ReadOptions.defaults());
  }

  public static BetonReader open(Path path, ReadOptions options) throws IOException {
    return open(new MappedFileSource(path), options);
  }

  /** Opens any source; the reader owns it and closes it. */
  public static BetonReader open(BetonSource source, ReadOptions options) throws IOException {
    try {
      return new BetonReader(source, options);
    } catch (RuntimeException | IOException e) {
      source.close();
      throw e;
    }
  }

  private List<BetonField> readFields(ReadOptions options) throws IOException {
    int n = header.numFields();
    ByteBuffer table = source.read(BetonFormat.HEADER_SIZE, n * BetonFormat.DESCRIPTOR_SIZE);
    List<BetonField> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long at = BetonFormat.HEADER_SIZE + (long) i * BetonFormat.DESCRIPTOR_SIZE;
      FieldDescriptor d = FieldDescriptor.parse(table.position(i * BetonFormat.DESCRIPTOR_SIZE), i, at, file);
      FieldCodecFactory factory = options.customFactory(d.name());
      if (factory == null) {
        factory = FieldTypes.builtIn(d.typeId());
      }
      if (factory == null) {
        String why = d.typeId() == FieldTypes.CUSTOM
            ? "field '" + d.name() + "' is a custom field (type id 255) and no handler is registered for it;"
                + " pass ReadOptions.customField(\"" + d.name() + "\", factory)"
            : "field '" + d.name() + "' has unknown type id " + d.typeId();
        throw new BetonFormatException(file, "field descriptor " + i, at, why);
      }
      try {
        out.add(new BetonField(d.name(), factory.fromArguments(d.arguments())));
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new BetonFormatException(file, "field descriptor " + i + " arguments", at + 1 + BetonFormat.NAME_SIZE,
            "field '" + d.name() + "': " + e.getMessage(), e);
      }
    }
    return Collections.unmodifiableList(out);
  }

  public String file() { return file; }
  public Header header() { return header; }
  public List<BetonField> fields() { return fields; }
  public RecordLayout layout() { return layout; }
  public long numSamples() { return header.numSamples(); }
  public long pageSize() { return header.pageSize(); }
  /** The file's length in bytes, as its source gave it at open. */
  public long fileLength() { return length; }
  /** The allocation table; throws for a reader opened {@link ReadOptions#withoutAllocationTable()}. */
  public AllocationTable allocations() {
    AllocationTable table = allocations;
    if (table != null) {
      return table;
    }
    if (!tableOnFirstUse) {
      throw new IllegalStateException(file + " was opened without its allocation table"
          + " (ReadOptions.withoutAllocationTable()), for reading metadata records only");
    }
    return readAllocations();
  }

  /**
   * The table of a reader opened {@link ReadOptions#allocationTableOnFirstUse()}: read and checked by the first
   * caller, once; a damaged table fails every call.
   *
   * @throws BetonFormatException when the table is damaged
   * @throws java.io.UncheckedIOException when it cannot be read
   */
  private synchronized AllocationTable readAllocations() {
    if (allocations == null) {
      try {
        allocations = AllocationTable.read(source, header.allocTablePtr(), metadataEnd, header.numSamples());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the allocation table of " + file, e);
      }
    }
    return allocations;
  }
  public BetonSource source() { return source; }
  /** Offset of the first metadata record. */
  public long metadataStart() { return metadataStart; }
  /** End of the metadata records: the data region lies in {@code [metadataEnd, allocTablePtr)}. */
  public long metadataEnd() { return metadataEnd; }

  /** Index of the field named {@code name}; throws if absent or ambiguous. */
  public int fieldIndex(String name) {
    int found = -1;
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        if (found >= 0) {
          throw new IllegalArgumentException("Field name '" + name + "' appears twice in " + file);
        }
        found = i;
      }
    }
    if (found < 0) {
      String nearest = org.sparkbeton.format.options.OptionNames.nearest(name,
          fields.stream().map(BetonField::name).toList()).map(n -> "; did you mean '" + n + "'?").orElse("");
      throw new IllegalArgumentException("No field '" + name + "' in " + file + nearest + "; fields are " + fields);
    }
    return found;
  }

  /**
   * The metadata record of {@code sample}: a little-endian read-only buffer whose record starts at
   * {@link #recordOffset(long)}. The buffer is shared by neighbouring samples: use absolute gets.
   */
  public ByteBuffer recordChunk(long sample) {
    checkSample(sample);
    try {
      return metadata.chunkOf(sample);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int recordOffset(long sample) {
    return metadata.offsetInChunk(sample);
  }

  /**
   * The samples whose records share {@code sample}'s {@link #recordChunk}: {@code [recordChunkStart(sample),
   * recordChunkEnd(sample))}, at offsets {@code recordSize} apart from 0, so a scan fetches the chunk once.
   */
  public long recordChunkStart(long sample) {
    return metadata.chunkStart(sample);
  }

  /** See {@link #recordChunkStart}. */
  public long recordChunkEnd(long sample) {
    return metadata.chunkEnd(sample);
  }

  /** The raw metadata bytes of one sample (a copy). */
  public byte[] recordBytes(long sample) {
    ByteBuffer chunk = recordChunk(sample);
    byte[] out = new byte[layout.recordSize()];
    chunk.get(recordOffset(sample), out);
    return out;
  }

  public long intValue(long sample, int field) {
    requireType(field, FieldTypes.INT);
    return recordChunk(sample).getLong(recordOffset(sample) + layout.offset(field));
  }

  public double floatValue(long sample, int field) {
    requireType(field, FieldTypes.FLOAT);
    return recordChunk(sample).getDouble(recordOffset(sample) + layout.offset(field));
  }

  /** Decodes one value with the field's codec (Long, Double, byte[], String, RgbImage, NdArray, ...). */
  public Object value(long sample, int field) {
    ByteBuffer chunk = recordChunk(sample);
    int at = recordOffset(sample) + layout.offset(field);
    try {
      return fields.get(field).codec().decode(chunk, at, payloadReader(sample, field));
    } catch (IllegalArgumentException e) {
      throw new BetonFormatException(file, "metadata of sample " + sample + " field '" + fields.get(field).name() + "'",
          metadataStart + sample * layout.recordSize() + layout.offset(field), e.getMessage(), e);
    }
  }

  /** All values of one sample, in field order. */
  public Object[] sample(long sample) {
    Object[] out = new Object[fields.size()];
    for (int f = 0; f < out.length; f++) {
      out[f] = value(sample, f);
    }
    return out;
  }

  /** Bounds-checked payload access for codecs decoding {@code sample}'s {@code field}. */
  public FieldCodec.PayloadReader payloadReader(long sample, int field) {
    return new CheckedPayloads(sample, field);
  }

  private void requireType(int field, int typeId) {
    int actual = fields.get(field).typeId();
    if (actual != typeId) {
      throw new IllegalArgumentException("Field '" + fields.get(field).name() + "' is " + FieldTypes.name(actual)
          + ", not " + FieldTypes.name(typeId));
    }
  }

  private void checkSample(long sample) {
    if (sample < 0 || sample >= header.numSamples()) {
      throw new IndexOutOfBoundsException("Sample " + sample + " is outside 0.." + (header.numSamples() - 1) + " of " + file);
    }
  }

  @Override
  public void close() throws IOException {
    source.close();
  }

  private final class CheckedPayloads implements FieldCodec.PayloadReader {
    private final long sample;
    private final int field;

    CheckedPayloads(long sample, int field) {
      this.sample = sample;
      this.field = field;
    }

    private String region() {
      return "payload of sample " + sample + " field '" + fields.get(field).name() + "'";
    }

    @Override
    public ByteBuffer read(long ptr, long size) {
      long end = header.allocTablePtr();
      if (ptr < metadataEnd || size < 0 || ptr > end || size > end - ptr || size > Integer.MAX_VALUE) {
        throw new BetonFormatException(file, region(), ptr, "pointer " + Long.toUnsignedString(ptr) + " with size "
            + Long.toUnsignedString(size) + " is outside the data region [" + metadataEnd + ", " + end + ")");
      }
      try {
        return source.read(ptr, (int) size).order(ByteOrder.LITTLE_ENDIAN);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public long allocationSize(long ptr) {
      long size = allocations().sizeAt(ptr);
      if (size < 0) {
        throw new BetonFormatException(file, region(), ptr,
            "pointer " + Long.toUnsignedString(ptr) + " matches no allocation table entry");
      }
      return size;
    }
  }
}
