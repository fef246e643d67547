package org.sparkbeton.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkbeton.format.AllocationTable;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.testing.FfcvPageReads;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.format.tools.Rewrite;
import org.sparkbeton.format.verify.BetonVerifier;

/**
 * {@link PageLayout#COMPACT}: the exact layout (next fit from the metadata end, the file ending at the
 * last sample), and that FFCV's two cache modes, emulated by {@link FfcvPageReads}, read it back.
 */
class CompactLayoutTest {
  private static final long MIB = 1 << 20;
  private static final List<BetonField> LABELLED_BYTES =
      List.of(new BetonField("data", BytesField.INSTANCE), new BetonField("label", IntField.INSTANCE));
  private static final long METADATA_START = 24 + 2 * 1041;

  @TempDir Path tmp;

  /** 30 samples of a few KB: they sit in page 0 behind the records; nothing else is in the file. */
  @Test
  void smallFileHoldsItsSamplesInPageZeroBehindTheMetadata() throws Exception {
    int n = 30;
    Path compact = write("small.beton", PageLayout.COMPACT, 8 * MIB, n, 2_000, 9_000);
    Path ffcv = write("small-ffcv.beton", PageLayout.FFCV, 8 * MIB, n, 2_000, 9_000);
    long metadataEnd = METADATA_START + 24L * n;
    long payload = 0;
    for (int i = 0; i < n; i++) {
      payload += payload(i, 2_000, 9_000).length;
    }
    assertThat(Files.size(compact)).isEqualTo(metadataEnd + payload + 24L * n);
    assertThat(Files.size(ffcv)).isEqualTo(2 * 8 * MIB + 24L * n); // D0 = 8 MiB, one whole page, the table
    try (BetonReader r = BetonReader.open(compact)) {
      assertThat(r.allocations().ptr(0)).isEqualTo(metadataEnd);
      assertThat(r.allocations().ptr(n - 1) + r.allocations().size(n - 1)).isEqualTo(r.header().allocTablePtr());
      assertThat(BetonVerifier.verify(r).problems()).isEmpty();
      assertThat(BetonVerifier.verify(r).pages()).isEqualTo(1);
    }
    assertReadBackEverywhere(compact, n, 2_000, 9_000);
  }

