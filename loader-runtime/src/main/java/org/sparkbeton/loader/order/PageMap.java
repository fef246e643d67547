package org.sparkbeton.loader.order;

import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonReader;

/**
 * The data page of every sample ({@code ptr >> log2(pageSize)} of its allocations; the format keeps
 * all of a sample's allocations in one page), or -1 for a sample with no allocation (only Int/Float
 * fields). Built in one pass over the allocation table.
 */
public final class PageMap {
  public static final int NO_PAGE = -1;
  private final int[] pageOfSample;
  private final int numPages;
  private final long firstPage;

  /** {@code pageOfSample[s]} is the page of sample s or {@link #NO_PAGE}; pages are numbered from 0. */
  public PageMap(int[] pageOfSample) {
    this(pageOfSample, 0);
  }

  /** As {@link #PageMap(int[])}, page 0 being the file's absolute page {@code firstPage} ({@code ptr >> log2 pageSize}). */
  public PageMap(int[] pageOfSample, long firstPage) {
    this.firstPage = firstPage;
    int max = -1;
    for (int p : pageOfSample) {
      if (p < NO_PAGE) {
        throw new IllegalArgumentException("Page numbers must be >= 0 (or -1 for none), got " + p);
      }
      max = Math.max(max, p);
    }
    this.pageOfSample = pageOfSample;
    this.numPages = max + 1;
  }

  public static PageMap of(BetonReader reader) {
    long n = reader.numSamples();
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(reader.file() + " has " + n + " samples; the loader handles at most "
          + (Integer.MAX_VALUE - 8) + " per dataset");
    }
    int[] pages = new int[(int) n];
    java.util.Arrays.fill(pages, NO_PAGE);
    AllocationTable table = reader.allocations();
    int shift = reader.header().pageShift();
    long first = table.size() == 0 ? 0 : table.ptr(0) >>> shift;
    for (int i = 0; i < table.size(); i++) {
      if (table.size(i) == 0) {
        // FFCV's zero-length allocations may carry the next allocation's pointer (docs/format.md#zero-length-values)
        continue;
      }
      long page = (table.ptr(i) >>> shift) - first;
      if (page > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(reader.file() + " has more than " + (Integer.MAX_VALUE - 8) + " pages");
      }
      pages[(int) table.sample(i)] = (int) page;
    }
    return new PageMap(pages, first);
  }

  /** Absolute page number (file offset / page size) of page 0. */
  public long firstPage() {
    return firstPage;
  }

  public int page(int sample) {
    return pageOfSample[sample];
  }

  /** One more than the highest page number. */
  public int numPages() {
    return numPages;
  }

  public int numSamples() {
    return pageOfSample.length;
  }
}
