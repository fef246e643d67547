package org.sparkbeton.format.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.FloatField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.JsonField;
import org.sparkbeton.format.fields.NdArray;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.testing.FfcvPageReads;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.format.verify.VerifyReport;

class BetonWriterTest {
  private static final long MIB = 1 << 20;
  @TempDir Path tmp;

  private static final List<BetonField> LABELLED_BYTES =
      List.of(new BetonField("data", BytesField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  /**
   * 200k samples of 24-byte records overflow the first 2 MiB page boundary: the local file's pages must
   * move up (and, compact, back down behind the records); the streamed file never moves anything.
   */
  @ParameterizedTest
  @EnumSource(PageLayout.class)
  void moreSamplesThanReservedMovesPagesAndMatchesStreamOutput(PageLayout layout) throws Exception {
    Path inPlace = tmp.resolve("in-place.beton");
    Path streamed = tmp.resolve("streamed.beton");
    int n = 200_000;
    try (BetonWriter a = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).pageLayout(layout).open(inPlace);
         OutputStream out = Files.newOutputStream(streamed);
         BetonWriter b = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).pageLayout(layout).open(out, tmp)) {
      for (int i = 0; i < n; i++) {
        byte[] payload = payload(i);
        a.append(payload, (long) i);
        b.append(payload, (long) i);
      }
      WriteResult ra = a.finish();
      WriteResult rb = b.finish();
      assertThat(ra).isEqualTo(rb);
      // M0 = 24 + 2*1041 = 2106; records end at 2106 + 24*200000 = 4,802,106 -> D0 = 6 MiB
      assertThat(ra.dataStart()).isEqualTo(layout == PageLayout.FFCV ? 6 * MIB : 4_802_106);
    }
    assertThat(Files.mismatch(inPlace, streamed)).isEqualTo(-1);
    try (BetonReader r = BetonReader.open(inPlace)) {
      assertThat(r.numSamples()).isEqualTo(n);
      for (int i : new int[] {0, 1, 77_777, n - 1}) {
        assertThat((byte[]) r.value(i, 0)).isEqualTo(payload(i));
        assertThat(r.intValue(i, 1)).isEqualTo(i);
      }
      assertThat(BetonVerifier.verify(r).problems()).isEmpty();
    }
    List<List<ByteBuffer>> pageReads = FfcvPageReads.processCache(inPlace);
    for (int i : new int[] {0, 1, 77_777, n - 1}) {
      assertThat(pageReads.get(i)).containsExactly(ByteBuffer.wrap(payload(i)));
    }
    assertThat(Files.list(tmp).filter(p -> p.toString().endsWith(".spool")).count()).as("spool files left").isZero();
  }

