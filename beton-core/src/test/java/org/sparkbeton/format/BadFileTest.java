package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.io.ByteArraySource;
import org.sparkbeton.format.testing.GoldenFiles;

/** Each kind of damage gives a BetonFormatException naming file, region and offset. */
class BadFileTest {

  private static BetonReader open(byte[] file) throws Exception {
    return BetonReader.open(new ByteArraySource("bad.beton", file), ReadOptions.defaults());
  }

  private static ByteBuffer le(byte[] file) {
    return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void truncatedInsideTheHeader() {
    byte[] file = Arrays.copyOf(GoldenFiles.bytes("scalars_only"), 10);
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: header at offset 0: file is 10 bytes, shorter than the 24-byte header");
  }

  @Test
  void truncatedInsideTheAllocationTable() {
    byte[] full = GoldenFiles.bytes("jpg_labels");
    byte[] file = Arrays.copyOf(full, full.length - 5);
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessageStartingWith("bad.beton: allocation table at offset 4194304:")
        .hasMessageEndingWith("bytes to end of file is not a multiple of 24");
  }

  @Test
  void truncatedBeforeTheAllocationTable() {
    byte[] file = Arrays.copyOf(GoldenFiles.bytes("jpg_labels"), 3_000_000);
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: header at offset 16: allocation table pointer 4194304 is past the end of the file"
            + " (3000000 bytes)");
  }

  @Test
  void wrongVersion() {
    byte[] file = GoldenFiles.bytes("scalars_only");
    le(file).putShort(0, (short) 3);
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: header at offset 0: version 3 is not supported, expected 2");
  }

  /** A file that is no .beton at all (a README, a Parquet file) is called that, not an unsupported version. */
  @Test
  void aFileOfAnotherKindIsNotABeton() {
    byte[] text = Arrays.copyOf("# spark-beton\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 4096);
    assertThatThrownBy(() -> open(text)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: header at offset 0: not a .beton file: its first two bytes, a .beton's format version,"
            + " read 8227 where a .beton has 2; it starts with \"# spark-\"");
    byte[] parquet = Arrays.copyOf(new byte[] {'P', 'A', 'R', '1', 0x15, 0x00, 0x15, (byte) 0x9c}, 4096);
    assertThatThrownBy(() -> open(parquet)).isInstanceOf(BetonFormatException.class)
        .hasMessageEndingWith("read 16720 where a .beton has 2; it starts with 50 41 52 31 15 00 15 9c");
  }

  @Test
  void gzippedFileIsNamedAsSuch() throws Exception {
    byte[] gz;
    try (var in = BadFileTest.class.getResourceAsStream("/golden/jpg_labels.beton.gz")) {
      gz = in.readAllBytes();
    }
    assertThatThrownBy(() -> open(gz)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: header at offset 0: this file is gzip-compressed; gunzip it first");
  }

  @Test
  void otherArchivesAreNamed() {
    byte[] file = GoldenFiles.bytes("scalars_only");
    byte[] zstd = file.clone();
    System.arraycopy(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, 0, zstd, 0, 4);
    assertThatThrownBy(() -> open(zstd)).hasMessage("bad.beton: header at offset 0: this file is zstd-compressed;"
        + " unzstd it first");
    byte[] zip = file.clone();
    System.arraycopy(new byte[] {'P', 'K', 3, 4}, 0, zip, 0, 4);
    assertThatThrownBy(() -> open(zip)).hasMessage("bad.beton: header at offset 0: this file is a zip archive;"
        + " unzip it first");
  }

  @Test
  void pageSizeNotAPowerOfTwo() {
    byte[] file = GoldenFiles.bytes("jpg_labels");
    le(file).putInt(4, 3 << 20);
    assertThatThrownBy(() -> open(file)).hasMessage(
        "bad.beton: header at offset 4: page size 3145728 is not a power of two of at least 2097152");
  }

  @Test
  void unknownTypeId() {
    byte[] file = GoldenFiles.bytes("scalars_only");
    file[24 + 1041] = 17;
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: field descriptor 1 at offset 1065: field 'weight' has unknown type id 17");
  }

  @Test
  void customFieldWithoutHandler() {
    byte[] file = GoldenFiles.bytes("scalars_only");
    file[24] = (byte) 255;
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: field descriptor 0 at offset 24: field 'label' is a custom field (type id 255) and no"
            + " handler is registered for it; pass ReadOptions.customField(\"label\", factory)");
  }

  @Test
  void customFieldWithHandlerOpens() throws Exception {
    byte[] file = GoldenFiles.bytes("scalars_only");
    file[24] = (byte) 255;
    ReadOptions options = ReadOptions.defaults().customField("label", args -> IntField.INSTANCE);
    try (BetonReader r = BetonReader.open(new ByteArraySource("custom.beton", file), options)) {
      assertThat(r.intValue(5, 0)).isEqualTo(GoldenFiles.expected("scalars_only").get("samples").get(5).get(0).asLong());
    }
  }

  @Test
  void pointerOutsideTheFile() throws Exception {
    byte[] file = GoldenFiles.bytes("jpg_labels");
    long record0 = 24 + 2 * 1041;
    le(file).putLong((int) record0 + 5, 1L << 40);
    try (BetonReader r = open(file)) {
      assertThatThrownBy(() -> r.value(0, 0)).isInstanceOf(BetonFormatException.class)
          .hasMessage("bad.beton: payload of sample 0 field 'image' at offset 1099511627776: pointer 1099511627776"
              + " matches no allocation table entry");
    }
  }

  @Test
  void allocationEntryOutsideTheDataRegion() {
    byte[] file = GoldenFiles.bytes("jpg_labels");
    long table = le(file).getLong(16);
    le(file).putLong((int) table + 8, 100);
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessageStartingWith("bad.beton: allocation table entry 0 at offset " + (table + 8) + ": allocation [100, +");
  }

  @Test
  void tooManySamplesForTheFile() {
    byte[] file = GoldenFiles.bytes("scalars_only");
    le(file).putLong(8, 1L << 40);
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessageStartingWith("bad.beton: metadata at offset 2106: 1099511627776 records of 16 bytes do not fit");
  }

  @Test
  void nonAsciiFieldName() {
    byte[] file = GoldenFiles.bytes("scalars_only");
    file[25] = (byte) 0xC3;
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessage("bad.beton: field descriptor 0 at offset 25: field name byte 0xc3 is not ASCII");
  }

  @Test
  void malformedArrayArguments() {
    byte[] file = GoldenFiles.bytes("page_spill");
    // descriptor 0's dtype text starts at 24 + 1 + 16 + 264
    file[24 + 17 + 264 + 2] = 'X';
    assertThatThrownBy(() -> open(file)).isInstanceOf(BetonFormatException.class)
        .hasMessageStartingWith("bad.beton: field descriptor 0 arguments at offset 41: field 'a': dtype descr is not");
  }
}
