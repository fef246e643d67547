package org.sparkbeton.format.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.RecordLayout;

/**
 * One writer thread's view of a {@link BetonWriter}, as one FFCV worker process: it owns a private
 * page buffer, books pages from the shared counter, and follows FFCV's page rules exactly
 * (docs/format.md#data-pages): all allocations of a sample share a page, adjacent, in allocation order; a sample
 * that does not fit flushes the page (with any bytes of its first attempt, left as orphans) and is encoded again
 * from the start of a fresh page. Where the pages end up in the file is the writer's {@link PageLayout}.
 * Not thread-safe: use one per thread, and close it (which flushes its last page) before
 * {@link BetonWriter#finish()}.
 */
public final class SampleWriter implements AutoCloseable {
  private final BetonWriter owner;
  private final List<BetonField> fields;
  private final RecordLayout layout;
  private final long pageSize;
  private final byte[] record;
  private final ByteBuffer recordBuffer;
  private final ByteBuffer scratchRecord;
  private final Allocator allocator = new Allocator();
  private final Measure measure = new Measure();
  private final long[] fieldBytes;
  /** Allocation table entries of this worker, in allocation order; pointers relative to the data region. */
  final LongList entrySamples = new LongList();
  final LongList entryPtrs = new LongList();
  final LongList entrySizes = new LongList();
  private ByteBuffer page;
  private long pageIndex = -1;
  private int used;
  private boolean closed;

  SampleWriter(BetonWriter owner, List<BetonField> fields, RecordLayout layout, long pageSize) {
    this.owner = owner;
    this.fields = fields;
    this.layout = layout;
    this.pageSize = pageSize;
    this.record = new byte[layout.recordSize()];
    this.recordBuffer = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    this.scratchRecord = ByteBuffer.allocate(layout.recordSize()).order(ByteOrder.LITTLE_ENDIAN);
    this.fieldBytes = new long[fields.size()];
  }

  /** Writes the next sample (indices assigned in call order across all workers); returns its index. */
  public long append(Object... values) {
    checkValues(values);
    measure(values);
    long index = owner.nextAppendIndex();
    encode(index, values);
    return index;
  }

  /** Writes sample {@code index}; every index in {@code [0, N)} must be written exactly once. */
  public void write(long index, Object... values) {
    checkValues(values);
    owner.useExplicitIndices();
    if (owner.isWritten(index)) {
      throw new IllegalArgumentException("Sample " + index + " was already written");
    }
    measure(values);
    encode(index, values);
  }

  private void checkValues(Object[] values) {
    if (closed) {
      throw new IllegalStateException("This SampleWriter is closed");
    }
    owner.checkOpen();
    if (values.length != fields.size()) {
      throw new IllegalArgumentException("Expected " + fields.size() + " values " + fields + ", got " + values.length);
    }
  }

  /** Encodes once into scratch space to learn the payload sizes: refuses oversize samples before any write. */
  private void measure(Object[] values) {
    Arrays.fill(fieldBytes, 0);
    long total = 0;
    for (int f = 0; f < values.length; f++) {
      measure.field = f;
      encodeField(f, values[f], scratchRecord, measure);
      total += fieldBytes[f];
    }
    if (total > pageSize) {
      StringBuilder parts = new StringBuilder();
      for (int f = 0; f < values.length; f++) {
        parts.append(f == 0 ? "" : ", ").append(fields.get(f).name()).append('=').append(fieldBytes[f]);
      }
      throw new SampleTooLargeException("Sample needs " + total + " bytes of payload (" + parts
          + ") but a page holds " + pageSize + "; all of a sample's payloads must share one page: use a larger page size");
    }
  }

  private void encodeField(int f, Object value, ByteBuffer target, FieldCodec.EncodeContext ctx) {
    try {
      fields.get(f).codec().encode(value, target, layout.offset(f), ctx);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Field '" + fields.get(f).name() + "': " + e.getMessage(), e);
    }
  }

