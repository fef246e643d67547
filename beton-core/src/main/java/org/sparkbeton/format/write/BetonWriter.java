package org.sparkbeton.format.write;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.FieldCodec;
import org.sparkbeton.format.FieldDescriptor;
import org.sparkbeton.format.Header;
import org.sparkbeton.format.RecordLayout;

/**
 * Streaming {@code .beton} writer: it does not need the sample count up front, which a Spark task
 * never knows.
 *
 * <p><b>Design.</b> Workers ({@link SampleWriter}, one per thread) fill private pages by FFCV's page
 * rules and record every pointer relative to the <em>page area</em> (booked page k at
 * {@code k * page}); metadata records and allocation entries stay in memory (a record is 13–40 bytes,
 * an entry 24). When {@link #finish()} knows N, the metadata ends at {@code M0 + R*N}, the
 * {@link PageLayout} decides where the page area's bytes go ({@link Placement}), every pointer column
 * is rebased (each codec declares its pointer offsets), and the file is completed. Two targets:
 * <ul>
 *   <li>a local {@link Path}: pages go to the file as they fill, after a metadata area reserved for
 *       {@code expectedSamples} (default: what fits before the first page boundary, ~349k records of
 *       24 bytes with 8 MiB pages). If more samples arrive, finish moves the pages up by whole pages
 *       (one copy of the data); a COMPACT file then moves its samples down behind the records (one more
 *       pass over the data, always downwards, see {@link InPlaceTarget}).</li>
 *   <li>an {@link OutputStream} (HDFS, S3A: append-only): pages are spooled (in memory up to a bound, then to a
 *       local temporary file) and the finished file is streamed once, front to back, in either layout.</li>
 * </ul>
 * Both targets produce identical bytes. {@link #close()} without {@link #finish()} aborts: the partial
 * output is deleted.
 *
 * <p><b>Page layouts.</b> {@link PageLayout#FFCV}: the data region starts at
 * {@code D0 = roundup(M0 + R*N, page)} and holds whole pages, exactly as FFCV writes it; one worker
 * writing in order gives FFCV's file byte for byte (orphan bytes included). It costs up to two pages of
 * zeros per file: the gap before D0 and the tail of the last page. {@link PageLayout#COMPACT} (the
 * default): each sample's allocations, adjacent in one page as a worker wrote them, form a block; the
 * blocks, in page-area order, are packed from {@code M0 + R*N} on, each at the current offset unless it
 * would cross a multiple of the page size, then at that multiple; the allocation table follows the last
 * block. A file's padding is the page tails (each shorter than the block that did not fit) and nothing
 * else; orphan bytes are left out.
 *
 * <p><b>Why FFCV opens a COMPACT file</b> (checked against FFCV 1.0's reader and memory managers).
 * FFCV's {@code Reader} reads the header, the descriptors, N records at {@code M0} and the allocation
 * table from {@code alloc_table_ptr} to the end of the file; it never computes D0 or expects the data
 * anywhere in particular. Its memory managers sort the table's pointers, find a size by the exact
 * pointer, and number pages as {@code ptr >> log2(page)}: page k is always the file range
 * {@code [k*page, (k+1)*page)}, whatever the layout. With {@code os_cache=True} the whole file is mapped
 * and a payload is the slice {@code [ptr, ptr+size)}: any layout whose allocations lie in the file works.
 * With {@code os_cache=False} the process cache loads each page a batch needs into a page-sized slot
 * with one positional read of {@code page} bytes at {@code k*page} (a short count at the end of the file
 * is ignored) and serves a payload as {@code slot[ptr - k*page : +size]}. So what a layout must give is:
 * (1) no allocation crosses a multiple of the page size, or the slot would cut it short; (2) every
 * payload ends before the end of the file, so a short last read still covers it (the table follows the
 * data, so it does); (3) pointers unique and matching the table exactly. COMPACT keeps all three, and
 * keeps a sample's allocations in one page (FFCV's writer does; our loader relies on it). Page 0 then
 * holds the header and the metadata as well as samples: FFCV's process cache reads it like any other
 * page (its page-to-slot table runs from page 0), and the OS mode does not care. FFCV's own files and
 * COMPACT files thus read alike in both cache modes; {@code FfcvPageReads} (beton-core's tests)
 * emulates both modes and checks it on every layout we write.
 */
