package org.sparkbeton.loader.io;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.sparkbeton.format.dataset.PageChecksums;

/**
 * The data pages of one shard checked against its manifest's {@link PageChecksums}, each the first time the loader
 * touches it: in cache mode OS on the first payload read from the mapped page, in cache mode PROCESS when the page
 * is first loaded into the cache. A page's verdict is kept (a byte per page), so the hot path is one array read;
 * a damaged page stays damaged, and every payload read from it fails with the error naming the shard, the page and
 * the region. Checking a page twice (two threads at once) is harmless.
 */
public final class PageVerifier {
  private static final byte UNCHECKED = 0;
  private static final byte GOOD = 1;
  private static final byte BAD = 2;

  private final PageChecksums sums;
  private final String file;
  private final int shift;
  private final byte[] state;
  private final int[] actual; // CRC32C found on a bad page

  public PageVerifier(PageChecksums sums, String file) {
    this.sums = sums;
    this.file = file;
    this.shift = Long.numberOfTrailingZeros(sums.pageSize());
    int pages = (int) ((sums.fileLength() >>> shift) + 1);
    this.state = new byte[pages];
    this.actual = new int[pages];
  }

  /** Pages checked so far, good or bad. */
  public int pagesChecked() {
    int n = 0;
    for (byte s : state) {
      n += s == UNCHECKED ? 0 : 1;
    }
    return n;
  }

  /**
   * Makes sure every page holding {@code [position, position + length)} has been checked and is good, checking an
   * unchecked one from {@code bytes}, in which file offset {@code x} is at index {@code x - bytesAt}.
   *
   * @throws org.sparkbeton.format.BetonFormatException when a page's data differs from what was written
   */
  public void require(long position, int length, ByteBuffer bytes, long bytesAt) {
    long first = position >>> shift;
    long last = (position + Math.max(length, 1) - 1) >>> shift;
    if (first == last && first < state.length && state[(int) first] == GOOD) {
      return;
    }
    for (long p = first; p <= last; p++) {
      if (p >= state.length) {
        return; // past the end of the file: the read itself reports it
      }
      byte s = state[(int) p];
      if (s == UNCHECKED) {
        s = check(p, bytes, bytesAt);
      }
      if (s == BAD) {
        throw sums.mismatch(file, sums.dataUnit(p), actual[(int) p]);
      }
    }
  }

  /**
   * Checks page {@code page} from {@code bytes} (file offset {@code x} at index {@code x - bytesAt}) unless it was
   * checked already; records the verdict without throwing.
   */
  public void checkLoaded(long page, ByteBuffer bytes, long bytesAt) {
    if (page < state.length && state[(int) page] == UNCHECKED) {
      check(page, bytes, bytesAt);
    }
  }

  private byte check(long page, ByteBuffer bytes, long bytesAt) {
    int unit = sums.dataUnit(page);
    if (unit < 0) {
      state[(int) page] = GOOD; // no data on this page: nothing a payload could be read from
      return GOOD;
    }
    CRC32C crc = new CRC32C();
    int from = (int) (sums.unitStart(unit) - bytesAt);
    crc.update(bytes.duplicate().limit(from + sums.unitLength(unit)).position(from));
    int value = (int) crc.getValue();
    if (value != sums.value(unit)) {
      actual[(int) page] = value;
      state[(int) page] = BAD;
      return BAD;
    }
    state[(int) page] = GOOD;
    return GOOD;
  }
}