  private void encode(long index, Object[] values) {
    allocator.sample = index;
    int mark = entryPtrs.size();
    try {
      for (int attempt = 0; ; attempt++) {
        Arrays.fill(record, (byte) 0);
        try {
          for (int f = 0; f < values.length; f++) {
            encodeField(f, values[f], recordBuffer, allocator);
          }
          break;
        } catch (PageFull full) {
          // FFCV drops the sample's pending entries and starts it again at the top of a fresh page.
          entrySamples.truncate(mark);
          entryPtrs.truncate(mark);
          entrySizes.truncate(mark);
          if (attempt > 0) {
            throw new IllegalStateException("Sample " + index + " did not fit an empty page although it measured "
                + "small enough; a codec encoded differently the second time");
          }
        }
      }
      owner.putRecord(index, record);
      long bytes = 0;
      for (int i = mark; i < entrySizes.size(); i++) {
        bytes += Math.max(1, entrySizes.get(i));
      }
      owner.addPayloadBytes(bytes);
    } catch (RuntimeException e) {
      owner.fail(e);
      throw e;
    }
  }

  private void bookPage() {
    if (page == null) {
      page = ByteBuffer.allocateDirect((int) pageSize);
    }
    pageIndex = owner.bookPage();
    used = 0;
  }

  private void flushPage() {
    if (pageIndex < 0) {
      return;
    }
    page.clear();
    try {
      owner.writePage(pageIndex, page, used);
    } catch (IOException e) {
      throw new UncheckedIOException("Writing page " + pageIndex + " of " + owner.target(), e);
    }
    // The buffer was zero beyond `used`; zero the used part so the next page's tail is zero too, in bulk copies (a
    // loop of single-byte puts took 8x as long on a full 8 MiB page: 1.7 ms against 0.2)
    page.clear();
    for (int at = 0; at < used; at += ZEROS.capacity()) {
      page.put(at, ZEROS, 0, Math.min(ZEROS.capacity(), used - at));
    }
    pageIndex = -1;
  }

  /** Flushes the last page. The writer's own pages are written in full, as FFCV's are. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    flushPage();
  }

  /** Drops the worker without writing its page (the writer is being aborted). */
  void abandon() {
    closed = true;
    pageIndex = -1;
  }

  boolean isClosed() {
    return closed;
  }

  /** Thrown (without a stack trace) when an allocation does not fit the current page. */
  private static final class PageFull extends RuntimeException {
    PageFull() {
      super(null, null, false, false);
    }
  }

  private static final PageFull PAGE_FULL = new PageFull();

  /** Zeros that clear a flushed page; shared by every writer, read only by absolute bulk gets. */
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 << 10).asReadOnlyBuffer();

  private final class Allocator implements FieldCodec.EncodeContext {
    long sample;

    @Override
    public long sampleIndex() {
      return sample;
    }

    @Override
    public long allocate(ByteBuffer payload) {
      int size = payload.remaining();
      // A zero-length value still takes one byte so that its pointer is its own (docs/format.md#zero-length-values).
      int reserve = Math.max(size, 1);
      if (pageIndex < 0) {
        bookPage();
      } else if (used + (long) reserve > pageSize) {
        flushPage();
        bookPage();
        throw PAGE_FULL;
      }
      page.put(used, payload, payload.position(), size);
      long ptr = pageIndex * pageSize + used;
      entrySamples.add(sample);
      entryPtrs.add(ptr);
      entrySizes.add(size);
      used += reserve;
      return ptr;
    }
  }

  private final class Measure implements FieldCodec.EncodeContext {
    int field;

    @Override
    public long sampleIndex() {
      return -1;
    }

    @Override
    public long allocate(ByteBuffer payload) {
      fieldBytes[field] += Math.max(payload.remaining(), 1);
      return 0;
    }
  }
}