  /**
   * 2 MiB pages and 13 MB of samples: each sample starts where the previous one ended unless the rest
   * of the page is too short for it, then at the next page boundary; the file ends at the last sample.
   */
  @Test
  void samplesFollowEachOtherAndMoveWholeToTheNextPage() throws Exception {
    int n = 600;
    Path file = write("pages.beton", PageLayout.COMPACT, 2 * MIB, n, 5_000, 40_000);
    long pos = METADATA_START + 24L * n;
    long tails = 0;
    try (BetonReader r = BetonReader.open(file)) {
      AllocationTable table = r.allocations();
      assertThat(table.size()).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        long size = payload(i, 5_000, 40_000).length;
        if (pos % (2 * MIB) + size > 2 * MIB) {
          tails += 2 * MIB - pos % (2 * MIB);
          pos = (pos / (2 * MIB) + 1) * 2 * MIB;
        }
        assertThat(table.ptr(i)).as("sample %d", i).isEqualTo(pos);
        assertThat(table.sample(i)).isEqualTo(i);
        pos += size;
      }
      assertThat(r.header().allocTablePtr()).isEqualTo(pos);
      assertThat(Files.size(file)).isEqualTo(pos + 24L * n);
      assertThat(pos % (2 * MIB)).as("the last page is cut short").isNotZero();
      assertThat(BetonVerifier.verify(r).problems()).isEmpty();
      assertThat(BetonVerifier.verify(r).pages()).isEqualTo(pos / (2 * MIB) + 1);
      // the page tails are zero
      for (int i = 1; i < n; i++) {
        long end = table.ptr(i - 1) + table.size(i - 1);
        int gap = (int) (table.ptr(i) - end);
        if (gap > 0) {
          ByteBuffer zeros = r.source().read(end, gap);
          for (int k = 0; k < gap; k++) {
            assertThat(zeros.get(k)).isZero();
          }
        }
      }
    }
    assertThat(tails).as("page tails, less than one sample per page").isPositive().isLessThan(7 * 40_000L);
    assertReadBackEverywhere(file, n, 5_000, 40_000);
  }

  /** The streamed file and the local file written in place are the same bytes. */
  @Test
  void streamAndLocalFileAreIdentical() throws Exception {
    int n = 600;
    Path inPlace = write("local.beton", PageLayout.COMPACT, 2 * MIB, n, 5_000, 40_000);
    Path streamed = tmp.resolve("streamed.beton");
    try (OutputStream out = Files.newOutputStream(streamed);
         BetonWriter w = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).open(out, tmp)) {
      for (int i = 0; i < n; i++) {
        w.append(payload(i, 5_000, 40_000), (long) i);
      }
      w.finish();
    }
    assertThat(Files.mismatch(inPlace, streamed)).isEqualTo(-1);
  }

  /**
   * A sample of two allocations that does not fit the rest of a page is written again on a fresh one;
   * FFCV's layout keeps the first attempt as orphan bytes, the compact one leaves them out.
   */
  @Test
  void orphansOfMovedSamplesAreLeftOut() throws Exception {
    List<BetonField> fields = List.of(new BetonField("blob", BytesField.INSTANCE),
        new BetonField("vec", NdArrayField.ndarray("|u1", 100_000)));
    byte[] vec = new byte[100_000];
    new Random(5).nextBytes(vec);
    int n = 60;
    long[] sizes = new long[2];
    for (PageLayout layout : PageLayout.values()) {
      Path file = tmp.resolve(layout + ".beton");
      try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * MIB).pageLayout(layout).open(file)) {
        for (int i = 0; i < n; i++) {
          w.append(payload(i, 1_000, 3_000), vec);
        }
        w.finish();
      }
      sizes[layout.ordinal()] = Files.size(file);
      List<List<ByteBuffer>> reads = FfcvPageReads.processCache(file);
      for (int i = 0; i < n; i++) {
        assertThat(reads.get(i)).containsExactly(ByteBuffer.wrap(payload(i, 1_000, 3_000)), ByteBuffer.wrap(vec));
      }
      try (BetonReader r = BetonReader.open(file)) {
        assertThat(BetonVerifier.verify(r).problems()).isEmpty();
        long used = 0;
        for (int e = 0; e < r.allocations().size(); e++) {
          used += r.allocations().size(e);
        }
        long data = r.header().allocTablePtr() - r.metadataEnd();
        if (layout == PageLayout.COMPACT) {
          // about 102 KB per sample, 20 per 2 MiB page: every byte is a payload but the page tails
          assertThat(data - used).isLessThan(3 * 103_000L);
        }
      }
    }
    assertThat(sizes[PageLayout.COMPACT.ordinal()]).isLessThan(sizes[PageLayout.FFCV.ordinal()] - 2 * MIB);
  }

  static Iterable<String> goldenNames() {
    return GoldenFiles.NAMES;
  }

  /** The emulation itself on FFCV's own files: both cache modes read every payload alike. */
  @ParameterizedTest
  @MethodSource("goldenNames")
  void ffcvPageReadsAgreeOnTheGoldenFiles(String name) throws Exception {
    Path file = GoldenFiles.path(name);
    List<List<ByteBuffer>> pages = FfcvPageReads.processCache(file);
    assertThat(pages).isEqualTo(FfcvPageReads.osCache(file));
    try (BetonReader r = BetonReader.open(file)) {
      assertThat(pages).hasSize((int) r.numSamples());
      long payloads = pages.stream().mapToLong(List::size).sum();
      assertThat(payloads).isEqualTo(r.allocations().size());
    }
  }

  /** Every FFCV file rewritten compact, by one thread or three, keeps every value and reads in both FFCV cache modes. */
  @ParameterizedTest
  @MethodSource("goldenNames")
  void goldenFilesRewrittenCompactKeepEveryValue(String name) throws Exception {
    for (int threads : new int[] {1, 3}) {
      Path out = tmp.resolve(name + "-" + threads + ".beton");
      try (BetonReader in = BetonReader.open(GoldenFiles.path(name))) {
        WriteResult result = Rewrite.run(in, out, in.pageSize(), threads, PageLayout.COMPACT);
        assertThat(result.fileSize()).isEqualTo(Files.size(out));
        try (BetonReader back = BetonReader.open(out)) {
          assertThat(BetonVerifier.verify(back).problems()).isEmpty();
          SampleJson a = new SampleJson(in, null);
          SampleJson b = new SampleJson(back, null);
          for (long s = 0; s < in.numSamples(); s++) {
            assertThat(b.row(s)).as("%s sample %d", name, s).isEqualTo(a.row(s));
          }
          if (back.allocations().size() > 0 && threads == 1) {
            assertThat(back.allocations().ptr(0)).isEqualTo(back.metadataEnd());
          }
        }
      }
      assertThat(FfcvPageReads.processCache(out)).isEqualTo(FfcvPageReads.osCache(out));
      assertThat(Files.size(out)).isLessThanOrEqualTo(Files.size(GoldenFiles.path(name)));
    }
  }

  /** ... and it can fail: an allocation grown past its page end is caught. */
  @Test
  void ffcvPageReadsCatchAnAllocationCrossingItsPage() throws Exception {
    byte[] bytes = GoldenFiles.bytes("page_spill");
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long table = b.getLong(16);
    b.putLong((int) table + 16, 3L << 20);
    Path file = tmp.resolve("crossing.beton");
    Files.write(file, bytes);
    assertThatThrownBy(() -> FfcvPageReads.processCache(file)).isInstanceOf(AssertionError.class)
        .hasMessageContaining("runs past the end of page");
  }

  private Path write(String name, PageLayout layout, long pageSize, int n, int minSize, int maxSize) throws Exception {
    Path file = tmp.resolve(name);
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).pageSize(pageSize).pageLayout(layout).open(file)) {
      for (int i = 0; i < n; i++) {
        w.append(payload(i, minSize, maxSize), (long) i);
      }
      w.finish();
    }
    return file;
  }

  /** Our reader, FFCV's {@code os_cache=False} page reads and its {@code os_cache=True} mapping give every payload. */
  private static void assertReadBackEverywhere(Path file, int n, int minSize, int maxSize) throws Exception {
    List<List<ByteBuffer>> pages = FfcvPageReads.processCache(file);
    List<List<ByteBuffer>> mapped = FfcvPageReads.osCache(file);
    try (BetonReader r = BetonReader.open(file)) {
      for (int i = 0; i < n; i++) {
        byte[] expected = payload(i, minSize, maxSize);
        assertThat((byte[]) r.value(i, 0)).isEqualTo(expected);
        assertThat(r.intValue(i, 1)).isEqualTo(i);
        assertThat(pages.get(i)).as("os_cache=False, sample %d", i).containsExactly(ByteBuffer.wrap(expected));
        assertThat(mapped.get(i)).as("os_cache=True, sample %d", i).containsExactly(ByteBuffer.wrap(expected));
      }
    }
  }

  static byte[] payload(int i, int minSize, int maxSize) {
    Random r = new Random(i);
    byte[] b = new byte[minSize + r.nextInt(maxSize - minSize)];
    r.nextBytes(b);
    return b;
  }
}
