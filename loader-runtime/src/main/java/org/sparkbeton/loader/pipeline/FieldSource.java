package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.loader.io.PayloadStore;
import org.sparkbeton.loader.io.PayloadView;
import org.sparkbeton.loader.io.Shards;

/**
 * One field of the dataset as a decoder sees it: zero-copy metadata, bounds-checked payload reads,
 * and the samples the loader will read (so a decoder can scan their metadata while planning).
 */
public final class FieldSource {
  /** PIL's limit ({@code Image.MAX_IMAGE_PIXELS}): larger images are refused as decompression bombs. */
  public static final long DEFAULT_MAX_IMAGE_PIXELS = 89_478_485;
  /** The most {@link #maxImagePixels()} may be: 3 bytes per pixel in one buffer. */
  public static final long LARGEST_MAX_IMAGE_PIXELS = (Integer.MAX_VALUE - 64) / 3;

  private final Shards shards;
  private final long maxImagePixels;
  private final BetonReader reader; // the first file: field definitions
  private final int field;
  private final int fieldOffset;
  private final int[] samples;
  private final Map<Object, Object> facts = new ConcurrentHashMap<>();

  /** A field of one file. */
  public FieldSource(BetonReader reader, int field, int[] samples, PayloadStore payloads) {
    this(Shards.of(reader, payloads), field, samples);
  }

  /** A field of one or more files read as one index space; {@code samples} are global indices. */
  public FieldSource(Shards shards, int field, int[] samples) {
    this(shards, field, samples, DEFAULT_MAX_IMAGE_PIXELS);
  }

