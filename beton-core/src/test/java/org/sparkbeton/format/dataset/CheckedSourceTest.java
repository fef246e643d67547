package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.ReadOptions;
import org.sparkbeton.format.io.ByteArraySource;
import org.sparkbeton.format.write.PageLayout;

/** Reads through {@link CheckedSource}: each unit read once and checked once; a damaged unit is never returned. */
class CheckedSourceTest {
  @TempDir Path tmp;

  private byte[] file;
  private PageChecksums sums;

  private void write() throws Exception {
    PageChecksummer[] streamed = new PageChecksummer[1];
    file = PageChecksumsTest.write(PageLayout.COMPACT, 300, tmp, streamed);
    sums = streamed[0].finish();
  }

  private Object[][] readAll(CheckedSource source) throws Exception {
    try (BetonReader reader = BetonReader.open(source, ReadOptions.defaults())) {
      Object[][] out = new Object[(int) reader.numSamples()][];
      for (int s = 0; s < out.length; s++) {
        out[s] = reader.sample(s);
      }
      return out;
    }
  }

  @Test
  void aWholeReadReadsEveryUnitOnceAndReturnsTheSameValues() throws Exception {
    write();
    Object[][] plain;
    try (BetonReader reader = BetonReader.open(new ByteArraySource("f.beton", file), ReadOptions.defaults())) {
      plain = new Object[(int) reader.numSamples()][];
      for (int s = 0; s < plain.length; s++) {
        plain[s] = reader.sample(s);
      }
    }
    CheckedSource checked = new CheckedSource(new ByteArraySource("f.beton", file), sums);
    assertThat(readAll(checked)).isDeepEqualTo(plain);
    assertThat(checked.unitsChecked()).isEqualTo(sums.units());
    // payloads are read in order from the unit kept after its check: each byte read once
    assertThat(checked.bytesRead()).isEqualTo(file.length);
  }

  @Test
  void metadataOnlyReadsNeverTouchData() throws Exception {
    write();
    CheckedSource checked = new CheckedSource(new ByteArraySource("f.beton", file), sums);
    try (BetonReader reader = BetonReader.open(checked, ReadOptions.defaults())) {
      long total = 0;
      for (long s = 0; s < reader.numSamples(); s++) {
        total += reader.intValue(s, 1);
      }
      assertThat(total).isEqualTo(299L * 300 / 2);
      long data = sums.allocationTableStart() - sums.dataStart();
      assertThat(checked.bytesRead()).isEqualTo(file.length - data);
    }
  }

  @Test
  void aDamagedPageFailsEveryReadOfItAndNoOther() throws Exception {
    write();
    int unit = sums.dataUnit(1);
    file[(int) sums.unitStart(unit) + 77] ^= 0x10;
    CheckedSource checked = new CheckedSource(new ByteArraySource("shard.beton", file), sums);
    try (BetonReader reader = BetonReader.open(checked, ReadOptions.defaults())) {
      int good = 0;
      int bad = 0;
      for (long s = 0; s < reader.numSamples(); s++) {
        long ptr = reader.recordChunk(s).getLong(reader.recordOffset(s));
        boolean onDamagedPage = ptr / PageChecksumsTest.PAGE == 1;
        if (onDamagedPage) {
          long sample = s;
          assertThatThrownBy(() -> reader.value(sample, 0)).isInstanceOf(BetonFormatException.class)
              .hasMessageStartingWith("shard.beton: page 1 (data region, bytes [" + PageChecksumsTest.PAGE)
              .hasMessageContaining("CRC32C is ");
          bad++;
        } else {
          assertThat((byte[]) reader.value(s, 0)).isNotEmpty();
          good++;
        }
      }
      assertThat(bad).isGreaterThan(10);
      assertThat(good).isGreaterThan(100);
    }
  }

  @Test
  void aDamagedHeaderFailsTheOpen() throws Exception {
    write();
    file[3] ^= 1; // num_fields: 2 becomes 258
    assertThatThrownBy(() -> BetonReader.open(new CheckedSource(new ByteArraySource("s.beton", file), sums),
        ReadOptions.defaults()))
        .isInstanceOf(BetonFormatException.class)
        .hasMessageStartingWith("s.beton: page 0 (header and field descriptors region, bytes [0, 2106)) at offset 0");
  }

  @Test
  void aFileOfAnotherSizeIsRefusedAtOnce() throws Exception {
    write();
    byte[] cut = java.util.Arrays.copyOf(file, file.length - 1);
    assertThatThrownBy(() -> new CheckedSource(new ByteArraySource("s.beton", cut), sums))
        .isInstanceOf(BetonFormatException.class)
        .hasMessage("s.beton: file at offset " + cut.length + ": shard is " + cut.length
            + " bytes but the manifest says " + file.length);
  }

  @Test
  void unitsLargerThanTheCacheAreCheckedInChunksAndReadAgain() throws Exception {
    // one 40 MB page of data: more than a kept unit may hold
    byte[] big = new byte[40 << 20];
    new java.util.Random(3).nextBytes(big);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(big, 1065, big.length - 1065);
    PageChecksums one = new PageChecksums(64L << 20, 1065, 1065, big.length, big.length,
        new int[] {crc0(big), (int) crc.getValue()});
    CheckedSource checked = new CheckedSource(new ByteArraySource("big", big), one);
    ByteBuffer b = checked.read(30 << 20, 4);
    assertThat(b.get(0)).isEqualTo(big[30 << 20]);
    assertThat(checked.bytesRead()).isEqualTo(big.length - 1065 + 4L);
    big[2000] ^= 1;
    CheckedSource damaged = new CheckedSource(new ByteArraySource("big", big), one);
    assertThatThrownBy(() -> damaged.read(1065, 10)).hasMessageContaining("big: page 0 (data region, bytes [1065, ");
  }

  private static int crc0(byte[] b) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b, 0, 1065);
    return (int) crc.getValue();
  }
}
