package org.sparkbeton.loader.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.CheckedSource;
import org.sparkbeton.format.dataset.PageChecksums;
import org.sparkbeton.loader.order.PageMap;

/**
 * One or more {@code .beton} files with the same fields, read as one index space: file i holds the
 * global samples {@code [start(i), start(i + 1))}. A loader's orders, indices and batches use global
 * indices; decoders reach the right file through {@link #shardOf(long)}.
 *
 * <p>Each file is mapped once ({@link MappedPayloadStore}); its reader reads the metadata from that mapping and,
 * in cache mode OS, decoders read the payloads from it. A reader opened here reads its allocation table on first
 * use ({@link #readTables}), not when it is opened. A file with page checksums (a shard of a dataset directory)
 * is checked as it is read: header, descriptors and metadata by its reader ({@link CheckedSource}) when it is
 * opened and planned, the allocation table when first used, data pages by a {@link PageVerifier} on first use.
 * {@link #close()} unmaps every file.
 */
public final class Shards implements Closeable {
  private final BetonReader[] readers;
  private final PayloadStore[] stores;
  private final PageVerifier[] verifiers;
  private final long[] start;

  private Shards(BetonReader[] readers, PayloadStore[] stores, PageVerifier[] verifiers) {
    this.readers = readers;
    this.stores = stores;
    this.verifiers = verifiers;
    this.start = new long[readers.length + 1];
    for (int i = 0; i < readers.length; i++) {
      start[i + 1] = start[i] + readers[i].numSamples();
    }
  }

  /** One file and where its payloads come from. */
  public static Shards of(BetonReader reader, PayloadStore store) {
    return new Shards(new BetonReader[] {reader}, new PayloadStore[] {store}, new PageVerifier[1]);
  }

  /**
   * Readers opened elsewhere (a remote dataset's metadata) with their payload stores, one per reader, unchecked
   * by page (a staged shard's SHA-256 was checked as it downloaded). All must have the same fields (names, types,
   * shapes) in the same order; the first difference is reported.
   */
  public static Shards of(BetonReader[] readers, PayloadStore[] stores) {
    if (readers.length == 0 || readers.length != stores.length) {
      throw new IllegalArgumentException("Expected one payload store per reader and at least one reader, got "
          + readers.length + " readers and " + stores.length + " stores");
    }
    String fields = readers[0].fields().toString();
    for (BetonReader r : readers) {
      checkSameFields(readers[0], fields, r);
    }
    return new Shards(readers.clone(), stores.clone(), new PageVerifier[readers.length]);
  }

  /** Refuses {@code r} unless its fields print as {@code fields}, those of {@code first}. */
  private static void checkSameFields(BetonReader first, String fields, BetonReader r) {
    if (!r.fields().toString().equals(fields)) {
      throw new IllegalArgumentException("File " + r.file() + " has fields " + r.fields() + " but " + first.file()
          + " has " + first.fields() + "; all files of a loader must have the same fields");
    }
  }

  /**
   * Opens the files, memory-mapped (cache mode OS), unchecked. All must have the same fields (names, types,
   * shapes) in the same order; the first difference is reported.
   */
  public static Shards open(List<Path> files) throws IOException {
    return open(files, null, true, true);
  }

