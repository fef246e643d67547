package org.sparkbeton.format.write;

import java.util.Arrays;
import java.util.List;
import org.sparkbeton.format.BetonFormat;

/**
 * Where the bytes of the booked pages go in the finished file, decided by {@link BetonWriter#finish()}
 * once N is known. While a file is written, booked page k holds bytes {@code [k*page, (k+1)*page)} of
 * the <em>page area</em> (that is where a target keeps it, and what workers' pointers are relative
 * to). A placement is a list of runs, each copying {@code length} bytes of the page area from
 * {@code from} to file offset {@code to} (ascending and disjoint in both), plus the shift that turns
 * each sample's page-area pointers into file offsets. Everything between runs, up to the allocation
 * table at {@link #dataEnd()}, is zero.
 */
final class Placement {
  private final LongList from = new LongList();
  private final LongList to = new LongList();
  private final LongList length = new LongList();
  /** Per-sample shift for COMPACT; null when every sample shifts by {@code uniformShift}. */
  private final long[] shiftOfSample;
  private final long uniformShift;
  private long dataEnd;
  private long numPages;

  private Placement(long[] shiftOfSample, long uniformShift) {
    this.shiftOfSample = shiftOfSample;
    this.uniformShift = uniformShift;
  }

  /** A file without allocations: no data; the table follows the metadata. */
  static Placement none(long metadataEnd) {
    Placement p = new Placement(null, metadataEnd);
    p.dataEnd = metadataEnd;
    return p;
  }

  /** {@link PageLayout#FFCV}: the page area as it is, whole pages from the page-aligned {@code dataStart}. */
  static Placement wholePages(long dataStart, long pages, long pageSize) {
    Placement p = new Placement(null, dataStart);
    p.add(0, dataStart, pages * pageSize);
    p.dataEnd = dataStart + pages * pageSize;
    p.numPages = pages;
    return p;
  }

  /**
   * {@link PageLayout#COMPACT}: each sample's block (its allocations, adjacent in one page, as
   * {@link SampleWriter} leaves them) goes to the lowest offset at or after the previous block's end,
   * starting at {@code metadataEnd}, where it does not cross a page boundary (next fit). Blocks keep
   * their page-area order, which makes every block's new offset at most its old one (see
   * {@link InPlaceTarget}). Orphan bytes belong to no block and are left out.
   */
  static Placement compact(List<SampleWriter> workers, long numSamples, long pageSize, long metadataEnd) {
    long[] shift = new long[Math.toIntExact(numSamples)];
    Arrays.fill(shift, metadataEnd); // samples without allocations: pointers (if any) as if data began here
    Placement p = new Placement(shift, 0);
    int[] next = new int[workers.size()];
    long pos = metadataEnd;
    long firstPage = -1;
    while (true) {
      // the block with the lowest page-area offset among the workers' next ones (each worker's are ascending)
      int w = -1;
      long lowest = Long.MAX_VALUE;
      for (int i = 0; i < workers.size(); i++) {
        SampleWriter sw = workers.get(i);
        if (next[i] < sw.entryPtrs.size() && sw.entryPtrs.get(next[i]) < lowest) {
          lowest = sw.entryPtrs.get(next[i]);
          w = i;
        }
      }
      if (w < 0) {
        break;
      }
      SampleWriter sw = workers.get(w);
      int i = next[w];
      long sample = sw.entrySamples.get(i);
      long start = sw.entryPtrs.get(i);
      long end = start;
      for (; i < sw.entryPtrs.size() && sw.entrySamples.get(i) == sample; i++) {
        if (sw.entryPtrs.get(i) != end) {
          throw new IllegalStateException("Allocations of sample " + sample + " are not adjacent at page-area offset "
              + sw.entryPtrs.get(i));
        }
        end += Math.max(1, sw.entrySizes.get(i)); // an empty value holds one byte (SampleWriter)
      }
      next[w] = i;
      long size = end - start;
      if (pos % pageSize + size > pageSize) {
        pos = BetonFormat.alignUp(pos, pageSize);
      }
      if (firstPage < 0) {
        firstPage = pos / pageSize;
      }
      shift[(int) sample] = pos - start;
      p.add(start, pos, size);
      pos += size;
    }
    p.dataEnd = pos;
    p.numPages = firstPage < 0 ? 0 : (pos - 1) / pageSize - firstPage + 1;
    return p;
  }

  /** Appends a run, merged with the previous one when both sides continue it. */
  private void add(long runFrom, long runTo, long runLength) {
    int last = from.size() - 1;
    if (last >= 0 && from.get(last) + length.get(last) == runFrom && to.get(last) + length.get(last) == runTo) {
      length.set(last, length.get(last) + runLength);
    } else {
      from.add(runFrom);
      to.add(runTo);
      length.add(runLength);
    }
  }

  /** The file offset of a page-area pointer of {@code sample}. */
  long pointer(long sample, long pageAreaPointer) {
    return pageAreaPointer + (shiftOfSample == null ? uniformShift : shiftOfSample[(int) sample]);
  }

  int runs() {
    return from.size();
  }

  long from(int run) {
    return from.get(run);
  }

  long to(int run) {
    return to.get(run);
  }

  long length(int run) {
    return length.get(run);
  }

  /** The first data byte's file offset ({@link #dataEnd()} when there is no data). */
  long dataStart() {
    return runs() == 0 ? dataEnd : to.get(0);
  }

  /** Where the data ends and the allocation table begins. */
  long dataEnd() {
    return dataEnd;
  }

  /** Pages holding data: whole pages for FFCV, pages the data touches for COMPACT. */
  long numPages() {
    return numPages;
  }
}
