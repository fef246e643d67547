package org.sparkbeton.format.write;

/**
 * Where a {@link BetonWriter} puts the data of its samples. Both layouts open in FFCV, in both of its
 * cache modes, and in every reader of this project; they differ only in padding. The argument for
 * {@link #COMPACT} is in {@link BetonWriter}'s documentation.
 */
public enum PageLayout {
  /**
   * FFCV's own layout: the data region starts at the first page boundary after the metadata,
   * {@code D0 = roundup(M0 + R*N, page)}, and every page is written whole (zero tail), including the
   * last; a sample that moved to a fresh page leaves the bytes of its first attempt behind as FFCV's
   * writer does. Written by one thread, the file is byte for byte the one FFCV's writer makes from
   * the same values. A file carries up to two pages (16 MiB with 8 MiB pages) of zeros.
   */
  FFCV,

  /**
   * The samples packed in order right behind the metadata records, in the page that holds the end of
   * the metadata (page 0 for any file of fewer than about 349k samples of 24-byte records with 8 MiB
   * pages); a sample that does not fit in the rest of a page starts at the next page boundary, so no
   * sample crosses one; the file ends at the last sample's last byte, followed by the allocation
   * table. No orphan bytes. Padding per file is at most the unused tail of each page (less than one
   * sample each). The default.
   */
  COMPACT
}