public final class BetonWriter implements Closeable {
  private final List<BetonField> fields;
  private final RecordLayout layout;
  private final long pageSize;
  private final PageLayout pageLayout;
  private final long metadataStart;
  private final Target target;
  private final MetadataRows rows;
  private final AtomicLong nextPage = new AtomicLong();
  private final AtomicLong nextAppend = new AtomicLong();
  private final AtomicLong payloadBytes = new AtomicLong();
  private final List<SampleWriter> workers = new ArrayList<>();
  private SampleWriter defaultWorker;
  private volatile boolean explicitIndices;
  private volatile Throwable failure;
  private boolean finished;
  private boolean closed;

  private BetonWriter(Builder b, TargetFactory targets) throws IOException {
    this.fields = List.copyOf(b.fields);
    List<FieldCodec> codecs = new ArrayList<>();
    fields.forEach(f -> codecs.add(f.codec()));
    this.layout = RecordLayout.of(codecs);
    this.pageSize = b.pageSize;
    this.pageLayout = b.pageLayout;
    this.metadataStart = BetonFormat.metadataStart(fields.size());
    // Room for the expected records (at least one) before the first page boundary: only zeros that
    // the gap up to D0 holds anyway.
    long expectedEnd = metadataStart + Math.max(1, b.expectedSamples) * layout.recordSize();
    this.target = targets.create(BetonFormat.alignUp(expectedEnd, pageSize));
    this.rows = new MetadataRows(layout.recordSize());
  }

  public static Builder builder(List<BetonField> fields) {
    return new Builder(fields);
  }

  /** Options; {@link #open(Path)} or {@link #open(OutputStream, Path)} create the writer. */
  public static final class Builder {
    private final List<BetonField> fields;
    private long pageSize = BetonFormat.DEFAULT_PAGE_SIZE;
    private PageLayout pageLayout = PageLayout.COMPACT;
    private long expectedSamples;
    private long spoolMemory;

    private Builder(List<BetonField> fields) {
      if (fields.isEmpty()) {
        throw new IllegalArgumentException("A .beton file needs at least one field");
      }
      if (fields.size() > 0xFFFF) {
        throw new IllegalArgumentException("A .beton file holds at most 65535 fields, got " + fields.size());
      }
      FieldDescriptor.validateNames(fields.stream().map(BetonField::name).toList());
      fields.forEach(FieldDescriptor::of); // checks argument sizes now rather than at finish
      this.fields = fields;
    }

    /** Page size: a power of two in [2 MiB, 1 GiB]; default 8 MiB as in FFCV. */
    public Builder pageSize(long pageSize) {
      this.pageSize = BetonFormat.checkWritePageSize(pageSize);
      return this;
    }

    /**
     * Where the samples go: {@link PageLayout#COMPACT} (default) packs them behind the metadata with no
     * padding beyond page tails; {@link PageLayout#FFCV} is FFCV's own layout, byte for byte FFCV's file
     * when written by one thread.
     */
    public Builder pageLayout(PageLayout pageLayout) {
      if (pageLayout == null) {
        throw new IllegalArgumentException("pageLayout must be FFCV or COMPACT, got null");
      }
      this.pageLayout = pageLayout;
      return this;
    }

    /**
     * Hint for local files: reserve metadata room for this many samples so finish never moves pages up to
     * make room for the records (an FFCV-layout file then moves nothing; a compact one still moves its
     * samples down behind the records).
     */
    public Builder expectedSamples(long expectedSamples) {
      if (expectedSamples < 0) {
        throw new IllegalArgumentException("expectedSamples must be >= 0, got " + expectedSamples);
      }
      this.expectedSamples = expectedSamples;
      return this;
    }