  /** As above, accepting images of at most {@code maxImagePixels} pixels. */
  public FieldSource(Shards shards, int field, int[] samples, long maxImagePixels) {
    this.maxImagePixels = maxImagePixels;
    this.shards = shards;
    this.reader = shards.reader(0);
    this.field = field;
    this.fieldOffset = reader.layout().offset(field);
    this.samples = samples;
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

  /** The file (or files) for messages. */
  public String file() {
    return shards.name();
  }

  /**
   * The largest image (width x height from the metadata) an RGB decoder accepts: larger or empty images are bad
   * samples when read, and are left out when planning (scanning sizes, sizing scratch memory).
   */
  public long maxImagePixels() {
    return maxImagePixels;
  }

  /** The file of global sample {@code sample} and its index there, for messages: {@code part-0.beton, sample 3}. */
  public String where(long sample) {
    int s = shards.shardOf(sample);
    return shards.reader(s).file() + ", sample " + (sample - shards.start(s));
  }

  /** The samples the loader may read, in no particular order, possibly repeated. Do not modify. */
  public int[] samples() {
    return samples;
  }

  /**
   * What {@code compute} finds over this field's samples (a {@link #scan} of their metadata), computed once per
   * {@code key} and kept: a loader plans its pipelines again at every epoch (so that output sizes may change
   * between epochs), and the samples and their metadata do not change, so neither does a scan's result. Over
   * 1.28 million samples a scan takes tens of milliseconds warm and more in a fresh JVM, at every epoch's start.
   * The key names what is computed (the computing class, for instance); the result must depend on this field
   * source alone.
   */
  @SuppressWarnings("unchecked")
  public <T> T fact(Object key, Function<FieldSource, T> compute) {
    return (T) facts.computeIfAbsent(key, k -> compute.apply(this));
  }

  /** Receives one sample's metadata during {@link #scan}: its record chunk and the field's offset in it. */
  @FunctionalInterface
  public interface RecordVisitor {
    void visit(int sample, ByteBuffer records, int at);
  }

  /**
   * Visits the metadata of every sample of {@link #samples()}, in that order, as {@link #records} and {@link #at}
   * give it, for decoders that scan the samples while planning. A sample in the same file as the one before it
   * (the common case: samples in index order) finds its file without a search, where {@link #records} and
   * {@link #at} each search the files' starts: over 1,000 shards that was most of a 1.28-million-sample scan.
   */
  public void scan(RecordVisitor visitor) {
    int shard = 0;
    long lo = shards.start(0);
    long hi = shards.start(1);
    BetonReader r = shards.reader(0);
    int recordSize = r.layout().recordSize(); // the same in every file: they have the same fields
    ByteBuffer chunk = null;
    long chunkFirst = 0; // the chunk's records: samples [chunkFirst, chunkEnd) of the file
    long chunkEnd = 0;
    for (int s : samples) {
      if (s < lo || s >= hi) {
        shard = shards.shardOf(s);
        lo = shards.start(shard);
        hi = shards.start(shard + 1);
        r = shards.reader(shard);
        chunk = null;
      }
      long local = s - lo;
      if (chunk == null || local < chunkFirst || local >= chunkEnd) {
        // a chunk is fetched once for its run of records, not once per sample (a cold JVM interprets that call)
        chunk = r.recordChunk(local);
        chunkFirst = r.recordChunkStart(local);
        chunkEnd = r.recordChunkEnd(local);
      }
      visitor.visit(s, chunk, (int) (local - chunkFirst) * recordSize + fieldOffset);
    }
  }

  /** The metadata chunk holding {@code sample}'s record; use absolute gets at {@link #at(long)}. */
  public ByteBuffer records(long sample) {
    int s = shards.shardOf(sample);
    return shards.reader(s).recordChunk(sample - shards.start(s));
  }

  /** Offset of this field's metadata for {@code sample} inside {@link #records(long)}. */
  public int at(long sample) {
    int s = shards.shardOf(sample);
    return shards.reader(s).recordOffset(sample - shards.start(s)) + fieldOffset;
  }

  /** Copies a payload into {@code dst}; throws {@link BetonFormatException} if it lies outside the data region. */
  public void copyPayload(long sample, long ptr, long length, ByteBuffer dst, int dstOffset) {
    int s = check(sample, ptr, length);
    shards.store(s).copy(ptr, (int) length, dst, dstOffset);
  }

  /** Points {@code view} at a payload without copying when possible (see {@link PayloadStore#view}). */
  public boolean viewPayload(long sample, long ptr, long length, PayloadView view) {
    int s = check(sample, ptr, length);
    return shards.store(s).view(ptr, (int) length, view);
  }

  /** Size of the allocation starting exactly at {@code ptr} (JPEG payloads). */
  public long allocationSize(long sample, long ptr) {
    int s = shards.shardOf(sample);
    long size = shards.reader(s).allocations().sizeAt(ptr);
    if (size < 0) {
      throw new BetonFormatException(shards.reader(s).file(), "payload of sample " + sample + " field '" + name() + "'", ptr,
          "pointer " + Long.toUnsignedString(ptr) + " matches no allocation table entry");
    }
    return size;
  }

  /** File offset of this field's metadata for {@code sample} (for messages). */
  public long metadataOffset(long sample) {
    int s = shards.shardOf(sample);
    BetonReader r = shards.reader(s);
    return r.metadataStart() + (sample - shards.start(s)) * r.layout().recordSize() + fieldOffset;
  }

  /** Checks a payload against its file's data region; returns the file's shard. */
  private int check(long sample, long ptr, long length) {
    int s = shards.shardOf(sample);
    BetonReader r = shards.reader(s);
    long dataStart = r.metadataEnd();
    long dataEnd = r.header().allocTablePtr();
    if (ptr < dataStart || length < 0 || ptr > dataEnd || length > dataEnd - ptr || length > Integer.MAX_VALUE) {
      throw new BetonFormatException(r.file(), "payload of sample " + sample + " field '" + name() + "'", ptr,
          "pointer " + Long.toUnsignedString(ptr) + " with size " + Long.toUnsignedString(length)
              + " is outside the data region [" + dataStart + ", " + dataEnd + ")");
    }
    return s;
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
