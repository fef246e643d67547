package org.sparkbeton.format.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.List;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.RecordLayout;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.format.write.WriteResult;

/**
 * {@link Merge} for inputs that are not all FFCV-shaped: the output is a {@link PageLayout#COMPACT}
 * file. Samples are taken in order, input by input; each sample's allocations (which both FFCV's
 * writer and ours keep adjacent in one page) are copied as one block, from its lowest pointer to its
 * highest allocation end, to the lowest offset after the previous block where it does not cross a
 * page boundary, starting right behind the merged metadata. Every pointer of the sample moves by the
 * same distance. Writes the records, the data and the table; {@link Merge} writes the head.
 */
final class MergeBySample {
  private static final int BUFFER = 8 << 20;

  private MergeBySample() {}

  static WriteResult run(List<BetonReader> inputs, FileChannel ch) throws IOException {
    BetonReader first = inputs.get(0);
    List<BetonField> fields = first.fields();
    RecordLayout layout = first.layout();
    long pageSize = first.pageSize();
    int shift = first.header().pageShift();
    int recordSize = layout.recordSize();
    long total = 0;
    long entries = 0;
    for (BetonReader in : inputs) {
      total += in.numSamples();
      entries += in.allocations().size();
    }
    if (entries * BetonFormat.ALLOCATION_ENTRY_SIZE > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Cannot merge " + entries + " allocations into one file here");
    }
    long metadataStart = BetonFormat.metadataStart(fields.size());
    long metadataEnd = metadataStart + total * recordSize;
    ByteBuffer table = ByteBuffer.allocate((int) entries * BetonFormat.ALLOCATION_ENTRY_SIZE)
        .order(ByteOrder.LITTLE_ENDIAN);
    Contiguous records = new Contiguous(ch);
    Contiguous data = new Contiguous(ch);
    long pos = metadataEnd;
    long dataStart = -1;
    long sampleBase = 0;
    for (BetonReader in : inputs) {
      AllocationTable allocs = in.allocations();
      int[] firstOf = firstOfSample(allocs, in.numSamples());
      int[] bySample = bySample(allocs, firstOf);
      for (long s = 0; s < in.numSamples(); s++) {
        int from = firstOf[(int) s];
        int to = firstOf[(int) s + 1];
        long move = metadataEnd - in.metadataEnd(); // a sample without allocations has no pointer that matters
        if (from < to) {
          long lo = allocs.ptr(bySample[from]);
          long hi = lo;
          for (int k = from; k < to; k++) {
            hi = Math.max(hi, allocs.ptr(bySample[k]) + allocs.size(bySample[k]));
          }
          long length = hi - lo;
          if (length > 0 && (lo >>> shift) != ((hi - 1) >>> shift)) {
            throw new IllegalArgumentException("Cannot merge " + in.file() + ": the allocations of sample " + s
                + " span bytes [" + lo + ", " + hi + "), more than one page of " + pageSize + " bytes");
          }
          long reserve = Math.max(1, length); // an empty block still gets a pointer of its own
          if (pos % pageSize + reserve > pageSize) {
            pos = BetonFormat.alignUp(pos, pageSize);
          }
          if (length > 0) {
            data.write(pos, in.source().read(lo, (int) length));
          }
          dataStart = dataStart < 0 ? pos : dataStart;
          move = pos - lo;
          for (int k = from; k < to; k++) {
            int e = bySample[k];
            table.putLong(sampleBase + s).putLong(allocs.ptr(e) + move).putLong(allocs.size(e));
          }
          pos += reserve;
        }
        ByteBuffer rec = ByteBuffer.wrap(in.recordBytes(s)).order(ByteOrder.LITTLE_ENDIAN);
        Merge.rebase(fields, layout, rec, move);
        records.write(metadataStart + (sampleBase + s) * recordSize, rec);
      }
      sampleBase += in.numSamples();
    }
    records.flush();
    data.flush();
    Merge.write(ch, table.flip(), pos);
    long pages = dataStart < 0 ? 0 : ((pos - 1) >>> shift) - (dataStart >>> shift) + 1;
    return new WriteResult(total, pages, pageSize, dataStart < 0 ? pos : dataStart, pos, entries,
        pos + table.capacity());
  }

  /** Entry indices (in pointer order) grouped by sample: a counting sort, stable, so each group is in pointer order. */
  private static int[] bySample(AllocationTable allocs, int[] firstOfSample) {
    int[] next = firstOfSample.clone();
    int[] out = new int[allocs.size()];
    for (int i = 0; i < allocs.size(); i++) {
      out[next[(int) allocs.sample(i)]++] = i;
    }
    return out;
  }

  /** Where each sample's group starts in {@link #bySample}; entry {@code numSamples} is the entry count. */
  private static int[] firstOfSample(AllocationTable allocs, long numSamples) {
    int[] first = new int[Math.toIntExact(numSamples + 1)];
    for (int i = 0; i < allocs.size(); i++) {
      first[(int) allocs.sample(i) + 1]++;
    }
    for (int s = 0; s < numSamples; s++) {
      first[s + 1] += first[s];
    }
    return first;
  }

  /** Buffers writes that continue one another; any other write flushes first. */
  private static final class Contiguous {
    private final FileChannel ch;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    private long at;

    Contiguous(FileChannel ch) {
      this.ch = ch;
    }

    void write(long position, ByteBuffer src) throws IOException {
      if (buffer.position() > 0 && (at + buffer.position() != position || buffer.remaining() < src.remaining())) {
        flush();
      }
      if (src.remaining() > buffer.capacity()) {
        Merge.write(ch, src.duplicate(), position);
        return;
      }
      if (buffer.position() == 0) {
        at = position;
      }
      buffer.put(src.duplicate());
    }

    void flush() throws IOException {
      buffer.flip();
      Merge.write(ch, buffer, at);
      buffer.clear();
    }
  }
}
