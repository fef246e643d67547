package org.sparkbeton.format.verify;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormat;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;

/**
 * Checks the reader invariants of docs/format.md#data-pages on an opened file (opening already checked the header,
 * descriptors and table bounds): no allocation crosses a page; a sample's allocations share one page;
 * pointers are unique; every metadata pointer equals an
 * allocation entry of the same sample exactly, with the size its field implies; every entry is
 * referenced once; JPEG frame sizes equal the image metadata; every value decodes.
 */
public final class BetonVerifier {
  public static final int MAX_LISTED = 100;

  private final BetonReader reader;
  private final List<String> problems = new ArrayList<>();
  private long problemCount;

  private BetonVerifier(BetonReader reader) {
    this.reader = reader;
  }

  public static VerifyReport verify(BetonReader reader) {
    BetonVerifier v = new BetonVerifier(reader);
    long pages = v.checkRegionsAndPages();
    v.checkSamples();
    return new VerifyReport(reader.file(), reader.numSamples(), reader.allocations().size(), pages,
        v.problemCount, List.copyOf(v.problems));
  }

  private void problem(String message) {
    problemCount++;
    if (problems.size() < MAX_LISTED) {
      problems.add(message);
    }
  }

  /**
   * Checks what FFCV's page readers rely on and returns the pages the data region touches. The data
   * region's shape is not checked: FFCV computes no data start and maps or reads pages at absolute
   * multiples of the page size, so an FFCV-layout file (whole pages from the page-aligned end of the
   * metadata) and a compact one (samples right behind the metadata, last page cut short) read alike.
   * The reader has already checked that every allocation lies between the metadata and the table.
   */
  private long checkRegionsAndPages() {
    AllocationTable table = reader.allocations();
    int shift = reader.header().pageShift();
    long tablePtr = reader.header().allocTablePtr();
    if (table.size() == 0) {
      return 0;
    }
    // page of each sample's allocations, + 1, counted from the first data page (0: none seen yet)
    long firstDataPage = table.ptr(0) >>> shift;
    int[] pageOfSample = new int[(int) Math.min(reader.numSamples(), Integer.MAX_VALUE - 8)];
    for (int i = 0; i < table.size(); i++) {
      long ptr = table.ptr(i);
      long size = table.size(i);
      long sample = table.sample(i);
      if (size > 0 && (ptr >>> shift) != ((ptr + size - 1) >>> shift)) {
        problem("allocation at " + ptr + " of " + size + " bytes (sample " + sample + ") crosses a page boundary");
      }
      if (i > 0 && table.ptr(i - 1) == ptr) {
        problem("two allocations start at " + ptr + " (samples " + table.sample(i - 1) + " and " + sample
            + "): a reader cannot tell their sizes apart (FFCV's zero-length allocation bug)");
      }
      // FFCV's zero-length allocations may carry the next allocation's pointer, in the next page
      if (size > 0 && sample < pageOfSample.length) {
        int page = (int) Math.min(Integer.MAX_VALUE, (ptr >>> shift) - firstDataPage + 1);
        int seen = pageOfSample[(int) sample];
        if (seen == 0) {
          pageOfSample[(int) sample] = page;
        } else if (seen != page) {
          problem("sample " + sample + " has allocations in pages " + (firstDataPage + Math.min(seen, page) - 1)
              + " and " + (firstDataPage + Math.max(seen, page) - 1)
              + ": a loader reading one page per sample misses part of it");
        }
      }
    }
    // FFCV files: (table - D0) / page; compact files: from the first allocation's page to the table's
    long first = Math.min(table.ptr(0), BetonFormat.alignUp(reader.metadataEnd(), reader.pageSize())) >>> shift;
    return ((tablePtr + reader.pageSize() - 1) >>> shift) - first;
  }

  private void checkSamples() {
    AllocationTable table = reader.allocations();
    byte[] references = new byte[table.size()];
    List<BetonField> fields = reader.fields();
    for (long s = 0; s < reader.numSamples(); s++) {
      ByteBuffer chunk = reader.recordChunk(s);
      int rec = reader.recordOffset(s);
      for (int f = 0; f < fields.size(); f++) {
        BetonField field = fields.get(f);
        int at = rec + reader.layout().offset(f);
        for (int p : field.codec().pointerOffsets()) {
          long ptr = chunk.getLong(at + p);
          int entry = table.indexOf(ptr);
          String where = "sample " + s + " field '" + field.name() + "'";
          if (entry < 0) {
            problem(where + ": pointer " + Long.toUnsignedString(ptr) + " matches no allocation entry");
            continue;
          }
          references[entry] = (byte) Math.min(2, references[entry] + 1);
          if (table.sample(entry) != s) {
            problem(where + ": its allocation at " + ptr + " is recorded for sample " + table.sample(entry));
          }
          long expected = expectedSize(field, chunk, at);
          if (expected >= 0 && expected != table.size(entry)) {
            problem(where + ": metadata implies " + expected + " bytes but the allocation at " + ptr + " has "
                + table.size(entry));
          }
        }
        try {
          Object value = reader.value(s, f);
          if (field.typeId() == FieldTypes.RGB_IMAGE) {
            checkJpegSize(s, field, (RgbImage) value);
          }
        } catch (BetonFormatException e) {
          problem(e.getMessage());
        }
      }
    }
    for (int i = 0; i < references.length; i++) {
      if (references[i] == 0) {
        problem("allocation at " + table.ptr(i) + " (sample " + table.sample(i) + ", " + table.size(i)
            + " bytes) is referenced by no metadata pointer");
      } else if (references[i] > 1) {
        problem("allocation at " + table.ptr(i) + " (sample " + table.sample(i) + ") is referenced more than once");
      }
    }
  }

  /** The payload size a field's metadata implies, or -1 when only the table knows (JPEG, custom). */
  private static long expectedSize(BetonField field, ByteBuffer chunk, int at) {
    return switch (field.typeId()) {
      case FieldTypes.BYTES, FieldTypes.JSON -> chunk.getLong(at + 8);
      case FieldTypes.NDARRAY, FieldTypes.TORCH_TENSOR -> field.codec() instanceof NdArrayField nd ? nd.byteSize() : -1;
      case FieldTypes.RGB_IMAGE -> {
        int mode = chunk.get(at + RgbImageField.MODE) & 0xff;
        yield mode == ImageMode.RAW.code()
            ? 3L * Short.toUnsignedInt(chunk.getShort(at + RgbImageField.WIDTH))
                * Short.toUnsignedInt(chunk.getShort(at + RgbImageField.HEIGHT))
            : -1;
      }
      default -> -1;
    };
  }

  private void checkJpegSize(long sample, BetonField field, RgbImage image) {
    if (image.mode() != ImageMode.JPG) {
      return;
    }
    int[] wh = JpegSof.dimensions(image.payload());
    String where = "sample " + sample + " field '" + field.name() + "'";
    if (wh == null) {
      problem(where + ": JPEG payload has no readable frame header (SOF)");
    } else if (wh[0] != image.width() || wh[1] != image.height()) {
      problem(where + ": JPEG frame is " + wh[0] + "x" + wh[1] + " but the metadata says " + image.width() + "x"
          + image.height());
    }
  }
}