    /** Writes a local file in place (created or truncated). */
    public BetonWriter open(Path path) throws IOException {
      FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.READ, StandardOpenOption.TRUNCATE_EXISTING);
      try {
        return new BetonWriter(this, reserved -> new InPlaceTarget(path, channel, pageSize, reserved));
      } catch (RuntimeException | IOException e) {
        channel.close();
        throw e;
      }
    }

    /**
     * For {@link #open(OutputStream, Path)}: keep the first pages of the spool in memory, up to this many bytes (whole
     * pages; of each, only the bytes its samples use), so that a file this small never touches the spool directory.
     * Default 0: every page goes to the spool file.
     */
    public Builder spoolMemory(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("spoolMemory must be >= 0, got " + bytes);
      }
      this.spoolMemory = bytes;
      return this;
    }

    /**
     * Writes to an append-only stream, spooling pages in memory (up to {@link #spoolMemory}) and beyond that in a
     * temporary file under {@code spoolDir}, created when the first page goes there.
     */
    public BetonWriter open(OutputStream out, Path spoolDir) throws IOException {
      int memoryPages = (int) Math.min(Integer.MAX_VALUE, spoolMemory / pageSize);
      return new BetonWriter(this, reserved -> new StreamTarget(out, spoolDir, pageSize, memoryPages));
    }
  }

  public List<BetonField> fields() {
    return fields;
  }

  public RecordLayout layout() {
    return layout;
  }

  public long pageSize() {
    return pageSize;
  }

  public PageLayout pageLayout() {
    return pageLayout;
  }

  /** A worker for the calling thread. Close it before {@link #finish()}. */
  public synchronized SampleWriter newWorker() {
    checkOpen();
    SampleWriter w = new SampleWriter(this, fields, layout, pageSize);
    workers.add(w);
    return w;
  }

  /** Appends through a shared default worker (synchronised): the simple single-threaded API. */
  public synchronized long append(Object... values) {
    return defaultWorker().append(values);
  }

  /** Writes sample {@code index} through the shared default worker. */
  public synchronized void write(long index, Object... values) {
    defaultWorker().write(index, values);
  }

  private SampleWriter defaultWorker() {
    if (defaultWorker == null) {
      defaultWorker = newWorker();
    }
    return defaultWorker;
  }

  /**
   * What the file's data region holds so far: for {@link PageLayout#FFCV} the pages booked (each is
   * written whole); for {@link PageLayout#COMPACT} the samples' payload bytes (the region adds only
   * the tails its pages leave).
   */
  public long dataBytes() {
    return pageLayout == PageLayout.FFCV ? nextPage.get() * pageSize : payloadBytes.get();
  }

  /** Samples written so far. */
  public long samplesWritten() {
    return explicitIndices ? rows.numSamples() : nextAppend.get();
  }

  /**
   * Completes the file: closes the default worker, checks that every sample in {@code [0, N)} was
   * written, rebases pointers, writes metadata, allocation table and header.
   */
  public synchronized WriteResult finish() throws IOException {
    checkOpen();
    long open = workers.stream().filter(w -> w != defaultWorker && !w.isClosed()).count();
    if (open > 0) {
      throw new IllegalStateException(open + " SampleWriter(s) are still open; close each before finish()");
    }
    long n = rows.numSamples();
    long missing = rows.firstMissing();
    if (missing >= 0) {
      throw new IllegalStateException("Sample " + missing + " of 0.." + (n - 1) + " was never written");
    }
    if (defaultWorker != null) {
      defaultWorker.close();
    }
    long pages = nextPage.get();
    long metadataEnd = metadataStart + n * layout.recordSize();
    Placement placement;
    if (pages == 0) {
      placement = Placement.none(metadataEnd);
    } else {
      // where the target holds page 0 now (a local file moves its pages up when the records outgrew their room)
      long pagesAt = target.dataStart(BetonFormat.alignUp(metadataEnd, pageSize), pages);
      placement = pageLayout == PageLayout.FFCV ? Placement.wholePages(pagesAt, pages, pageSize)
          : Placement.compact(workers, n, pageSize, metadataEnd);
    }
    rebaseRecords(n, placement);
    ByteBuffer allocTable = allocationTable(placement);
    long allocTablePtr = placement.dataEnd();
    Header header = new Header(BetonFormat.VERSION, fields.size(), pageSize, n, allocTablePtr);
    target.complete(head(header), rows, n, placement, allocTable);
    finished = true;
    closed = true;
    return new WriteResult(n, placement.numPages(), pageSize, placement.dataStart(), allocTablePtr,
        allocTable.capacity() / 24, allocTablePtr + allocTable.capacity());
  }

  private ByteBuffer head(Header header) {
    ByteBuffer b = ByteBuffer.allocate((int) metadataStart).order(ByteOrder.LITTLE_ENDIAN);
    b.put(header.toBytes());
    for (BetonField f : fields) {
      FieldDescriptor.of(f).writeTo(b);
    }
    return b.flip();
  }

  private void rebaseRecords(long n, Placement placement) {
    for (int f = 0; f < fields.size(); f++) {
      int[] pointers = fields.get(f).codec().pointerOffsets();
      for (int p : pointers) {
        int at = layout.offset(f) + p;
        for (long s = 0; s < n; s++) {
          ByteBuffer row = rows.row(s);
          row.putLong(at, placement.pointer(s, row.getLong(at)));
        }
      }
    }
  }

  private ByteBuffer allocationTable(Placement placement) {
    long entries = 0;
    for (SampleWriter w : workers) {
      entries += w.entryPtrs.size();
    }
    if (entries * BetonFormat.ALLOCATION_ENTRY_SIZE > Integer.MAX_VALUE) {
      throw new IllegalStateException("More allocations (" + entries + ") than one file's table can hold here");
    }
    ByteBuffer table = ByteBuffer.allocate((int) entries * BetonFormat.ALLOCATION_ENTRY_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    for (SampleWriter w : workers) {
      for (int i = 0; i < w.entryPtrs.size(); i++) {
        long sample = w.entrySamples.get(i);
        table.putLong(sample).putLong(placement.pointer(sample, w.entryPtrs.get(i))).putLong(w.entrySizes.get(i));
      }
    }
    return table.flip();
  }

  /** Aborts an unfinished file (deleting its output); a finished writer is already closed. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    for (SampleWriter w : workers) {
      if (!w.isClosed()) {
        w.abandon();
      }
    }
    target.abort();
  }

  // --- called by workers ---

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException(finished ? "The writer is finished" : "The writer was closed");
    }
    if (failure != null) {
      throw new IllegalStateException("The writer failed earlier and cannot continue: " + failure.getMessage(), failure);
    }
  }

  void fail(Throwable t) {
    if (failure == null) {
      failure = t;
    }
  }

  long nextAppendIndex() {
    if (explicitIndices) {
      throw new IllegalStateException("append() cannot be mixed with write(index, ...) in one file");
    }
    return nextAppend.getAndIncrement();
  }

  void useExplicitIndices() {
    if (nextAppend.get() > 0) {
      throw new IllegalStateException("write(index, ...) cannot be mixed with append() in one file");
    }
    explicitIndices = true;
  }

  boolean isWritten(long index) {
    return rows.isWritten(index);
  }

  void putRecord(long index, byte[] record) {
    rows.put(index, record);
  }

  void addPayloadBytes(long bytes) {
    payloadBytes.addAndGet(bytes);
  }

  long bookPage() {
    return nextPage.getAndIncrement();
  }

  void writePage(long pageIndex, ByteBuffer page, int used) throws IOException {
    target.writePage(pageIndex, page, used);
  }

  String target() {
    return target.toString();
  }

  private interface TargetFactory {
    Target create(long reservedDataStart) throws IOException;
  }

  /** Where the bytes end up. */
  interface Target extends PageSink {
    /**
     * Where page 0 of the page area lies once the records need room up to {@code minimal} (page-aligned):
     * the page-aligned data start of an FFCV file. May move the pages.
     */
    long dataStart(long minimal, long pages) throws IOException;

    /** Writes head and records, the data where {@code placement} puts it (zeros between), then the table. */
    void complete(ByteBuffer head, MetadataRows rows, long n, Placement placement, ByteBuffer allocTable)
        throws IOException;

    void abort() throws IOException;
  }
}