  /**
   * Opens the files, memory-mapped.
   *
   * @param checksums each file's page checksums (an entry may be null), or null for none: what is checked
   * @param payloads true for cache mode OS (payloads from the mappings); false gives readers only, whose payload
   *     stores {@link #withStores} sets (cache mode PROCESS)
   * @param unmapOnClose whether {@link #close()} unmaps the files at once (else the GC does)
   */
  public static Shards open(List<Path> files, List<PageChecksums> checksums, boolean payloads, boolean unmapOnClose)
      throws IOException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("A loader needs at least one .beton file");
    }
    List<BetonReader> readers = new ArrayList<>();
    List<PayloadStore> stores = new ArrayList<>();
    PageVerifier[] verifiers = new PageVerifier[files.size()];
    String fields = null; // the first file's, which every other must have
    try {
      for (int i = 0; i < files.size(); i++) {
        Path f = files.get(i);
        PageChecksums sums = checksums == null ? null : checksums.get(i);
        verifiers[i] = sums == null ? null : new PageVerifier(sums, f.toString());
        MappedPayloadStore mapped = new MappedPayloadStore(f, verifiers[i], unmapOnClose);
        stores.add(payloads ? mapped : null);
        BetonReader r;
        try {
          r = BetonReader.open(sums == null ? mapped : new CheckedSource(mapped, sums),
              ReadOptions.defaults().allocationTableOnFirstUse());
        } catch (RuntimeException e) {
          mapped.close(); // a CheckedSource that refused the file's size does not own it
          throw e;
        }
        readers.add(r);
        if (sums != null) {
          checkRecords(r);
        }
        if (fields == null) {
          fields = r.fields().toString();
        }
        checkSameFields(readers.get(0), fields, r);
      }
    } catch (IOException | RuntimeException e) {
      for (BetonReader r : readers) {
        r.close(); // and its mapping
      }
      throw e;
    }
    return new Shards(readers.toArray(new BetonReader[0]), stores.toArray(new PayloadStore[0]), verifiers);
  }

  /**
   * Reads every metadata record of {@code r} through its page checks, so that a damaged metadata page fails the
   * open, whichever fields the pipelines read: a loader of labels alone plans nothing over the records and would
   * otherwise meet the damage in the middle of an epoch. The records are kept by the reader (the pipelines read
   * them from there), so this moves work to the build rather than adding it.
   */
  private static void checkRecords(BetonReader r) {
    long samples = r.header().numSamples();
    for (long s = 0; s < samples; s = r.recordChunkEnd(s)) {
      r.recordChunk(s);
    }
  }

  /**
   * Opens the files' readers (metadata from the local files) with payloads read through the sources
   * {@code opener} opens, one read per payload ({@link SourcePayloadStore}); the result owns the sources.
   */
  public static Shards openThrough(List<Path> files, SourceOpener opener) throws IOException {
    return openThrough(files, null, true, opener);
  }

  /**
   * As {@link #openThrough(List, SourceOpener)}, the readers checked against {@code checksums} (header,
   * descriptors, metadata, allocation table; see {@link #open(List, List, boolean, boolean)}). Payloads read one
   * by one through a source are not checked: a page check needs the whole page.
   */
  public static Shards openThrough(List<Path> files, List<PageChecksums> checksums, boolean unmapOnClose,
      SourceOpener opener) throws IOException {
    Shards readers = open(files, checksums, false, unmapOnClose);
    PayloadStore[] stores = new PayloadStore[files.size()];
    try {
      for (int i = 0; i < stores.length; i++) {
        stores[i] = new SourcePayloadStore(opener.open(files.get(i)));
      }
    } catch (IOException | RuntimeException e) {
      for (PayloadStore s : stores) {
        if (s != null) {
          s.close();
        }
      }
      readers.close();
      throw e;
    }
    return readers.withStores(i -> stores[i]);
  }

  /** The files' readers only; give them payload stores with {@link #withStores}. */
  public static Shards openReaders(List<Path> files) throws IOException {
    return open(files, null, false, true);
  }

  /** The same files reading payloads through {@code stores.apply(file index)}; the result owns the readers. */
  public Shards withStores(java.util.function.IntFunction<PayloadStore> stores) {
    PayloadStore[] s = new PayloadStore[readers.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = stores.apply(i);
    }
    return new Shards(readers, s, verifiers);
  }

  /** The page checks of file {@code shard}, or null when it is read unchecked. */
  public PageVerifier verifier(int shard) {
    return verifiers[shard];
  }

  public int count() {
    return readers.length;
  }

  /** Samples in all files. */
  public long numSamples() {
    return start[readers.length];
  }

  public BetonReader reader(int shard) {
    return readers[shard];
  }

  public PayloadStore store(int shard) {
    return stores[shard];
  }

  /** First global index of {@code shard}. */
  public long start(int shard) {
    return start[shard];
  }

  /** The first global index of every shard, then the sample count ({@code count() + 1} values). */
  public long[] starts() {
    return start.clone();
  }

  /** The file holding global sample {@code sample} (binary search; no allocation). */
  public int shardOf(long sample) {
    if (readers.length == 1) {
      return 0;
    }
    int lo = 0;
    int hi = readers.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (start[mid] <= sample) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Reads the allocation table of every file holding one of {@code samples[from, to)} that is not read yet (a
   * file opened here reads its table on first use, so that opening a dataset of many shards reads their
   * headers only). The loader's workers call this for a batch's samples before decoding them, so that a
   * damaged table fails the epoch rather than counting as a bad sample. Once read, a table costs one field
   * read per sample here.
   *
   * @throws org.sparkbeton.format.BetonFormatException when a table is damaged
   */
  public void readTables(int[] samples, int from, int to) {
    for (int i = from; i < to; i++) {
      readers[shardOf(samples[i])].allocations();
    }
  }

  /** For messages: the file, or the first file and how many more. */
  public String name() {
    return readers.length == 1 ? readers[0].file() : readers[0].file() + " (+" + (readers.length - 1) + " more files)";
  }

  /** The page of every global sample; pages of file i are numbered after those of files 0..i-1. */
  public PageMap pageMap() {
    if (readers.length == 1) {
      return PageMap.of(readers[0]);
    }
    int[] pages = new int[(int) numSamples()];
    int offset = 0;
    for (int i = 0; i < readers.length; i++) {
      PageMap m = PageMap.of(readers[i]);
      for (int s = 0; s < m.numSamples(); s++) {
        int p = m.page(s);
        pages[(int) start[i] + s] = p < 0 ? p : p + offset;
      }
      offset += m.numPages();
    }
    return new PageMap(pages);
  }

  /** {@link PayloadStore#requireUnchanged()} of every shard's store. */
  public void requireUnchanged() {
    for (PayloadStore store : stores) {
      if (store != null) {
        store.requireUnchanged();
      }
    }
  }

  /** Closes the payload stores and the readers, which unmaps the files. */
  @Override
  public void close() throws IOException {
    IOException first = null;
    for (int i = 0; i < readers.length; i++) {
      try {
        if (stores[i] != null) {
          stores[i].close();
        }
        readers[i].close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
