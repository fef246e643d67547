package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.ImageDecoder;
import org.sparkbeton.codec.image.RgbPixels;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.resize.Resizer;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;

/** A task attempt given rows whose failures concern one image only: each is bad input under the policy. */
class BetonDataWriterBadInputTest {
  @TempDir Path tmp;

  private BetonDataWriter writer(StructType schema, String... options) throws Exception {
    Map<String, String> o = new HashMap<>(Map.of("spoolDir", tmp.toString()));
    for (int i = 0; i < options.length; i += 2) {
      o.put(options[i], options[i + 1]);
    }
    Path out = Files.createDirectories(tmp.resolve("out"));
    return new BetonDataWriter(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(out.toUri()),
        "0123abcd", 0, 0, schema, BetonWriteConf.parse(o));
  }

  /** A photo upscaled to {@code w x h} and encoded as JPEG q90: its raw RGB is {@code 3wh} bytes. */
  static byte[] largePhoto(int w, int h) {
    RgbPixels photo = ImageDecoder.decode(TestPhotos.photo(43, 0));
    ByteBuffer big = ByteBuffer.allocate(w * h * 3);
    new Resizer(false).resize(ByteBuffer.wrap(photo.pixels()), 0, photo.width() * 3, 0, 0, photo.width(),
        photo.height(), big, 0, w, h);
    try (JpegCodec codec = JpegCodecs.fastest()) {
      return codec.encode(big, 0, w, h, 90);
    }
  }

  /** A raw image too large for a page: quarantined, naming the column; the rows around it are written. */
  @Test
  void aSampleTooLargeForItsPageIsABadImage() throws Exception {
    StructType schema = new StructType().add("image", DataTypes.BinaryType).add("label", DataTypes.IntegerType);
    BetonDataWriter w = writer(schema, "imageColumns", "image", "pageSize", "2M", "badImagePolicy", "quarantine");
    w.write(new GenericInternalRow(new Object[] {TestPhotos.photo(43, 1), 1}));
    w.write(new GenericInternalRow(new Object[] {largePhoto(1000, 800), 2}));
    w.write(new GenericInternalRow(new Object[] {TestPhotos.photo(43, 2), 3}));
    BetonCommitMessage m = (BetonCommitMessage) w.commit();
    w.close();
    assertThat(m.samples()).isEqualTo(2);
    assertThat(m.quarantined()).isEqualTo(1);
    String record = Files.readString(tmp.resolve("out/_quarantine").resolve(m.quarantineFile()), StandardCharsets.UTF_8);
    assertThat(record).isEqualTo("{\"source\":null,\"partition\":0,\"row\":1,\"column\":\"image\",\"reason\":\"Sample needs"
        + " 2400000 bytes of payload (image=2400000, label=0) but a page holds 2097152; all of a sample's payloads must"
        + " share one page: use a larger page size (option pageSize)\"}\n");
    try (BetonReader r = BetonReader.open(tmp.resolve("out").resolve(m.shards().get(0).path()))) {
      assertThat(r.numSamples()).isEqualTo(2);
      assertThat(r.intValue(1, 1)).isEqualTo(3);
    }
  }

  /** When every row was too large, the shard opened for the first is deleted: a task with no samples writes none. */
  @Test
  void noEmptyShardIsLeft() throws Exception {
    StructType schema = new StructType().add("image", DataTypes.BinaryType);
    BetonDataWriter w = writer(schema, "imageColumns", "image", "pageSize", "2M", "badImagePolicy", "skip");
    w.write(new GenericInternalRow(new Object[] {largePhoto(1000, 800)}));
    BetonCommitMessage m = (BetonCommitMessage) w.commit();
    w.close();
    assertThat(m.samples()).isZero();
    assertThat(m.skippedBadImages()).isEqualTo(1);
    assertThat(m.shards()).isEmpty();
    try (var files = Files.list(tmp.resolve("out"))) {
      assertThat(files.toList()).isEmpty();
    }
  }

  /**
   * Without an image column, a sample too large for a page is the write's mistake (its pageSize): it fails, naming
   * the row, on every attempt alike.
   */
  @Test
  void aTooLargeSampleWithoutImagesFails() throws Exception {
    StructType schema = new StructType().add("blob", DataTypes.BinaryType);
    BetonDataWriter w = writer(schema, "pageSize", "2M");
    assertThatThrownBy(() -> w.write(new GenericInternalRow(new Object[] {new byte[3 << 20]})))
        .isInstanceOf(BadValueException.class)
        .hasCauseInstanceOf(org.sparkbeton.format.write.SampleTooLargeException.class)
        .hasMessageStartingWith("Bad value in row 0 of partition 0: Sample needs 3145728 bytes of payload (blob=3145728)");
    w.abort();
    w.close();
  }

