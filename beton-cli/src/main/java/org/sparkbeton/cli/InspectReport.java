package org.sparkbeton.cli;

import java.util.List;

/**
 * What {@code beton inspect} reports about one file: the header, where each region lies, and per
 * field the payload bytes it owns (from the allocation table) and, for images, mode and size counts.
 */
public record InspectReport(
    String file,
    long fileSize,
    int version,
    long numSamples,
    long pageSize,
    int recordSize,
    long metadataStart,
    long metadataEnd,
    /** Where the data begins: page 1 of FFCV's layout, the first payload of a compact file (inside page 0), or the metadata end when the file has no pages. */
    long dataStart,
    /** Pages the data spans, from {@link #dataStart} up to the allocation table (a compact file's last one is short). */
    long pages,
    /** Pages that hold at least one allocation. */
    long pagesUsed,
    long allocTablePtr,
    long allocations,
    /** Sum of the sizes in the allocation table. */
    long allocatedBytes,
    /** Data-region bytes no allocation covers: {@link #pageTailBytes} plus {@link #gapBytes}. */
    long unusedBytes,
    /**
     * Bytes after the last allocation of each page, whole empty pages included: the zero tail, and the
     * orphaned first attempt of a sample the writer moved to the next page (docs/format.md#moved-samples).
     */
    long pageTailBytes,
    /** Uncovered bytes between two allocations of a page (none in files written by FFCV or by us). */
    long gapBytes,
    List<FieldStats> fields,
    List<ImageStats> images) {

  /** One field: type, metadata column, and the payload allocations its pointers reference. */
  public record FieldStats(int index, String name, int typeId, String type, String detail, int metadataOffset,
      int metadataSize, long allocations, long payloadBytes, long danglingPointers) {}

  /**
   * Mode and size histograms of one image field; sizes sorted by count, then size. {@code otherMode} counts mode bytes
   * that are neither JPEG's nor raw's (a damaged record).
   */
  public record ImageStats(String field, long jpg, long raw, long otherMode, int minWidth, int maxWidth, int minHeight,
      int maxHeight, List<SideBucket> longestSide, List<SizeCount> sizes) {}

  /** Images whose longest side is in {@code (upTo/2, upTo]} ({@code [0, 1]} for the first bucket). */
  public record SideBucket(int upTo, long count) {
    public String label() {
      return upTo <= 1 ? "<= 1" : (upTo / 2 + 1) + ".." + upTo;
    }
  }

  public record SizeCount(int width, int height, long count) {
    public String label() {
      return width + "x" + height;
    }
  }
}
