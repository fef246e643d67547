package org.sparkbeton.format.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldDescriptor;
import org.sparkbeton.format.Header;
import org.sparkbeton.format.RecordLayout;
import org.sparkbeton.format.write.PageLayout;
import org.sparkbeton.format.write.WriteResult;

/**
 * Concatenates files with identical fields and page size into one file without decoding anything.
 * Metadata records are copied with every pointer (in the metadata columns each codec declares, and
 * in the allocation table) rebased by the distance its bytes moved; sample ids are shifted by the
 * samples before them. The data moves in one of two ways:
 * <ul>
 *   <li>when every input has {@link PageLayout#FFCV}'s shape (its data region is whole pages from the
 *       page boundary after its metadata), each input's pages are copied verbatim behind the previous
 *       input's: an FFCV-layout file, orphan bytes included;</li>
 *   <li>otherwise (an input in {@link PageLayout#COMPACT}) each sample's allocations are copied as one
 *       block and packed as the compact writer packs them ({@link MergeBySample}): a compact file.</li>
 * </ul>
 */
public final class Merge {
  private static final int COPY_CHUNK = 8 << 20;

  private Merge() {}

  public static WriteResult run(List<BetonReader> inputs, Path out) throws IOException {
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one input file");
    }
    BetonReader first = inputs.get(0);
    for (BetonReader in : inputs) {
      checkCompatible(first, in);
    }
    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      WriteResult result = inputs.stream().allMatch(Merge::isWholePages) ? copyPages(inputs, ch)
          : MergeBySample.run(inputs, ch);
      ByteBuffer head = ByteBuffer.allocate((int) BetonFormat.metadataStart(first.fields().size()))
          .order(ByteOrder.LITTLE_ENDIAN);
      head.put(new Header(BetonFormat.VERSION, first.fields().size(), first.pageSize(), result.numSamples(),
          result.allocTablePtr()).toBytes());
      first.fields().forEach(f -> FieldDescriptor.of(f).writeTo(head));
      write(ch, head.flip(), 0);
      ch.force(true);
      return result;
    }
  }

  /** The data and the records of FFCV-shaped inputs: pages verbatim, one pointer shift per input. */
  private static WriteResult copyPages(List<BetonReader> inputs, FileChannel ch) throws IOException {
    BetonReader first = inputs.get(0);
    List<BetonField> fields = first.fields();
    RecordLayout layout = first.layout();
    long pageSize = first.pageSize();
    int recordSize = layout.recordSize();
    long total = 0;
    long entries = 0;
    long pages = 0;
    for (BetonReader in : inputs) {
      total += in.numSamples();
      entries += in.allocations().size();
      pages += dataPages(in);
    }
    long metadataStart = BetonFormat.metadataStart(fields.size());
    long metadataEnd = metadataStart + total * recordSize;
    long dataStart = pages == 0 ? metadataEnd : BetonFormat.alignUp(metadataEnd, pageSize);
    long allocTablePtr = dataStart + pages * pageSize;

    long sampleBase = 0;
    long pageBase = dataStart;
    long tablePos = allocTablePtr;
    ByteBuffer copy = ByteBuffer.allocateDirect(COPY_CHUNK);
    for (BetonReader in : inputs) {
      long inDataStart = BetonFormat.alignUp(in.metadataEnd(), pageSize);
      long shift = pageBase - inDataStart;
      // metadata records, pointer columns rebased
      for (long s = 0; s < in.numSamples(); s++) {
        ByteBuffer rec = ByteBuffer.wrap(in.recordBytes(s)).order(ByteOrder.LITTLE_ENDIAN);
        rebase(fields, layout, rec, shift);
        write(ch, rec, metadataStart + (sampleBase + s) * recordSize);
      }
      // data pages, verbatim
      long inPages = dataPages(in);
      for (long pos = 0; pos < inPages * pageSize; pos += COPY_CHUNK) {
        int len = (int) Math.min(COPY_CHUNK, inPages * pageSize - pos);
        copy.clear();
        copy.put(in.source().read(inDataStart + pos, len)).flip();
        write(ch, copy, pageBase + pos);
      }
      // allocation entries, in the input's own order
      ByteBuffer table = ByteBuffer.allocate(in.allocations().size() * BetonFormat.ALLOCATION_ENTRY_SIZE)
          .order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < in.allocations().size(); i++) {
        table.putLong(in.allocations().sample(i) + sampleBase).putLong(in.allocations().ptr(i) + shift)
            .putLong(in.allocations().size(i));
      }
      write(ch, table.flip(), tablePos);
      tablePos += table.capacity();
      sampleBase += in.numSamples();
      pageBase += inPages * pageSize;
    }
    return new WriteResult(total, pages, pageSize, dataStart, allocTablePtr, entries, tablePos);
  }

  /** Adds {@code shift} to every pointer column of one record. */
  static void rebase(List<BetonField> fields, RecordLayout layout, ByteBuffer record, long shift) {
    for (int f = 0; f < fields.size(); f++) {
      for (int p : fields.get(f).codec().pointerOffsets()) {
        int at = layout.offset(f) + p;
        record.putLong(at, record.getLong(at) + shift);
      }
    }
  }

  /**
   * True when the input's data region is whole pages from the page boundary after its metadata and
   * every allocation lies in them (FFCV's shape), or it has no allocation.
   */
  static boolean isWholePages(BetonReader in) {
    if (in.allocations().size() == 0) {
      return true;
    }
    long start = BetonFormat.alignUp(in.metadataEnd(), in.pageSize());
    long end = in.header().allocTablePtr();
    return in.allocations().ptr(0) >= start && (end - start) % in.pageSize() == 0;
  }

  /** Whole pages between the page-aligned end of the input's metadata and its allocation table. */
  private static long dataPages(BetonReader in) {
    long start = BetonFormat.alignUp(in.metadataEnd(), in.pageSize());
    long end = in.header().allocTablePtr();
    return end <= in.metadataEnd() ? 0 : (end - start) / in.pageSize();
  }

  private static void checkCompatible(BetonReader first, BetonReader in) {
    if (in.pageSize() != first.pageSize()) {
      throw new IllegalArgumentException("Cannot merge " + in.file() + ": page size " + in.pageSize() + " differs from "
          + first.file() + "'s " + first.pageSize() + "; rewrite it with --page-size " + first.pageSize() + " first");
    }
    if (in.fields().size() != first.fields().size()) {
      throw new IllegalArgumentException("Cannot merge " + in.file() + ": fields " + in.fields() + " differ from "
          + first.file() + "'s " + first.fields());
    }
    for (int i = 0; i < in.fields().size(); i++) {
      BetonField a = first.fields().get(i);
      BetonField b = in.fields().get(i);
      if (!a.name().equals(b.name()) || a.typeId() != b.typeId()
          || !Arrays.equals(padded(a.codec().arguments()), padded(b.codec().arguments()))) {
        throw new IllegalArgumentException("Cannot merge " + in.file() + ": field " + i + " is " + b + " but "
            + first.file() + " has " + a);
      }
    }
  }

  private static byte[] padded(byte[] args) {
    return Arrays.copyOf(args, BetonFormat.ARGUMENTS_SIZE);
  }

  static void write(FileChannel ch, ByteBuffer b, long pos) throws IOException {
    while (b.hasRemaining()) {
      pos += ch.write(b, pos);
    }
  }
}