  /**
   * Any other exception while one image is handled is that image's problem: a path with a colon in its first part
   * (a cell of a CSV list) makes Hadoop's Path throw an IllegalArgumentException, which is a bad image under every
   * policy. An empty path is one too, said plainly.
   */
  @Test
  void anyFailureOfOneImageIsABadImage() throws Exception {
    StructType schema = new StructType().add("image", DataTypes.StringType).add("label", DataTypes.IntegerType);
    Path photo = Files.write(tmp.resolve("p.jpg"), TestPhotos.photo(43, 3));
    List<Object[]> rows = List.of(new Object[] {UTF8String.fromString(photo.toString()), 1},
        new Object[] {UTF8String.fromString("photo:1.jpg"), 2}, new Object[] {UTF8String.fromString(""), 3});
    BetonDataWriter failing = writer(schema, "imageColumns", "image");
    failing.write(new GenericInternalRow(rows.get(0)));
    assertThatThrownBy(() -> failing.write(new GenericInternalRow(rows.get(1)))).isInstanceOf(BadImageException.class)
        .hasMessage("Bad image in column 'image', row 1 of partition 0 (source photo:1.jpg): cannot store the image:"
            + " java.lang.IllegalArgumentException: java.net.URISyntaxException: Relative path in absolute URI:"
            + " photo:1.jpg (set badImagePolicy=skip or quarantine to leave such rows out)");
    assertThatThrownBy(() -> failing.write(new GenericInternalRow(rows.get(2)))).isInstanceOf(BadImageException.class)
        .hasMessage("Bad image in column 'image', row 2 of partition 0: the path of the image file is empty"
            + " (set badImagePolicy=skip or quarantine to leave such rows out)");
    failing.abort();
    failing.close();
    BetonDataWriter skipping = writer(schema, "imageColumns", "image", "badImagePolicy", "skip");
    for (Object[] r : rows) {
      skipping.write(new GenericInternalRow(r));
    }
    BetonCommitMessage m = (BetonCommitMessage) skipping.commit();
    skipping.close();
    assertThat(m.samples()).isEqualTo(1);
    assertThat(m.skippedBadImages()).isEqualTo(2);
  }

  /**
   * A JPEG whose data runs on past its last scan (240 extraneous bytes before the end-of-image marker) is
   * whole to a lenient decode: the failure says jpegStrict=false stores it, and
   * jpegStrict=false does. The message comes back from a task failure's description unchanged.
   */
  @Test
  void aJpegOnlyAStrictDecodeRefusesNamesJpegStrict() throws Exception {
    StructType schema = new StructType().add("image", DataTypes.BinaryType);
    byte[] padded = org.sparkbeton.codec.testing.CorruptionCorpus.withPaddingBeforeEoi(TestPhotos.photo(47, 5), 240);
    BetonDataWriter strict = writer(schema, "imageColumns", "image", "maxResolution", "64");
    Throwable thrown = catchThrowable(() -> strict.write(new GenericInternalRow(new Object[] {padded})));
    assertThat(thrown).isInstanceOf(BadImageException.class)
        .hasMessageContaining(": Corrupt JPEG data: ").hasMessageContaining(" extraneous bytes before marker 0xd9")
        .hasMessageEndingWith(" (set jpegStrict=false to store what libjpeg decodes around the damage, as FFCV does,"
            + " or badImagePolicy=skip or quarantine to leave such rows out)");
    BadImageException bad = (BadImageException) thrown;
    assertThat(bad.refusedOnlyWhenStrict()).isTrue();
    assertThat(BadImageException.fromTaskFailure(BadImageException.class.getName(), bad.getMessage(), null))
        .hasMessage(bad.getMessage());
    strict.abort();
    strict.close();

    BetonDataWriter lenient = writer(schema, "imageColumns", "image", "maxResolution", "64", "jpegStrict", "false");
    lenient.write(new GenericInternalRow(new Object[] {padded}));
    BetonCommitMessage m = (BetonCommitMessage) lenient.commit();
    lenient.close();
    assertThat(m.samples()).isEqualTo(1);
  }

  /** Quarantined, the same JPEG's record says what a failing write says of it: jpegStrict=false would store it. */
  @Test
  void aQuarantinedJpegOnlyAStrictDecodeRefusesCarriesTheHint() throws Exception {
    StructType schema = new StructType().add("image", DataTypes.BinaryType);
    byte[] padded = org.sparkbeton.codec.testing.CorruptionCorpus.withPaddingBeforeEoi(TestPhotos.photo(47, 5), 240);
    BetonDataWriter w = writer(schema, "imageColumns", "image", "maxResolution", "64", "badImagePolicy",
        "quarantine");
    w.write(new GenericInternalRow(new Object[] {padded}));
    w.write(new GenericInternalRow(new Object[] {new byte[] {1, 2, 3}}));
    BetonCommitMessage m = (BetonCommitMessage) w.commit();
    w.close();
    List<String> records = Files.readAllLines(tmp.resolve("out/_quarantine").resolve(m.quarantineFile()),
        StandardCharsets.UTF_8);
    assertThat(records).hasSize(2);
    assertThat(records.get(0)).contains("extraneous bytes before marker 0xd9").endsWith(",\"hint\":\"only a strict"
        + " decode refuses this JPEG: jpegStrict=false (beton prepare --lenient-jpeg) stores what libjpeg decodes"
        + " around the damage, as FFCV does\"}");
    assertThat(records.get(1)).doesNotContain("\"hint\"");
  }
}