  /**
   * A streamed file's pages spooled in memory (none, the first page, all of them) give the in-place file's bytes;
   * with every page in memory no spool file is ever created, with some the rest go to one, deleted at finish.
   */
  @ParameterizedTest
  @CsvSource({"FFCV, 0", "FFCV, 1", "FFCV, 100", "COMPACT, 0", "COMPACT, 1", "COMPACT, 100"})
  void pagesSpooledInMemoryGiveTheSameBytes(PageLayout layout, int memoryPages) throws Exception {
    Path inPlace = tmp.resolve("in-place-" + memoryPages + ".beton");
    Path streamed = tmp.resolve("streamed-" + memoryPages + ".beton");
    Path spoolDir = Files.createDirectories(tmp.resolve("spool-" + layout + memoryPages));
    int n = 500; // ~9.8 MB of payloads in 2 MiB pages: 5 pages
    try (BetonWriter a = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).pageLayout(layout).open(inPlace);
         OutputStream out = Files.newOutputStream(streamed);
         BetonWriter b = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).pageLayout(layout)
             .spoolMemory(memoryPages * 2 * MIB).open(out, spoolDir)) {
      for (int i = 0; i < n; i++) {
        byte[] payload = new byte[15_000 + (i * 7919) % 10_000];
        new Random(i).nextBytes(payload);
        a.append(payload, (long) i);
        b.append(payload, (long) i);
      }
      // (an open spool file is already unlinked: Java's DELETE_ON_CLOSE on Linux; the target names it)
      assertThat(b.target()).startsWith(memoryPages + " page(s) in memory, then ")
          .contains(memoryPages >= 5 ? "then a spool file in " + spoolDir : "then spool " + spoolDir + "/beton-pages-");
      assertThat(a.finish()).isEqualTo(b.finish());
    }
    assertThat(Files.mismatch(inPlace, streamed)).isEqualTo(-1);
    assertThat(Files.size(streamed)).isGreaterThan(8 * MIB);
    try (var spooled = Files.list(spoolDir)) {
      assertThat(spooled.count()).as("spool files left").isZero();
    }
  }

  @Test
  void aNegativeSpoolMemoryIsRefused() {
    assertThatThrownBy(() -> BetonWriter.builder(LABELLED_BYTES).spoolMemory(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("spoolMemory must be >= 0, got -1");
  }

  @Test
  void expectedSamplesReservesRoomSoNothingMoves() throws Exception {
    Path file = tmp.resolve("reserved.beton");
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).pageLayout(PageLayout.FFCV)
        .expectedSamples(200_000).open(file)) {
      for (int i = 0; i < 1000; i++) {
        w.append(payload(i), (long) i);
      }
      WriteResult r = w.finish();
      // the reservation for 200k records is kept: unused zero rows before D0 are allowed by the format
      assertThat(r.dataStart()).isEqualTo(6 * MIB);
    }
    try (BetonReader r = BetonReader.open(file)) {
      assertThat((byte[]) r.value(999, 0)).isEqualTo(payload(999));
      assertThat(BetonVerifier.verify(r).ok()).isTrue();
    }
  }

  /** A compact file puts its data right behind the records whatever was reserved for them. */
  @Test
  void compactIgnoresAnOversizedReservation() throws Exception {
    Path file = tmp.resolve("reserved-compact.beton");
    WriteResult r;
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).expectedSamples(200_000).open(file)) {
      for (int i = 0; i < 1000; i++) {
        w.append(payload(i), (long) i);
      }
      r = w.finish();
    }
    long payloads = 0;
    for (int i = 0; i < 1000; i++) {
      payloads += payload(i).length;
    }
    assertThat(r.dataStart()).isEqualTo(2106 + 24 * 1000);
    assertThat(Files.size(file)).isEqualTo(2106 + 24 * 1000 + payloads + 24 * 1000);
    try (BetonReader reader = BetonReader.open(file)) {
      assertThat((byte[]) reader.value(999, 0)).isEqualTo(payload(999));
      assertThat(BetonVerifier.verify(reader).ok()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(PageLayout.class)
  void fourThreadsWriteOneFileWithEveryInvariant(PageLayout layout) throws Exception {
    Path file = tmp.resolve("threads.beton");
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("vec", NdArrayField.ndarray("<f4", 3, 4)), new BetonField("label", IntField.INSTANCE));
    int n = 4000;
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * MIB).pageLayout(layout).open(file)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        SampleWriter worker = w.newWorker();
        int first = t;
        futures.add(pool.submit(() -> {
          try (worker) {
            for (int i = first; i < n; i += 4) {
              worker.write(i, image(i), vector(i), (long) i % 10);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
      w.finish();
    }
    try (BetonReader r = BetonReader.open(file)) {
      assertThat(r.numSamples()).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        RgbImage img = (RgbImage) r.value(i, 0);
        assertThat(img.payloadBytes()).isEqualTo(image(i).payloadBytes());
        NdArray vec = (NdArray) r.value(i, 1);
        float[] got = new float[12];
        vec.data().duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(got);
        assertThat(got).containsExactly(vector(i));
        assertThat(r.intValue(i, 2)).isEqualTo(i % 10);
      }
      VerifyReport report = BetonVerifier.verify(r);
      assertThat(report.problems()).isEmpty();
      assertThat(report.pages()).isGreaterThan(4);
    }
    List<List<ByteBuffer>> pageReads = FfcvPageReads.processCache(file);
    assertThat(FfcvPageReads.osCache(file)).isEqualTo(pageReads);
    for (int i = 0; i < n; i++) {
      assertThat(pageReads.get(i)).as("sample %d", i).hasSize(2).first().isEqualTo(ByteBuffer.wrap(image(i).payloadBytes()));
    }
  }

  /** FFCV hands an empty value the next allocation's pointer; ours gets a pointer of its own. */
  @Test
  void emptyValuesGetTheirOwnPointer() throws Exception {
    Path file = tmp.resolve("empty.beton");
    List<BetonField> fields = List.of(new BetonField("blob", BytesField.INSTANCE),
        new BetonField("vec", NdArrayField.ndarray("|u1", 4)));
    try (BetonWriter w = BetonWriter.builder(fields).pageSize(2 * MIB).open(file)) {
      w.append(new byte[0], new byte[] {1, 2, 3, 4});
      w.append(new byte[0], new byte[] {5, 6, 7, 8});
      w.finish();
    }
    try (BetonReader r = BetonReader.open(file)) {
      assertThat(r.allocations().hasDuplicatePointers()).isFalse();
      assertThat((byte[]) r.value(0, 0)).isEmpty();
      assertThat(((NdArray) r.value(1, 1)).data().get(0)).isEqualTo((byte) 5);
      assertThat(r.allocations().sizeAt(r.allocations().ptr(0))).isZero();
      assertThat(BetonVerifier.verify(r).ok()).isTrue();
    }
  }

  @Test
  void sampleLargerThanAPageIsRefusedWithItsSizesAndTheWriterGoesOn() throws Exception {
    Path file = tmp.resolve("large.beton");
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).pageSize(2 * MIB).open(file)) {
      w.append(new byte[10], 1L);
      assertThatThrownBy(() -> w.append(new byte[3 * (int) MIB], 2L))
          .isInstanceOf(SampleTooLargeException.class)
          .hasMessage("Sample needs 3145728 bytes of payload (data=3145728, label=0) but a page holds 2097152;"
              + " all of a sample's payloads must share one page: use a larger page size");
      w.append(new byte[20], 3L);
      assertThat(w.finish().numSamples()).isEqualTo(2);
    }
  }

  @Test
  void missingIndexIsAnErrorNotAHole() throws Exception {
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).open(tmp.resolve("holes.beton"))) {
      w.write(0, new byte[1], 0L);
      w.write(2, new byte[1], 2L);
      assertThatThrownBy(w::finish).isInstanceOf(IllegalStateException.class)
          .hasMessage("Sample 1 of 0..2 was never written");
      assertThatThrownBy(() -> w.write(0, new byte[1], 0L)).hasMessage("Sample 0 was already written");
    }
    assertThat(tmp.resolve("holes.beton")).doesNotExist();
  }

  @Test
  void badValuesNameTheField() throws Exception {
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).open(tmp.resolve("bad.beton"))) {
      assertThatThrownBy(() -> w.append(new byte[1], 1.5))
          .hasMessage("Field 'label': Int field expects an integral Number or Boolean, got Double 1.5");
      assertThatThrownBy(() -> w.append(new byte[1]))
          .hasMessageStartingWith("Expected 2 values");
    }
  }

  @Test
  void namesAreValidatedNotTruncated() {
    assertThatThrownBy(() -> BetonWriter.builder(List.of(new BetonField("a_very_long_field_name", IntField.INSTANCE))))
        .hasMessage("Field name 'a_very_long_field_name' is 22 bytes; .beton stores at most 16"
            + " (FFCV would silently cut it to 'a_very_long_fiel')");
    assertThatThrownBy(() -> BetonWriter.builder(List.of(new BetonField("étiquette", IntField.INSTANCE))))
        .hasMessageContaining("non-ASCII");
    assertThatThrownBy(() -> BetonWriter.builder(List.of(new BetonField("x", IntField.INSTANCE),
        new BetonField("x", FloatField.INSTANCE)))).hasMessage("Field name 'x' is used twice");
    assertThatThrownBy(() -> BetonWriter.builder(LABELLED_BYTES).pageSize(3 * MIB))
        .hasMessageContaining("power of two");
  }

  @Test
  void jsonWithNulIsRefused() throws Exception {
    List<BetonField> fields = List.of(new BetonField("meta", JsonField.INSTANCE));
    try (BetonWriter w = BetonWriter.builder(fields).open(tmp.resolve("json.beton"))) {
      assertThatThrownBy(() -> w.append("{\"a\": \"x\u0000y\"}")).hasMessageContaining("NUL character at index 8");
    }
  }

  @Test
  void closeWithoutFinishDeletesTheFile() throws Exception {
    Path file = tmp.resolve("aborted.beton");
    try (BetonWriter w = BetonWriter.builder(LABELLED_BYTES).open(file)) {
      w.append(new byte[5], 1L);
    }
    assertThat(file).doesNotExist();
  }

  static byte[] payload(int i) {
    byte[] b = new byte[1 + (i % 37)];
    new Random(i).nextBytes(b);
    return b;
  }

  static RgbImage image(int i) {
    int w = 8 + i % 50;
    int h = 8 + i % 31;
    byte[] rgb = new byte[w * h * 3];
    new Random(i).nextBytes(rgb);
    return RgbImage.raw(w, h, rgb);
  }

  static float[] vector(int i) {
    float[] v = new float[12];
    for (int k = 0; k < v.length; k++) {
      v[k] = (float) (i * 0.5 + k);
    }
    return v;
  }
}
