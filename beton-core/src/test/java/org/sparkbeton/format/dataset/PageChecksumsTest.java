package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.dataset.PageChecksums.Region;
import org.sparkbeton.format.fields.BytesField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.io.ByteArraySource;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.format.write.PageLayout;

/** Where the units lie, and that the streaming checksummer agrees with a reader's computation of the same file. */
class PageChecksumsTest {
  static final long PAGE = 1 << 21;
  static final List<BetonField> FIELDS =
      List.of(new BetonField("data", BytesField.INSTANCE), new BetonField("label", IntField.INSTANCE));

  @TempDir Path tmp;

  /** A file of {@code n} samples of 10-40 KB random bytes, written through the stream target, checksummed on the way. */
  static byte[] write(PageLayout layout, int n, Path spool, PageChecksummer[] checksummer) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PageChecksummer sums = new PageChecksummer(16 + 8);
    checksummer[0] = sums;
    OutputStream out = new OutputStream() {
      @Override
      public void write(int b) {
        bytes.write(b);
        sums.update(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
        sums.update(b, off, len);
      }
    };
    Random random = new Random(7);
    try (BetonWriter w = BetonWriter.builder(FIELDS).pageSize(PAGE).pageLayout(layout).open(out, spool)) {
      for (int i = 0; i < n; i++) {
        byte[] payload = new byte[10_000 + random.nextInt(30_000)];
        random.nextBytes(payload);
        w.append(payload, (long) i);
      }
      w.finish();
    }
    return bytes.toByteArray();
  }

  @ParameterizedTest
  @EnumSource(PageLayout.class)
  void theStreamingChecksummerAgreesWithAReaderAndUnitsCoverTheFile(PageLayout layout) throws Exception {
    PageChecksummer[] streamed = new PageChecksummer[1];
    byte[] file = write(layout, 300, tmp, streamed);
    PageChecksums sums = streamed[0].finish();
    try (BetonReader reader = BetonReader.open(new ByteArraySource("f.beton", file), ReadOptions.defaults())) {
      assertThat(PageChecksums.compute(reader)).isEqualTo(sums);
      assertThat(sums.metadataStart()).isEqualTo(reader.metadataStart());
      assertThat(sums.dataStart()).isEqualTo(reader.metadataEnd());
      assertThat(sums.allocationTableStart()).isEqualTo(reader.header().allocTablePtr());
    }
    assertThat(sums.fileLength()).isEqualTo(file.length);
    // consecutive, non-empty, never across a page boundary or a region start, each CRC32C right
    long pos = 0;
    for (int u = 0; u < sums.units(); u++) {
      assertThat(sums.unitStart(u)).isEqualTo(pos);
      long end = sums.unitEnd(u);
      assertThat(end).isGreaterThan(pos);
      assertThat((end - 1) / PAGE).isEqualTo(pos / PAGE);
      assertThat(sums.page(u)).isEqualTo(pos / PAGE);
      CRC32C crc = new CRC32C();
      crc.update(file, (int) pos, (int) (end - pos));
      assertThat(sums.value(u)).isEqualTo((int) crc.getValue());
      assertThat(sums.unitAt(pos)).isEqualTo(u);
      assertThat(sums.unitAt(end - 1)).isEqualTo(u);
      pos = end;
    }
    assertThat(pos).isEqualTo(file.length);
    // about 7.5 MB of samples in 2 MiB pages: header, metadata, 4 or 5 pages of data, the table
    assertThat(sums.region(0)).isEqualTo(Region.HEADER);
    assertThat(sums.unitEnd(0)).isEqualTo(24 + 2 * 1041);
    assertThat(sums.region(1)).isEqualTo(Region.METADATA);
    assertThat(sums.region(sums.units() - 1)).isEqualTo(Region.ALLOCATION_TABLE);
    long dataPages = 0;
    for (long page = 0; page <= file.length / PAGE; page++) {
      int u = sums.dataUnit(page);
      if (u >= 0) {
        dataPages++;
        assertThat(sums.region(u)).isEqualTo(Region.DATA);
        assertThat(sums.page(u)).isEqualTo(page);
      }
    }
    assertThat(dataPages).isBetween(4L, 6L);
    if (layout == PageLayout.FFCV) {
      assertThat(sums.dataUnit(0)).as("FFCV: zeros up to page 1, which is where the data starts").isEqualTo(2);
      assertThat(sums.unitStart(2)).isEqualTo(sums.dataStart());
    } else {
      assertThat(sums.unitStart(sums.dataUnit(0))).isEqualTo(sums.dataStart());
    }
  }

  @Test
  void aMismatchNamesTheFileThePageAndTheRegion() throws Exception {
    PageChecksummer[] streamed = new PageChecksummer[1];
    byte[] file = write(PageLayout.COMPACT, 300, tmp, streamed);
    PageChecksums sums = streamed[0].finish();
    int unit = sums.dataUnit(2);
    ByteBuffer bytes = ByteBuffer.wrap(file, (int) sums.unitStart(unit), sums.unitLength(unit)).slice();
    sums.check("f.beton", unit, bytes); // as written: fine
    file[(int) sums.unitStart(unit) + 1000] ^= 4;
    assertThatThrownBy(() -> sums.check("f.beton", unit, bytes))
        .isInstanceOf(BetonFormatException.class)
        .hasMessageStartingWith("f.beton: page 2 (data region, bytes [" + 2 * PAGE + ", " + sums.unitEnd(unit)
            + ")) at offset " + 2 * PAGE + ": CRC32C is ")
        .hasMessageContaining("but the manifest says " + PageChecksums.hex(sums.value(unit)))
        .hasMessageEndingWith("the shard changed after it was written");
  }

  @Test
  void geometryMustMatchTheValues() {
    assertThatThrownBy(() -> new PageChecksums(3000, 1065, 2000, 3000, 4000, new int[3]))
        .hasMessageContaining("page size 3000 is not a power of two");
    assertThatThrownBy(() -> new PageChecksums(PAGE, 1065, 2000, 1999, 4000, new int[3]))
        .hasMessageContaining("regions must follow one another");
    assertThatThrownBy(() -> new PageChecksums(PAGE, 1065, 2000, 3000, 4000, new int[3]))
        .hasMessageContaining("has 4 checksum units, but 3 checksums are given");
    PageChecksums empty = new PageChecksums(PAGE, 1065, 1065, 1065, 1065, new int[1]);
    assertThat(empty.units()).isEqualTo(1);
    assertThat(empty.dataUnit(0)).isEqualTo(-1);
    assertThatThrownBy(() -> PageChecksums.parseValues("0123456")).hasMessageContaining("8 hex digits each");
    assertThatThrownBy(() -> PageChecksums.parseValues("0123456x")).hasMessageContaining("\"0123456x\"");
  }

  @Test
  void hexDigitsAreWhatFormatWritesAndParseBack() {
    java.util.Random r = new java.util.Random(5);
    int[] values = new int[200];
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      values[i] = i < 4 ? new int[] {0, -1, Integer.MIN_VALUE, 0xabc}[i] : r.nextInt();
      expected.append(String.format("%08x", values[i]));
      assertThat(PageChecksums.hex(values[i])).isEqualTo(String.format("%08x", values[i]));
    }
    assertThat(PageChecksums.parseValues(expected.toString())).containsExactly(values);
  }
}
