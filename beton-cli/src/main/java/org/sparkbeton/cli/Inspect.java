package org.sparkbeton.cli;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImageField;

/**
 * Computes an {@link InspectReport} from an open reader. Reads the metadata records (one pass) and the
 * allocation table; no payload is read, so it runs at metadata speed on any file size.
 */
public final class Inspect {
  private Inspect() {}

  public static InspectReport of(BetonReader reader) {
    Objects.requireNonNull(reader, "reader");
    List<BetonField> fields = reader.fields();
    int n = fields.size();
    AllocationTable table = reader.allocations();
    long[] allocs = new long[n];
    long[] bytes = new long[n];
    long[] dangling = new long[n];
    List<ImageAccumulator> images = new ArrayList<>();
    ImageAccumulator[] imageOf = new ImageAccumulator[n];
    for (int f = 0; f < n; f++) {
      if (fields.get(f).typeId() == FieldTypes.RGB_IMAGE) {
        imageOf[f] = new ImageAccumulator(fields.get(f).name());
        images.add(imageOf[f]);
      }
    }
    for (long s = 0; s < reader.numSamples(); s++) {
      ByteBuffer chunk = reader.recordChunk(s);
      int base = reader.recordOffset(s);
      for (int f = 0; f < n; f++) {
        int at = base + reader.layout().offset(f);
        for (int p : fields.get(f).codec().pointerOffsets()) {
          long size = table.sizeAt(chunk.getLong(at + p));
          if (size < 0) {
            dangling[f]++;
          } else {
            allocs[f]++;
            bytes[f] += size;
          }
        }
        if (imageOf[f] != null) {
          imageOf[f].add(chunk, at);
        }
      }
    }

    List<InspectReport.FieldStats> fieldStats = new ArrayList<>();
    for (int f = 0; f < n; f++) {
      BetonField field = fields.get(f);
      fieldStats.add(new InspectReport.FieldStats(f, field.name(), field.typeId(), FieldTypes.name(field.typeId()),
          field.codec().describe(), reader.layout().offset(f), field.codec().metadataSize(), allocs[f], bytes[f],
          dangling[f]));
    }

    Region region = Region.of(reader);
    return new InspectReport(reader.file(), reader.source().length(), reader.header().version(), reader.numSamples(),
        reader.pageSize(), reader.layout().recordSize(), reader.metadataStart(), reader.metadataEnd(),
        region.dataStart(), region.pages(), region.pagesUsed(), reader.header().allocTablePtr(), table.size(),
        region.allocated(), region.unused(), region.tails(), region.unused() - region.tails(), fieldStats,
        images.stream().map(ImageAccumulator::stats).toList());
  }

  /** Where the pages lie and how much of them the allocation table covers. */
  private record Region(long dataStart, long pages, long pagesUsed, long allocated, long unused, long tails) {

    static Region of(BetonReader reader) {
      AllocationTable table = reader.allocations();
      long allocTablePtr = reader.header().allocTablePtr();
      long metadataEnd = reader.metadataEnd();
      long pageSize = reader.pageSize();
      boolean hasPages = allocTablePtr > metadataEnd;
      // FFCV's layout starts the data at the first page boundary after the metadata; a compact file starts it
      // right behind the metadata records, inside that page, and ends it where its last sample ends
      long dataStart = hasPages ? Math.min(firstPayload(table), BetonFormat.alignUp(metadataEnd, pageSize)) : metadataEnd;
      long pages = hasPages && allocTablePtr > dataStart
          ? (allocTablePtr + pageSize - 1) / pageSize - dataStart / pageSize : 0;
      long allocated = 0;
      long covered = 0;
      long coveredUpTo = Long.MIN_VALUE;
      long pagesUsed = 0;
      long lastPage = -1;
      long tails = 0;
      int shift = reader.header().pageShift();
      for (int i = 0; i < table.size(); i++) {
        long ptr = table.ptr(i);
        long end = ptr + table.size(i);
        allocated += table.size(i);
        long page = ptr >>> shift;
        if (table.size(i) > 0 && page != lastPage) {
          if (lastPage >= 0) {
            long end0 = Math.min(pageEnd(lastPage, shift), allocTablePtr);
            tails += end0 - Math.min(coveredUpTo, end0);
          }
          pagesUsed++;
          lastPage = page;
        }
        // entries are sorted by pointer: count each covered byte once even if allocations overlap
        long from = Math.max(ptr, coveredUpTo);
        if (end > from) {
          covered += end - from;
          coveredUpTo = end;
        }
      }
      if (lastPage >= 0) {
        tails += Math.max(0, Math.min(pageEnd(lastPage, shift), allocTablePtr) - coveredUpTo);
      }
      tails += Math.max(0, pages - pagesUsed) * pageSize;
      long unused = Math.max(0, Math.max(0, allocTablePtr - dataStart) - covered);
      return new Region(dataStart, pages, pagesUsed, allocated, unused, Math.min(tails, unused));
    }
  }

  /** The smallest pointer of a non-empty allocation, or Long.MAX_VALUE when there is none. */
  private static long firstPayload(AllocationTable table) {
    for (int i = 0; i < table.size(); i++) {
      if (table.size(i) > 0) {
        return table.ptr(i);
      }
    }
    return Long.MAX_VALUE;
  }

  private static long pageEnd(long page, int shift) {
    return (page + 1) << shift;
  }

  private static final class ImageAccumulator {
    private final String field;
    private long jpg;
    private long raw;
    private long otherMode;
    private int minW = Integer.MAX_VALUE;
    private int maxW;
    private int minH = Integer.MAX_VALUE;
    private int maxH;
    private final Map<Long, long[]> sizes = new HashMap<>();
    /** Index k counts longest sides in (2^(k-1), 2^k]. */
    private final long[] sides = new long[18];

    ImageAccumulator(String field) {
      this.field = field;
    }

    void add(ByteBuffer record, int at) {
      int code = Byte.toUnsignedInt(record.get(at + RgbImageField.MODE));
      ImageMode mode = ImageMode.ofCode(code);
      if (mode == ImageMode.JPG) {
        jpg++;
      } else if (mode == ImageMode.RAW) {
        raw++;
      } else {
        otherMode++;
      }
      int w = Short.toUnsignedInt(record.getShort(at + RgbImageField.WIDTH));
      int h = Short.toUnsignedInt(record.getShort(at + RgbImageField.HEIGHT));
      minW = Math.min(minW, w);
      maxW = Math.max(maxW, w);
      minH = Math.min(minH, h);
      maxH = Math.max(maxH, h);
      sizes.computeIfAbsent(((long) w << 32) | h, k -> new long[1])[0]++;
      int side = Math.max(w, h);
      sides[side <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(side - 1)]++;
    }

    InspectReport.ImageStats stats() {
      List<InspectReport.SizeCount> list = new ArrayList<>();
      sizes.forEach((k, c) -> list.add(new InspectReport.SizeCount((int) (k >>> 32), (int) (long) k, c[0])));
      list.sort(Comparator.comparingLong(InspectReport.SizeCount::count).reversed()
          .thenComparingInt(InspectReport.SizeCount::width).thenComparingInt(InspectReport.SizeCount::height));
      List<InspectReport.SideBucket> buckets = new ArrayList<>();
      for (int k = 0; k < sides.length; k++) {
        if (sides[k] > 0) {
          buckets.add(new InspectReport.SideBucket(1 << k, sides[k]));
        }
      }
      boolean any = !sizes.isEmpty();
      return new InspectReport.ImageStats(field, jpg, raw, otherMode, any ? minW : 0, maxW, any ? minH : 0, maxH,
          buckets, list);
    }
  }
}
