package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.fields.RgbImage;

/**
 * A row with two image columns (a photo and its mask, a photo and a thumbnail) stores each column's own image: the
 * same bytes as that image written alone, whether it was re-encoded, stored raw or passed through, given as bytes or
 * by path. (Both columns once shared one encoder's and one file reader's buffers, so the first column's stored image
 * was the second's bytes.)
 */
class TwoImageColumnsTest {
  @TempDir Path tmp;
  private int writes;

  /** The image column(s) {@code images} written as one row, with the options; each column's stored bytes. */
  private List<byte[]> write(String mode, int maxResolution, boolean byPath, byte[]... images) throws Exception {
    Path out = Files.createDirectories(tmp.resolve("out" + writes++));
    List<String> names = new ArrayList<>();
    StructType schema = new StructType();
    Object[] row = new Object[images.length];
    DataType type = byPath ? DataTypes.StringType : DataTypes.BinaryType;
    for (int c = 0; c < images.length; c++) {
      names.add("image" + c);
      schema = schema.add("image" + c, type);
      row[c] = byPath ? UTF8String.fromString(Files.write(out.resolve(c + ".jpg"), images[c]).toString()) : images[c];
    }
    Map<String, String> o = new HashMap<>(Map.of("spoolDir", tmp.toString(), "imageColumns", String.join(",", names),
        "writeMode", mode, "maxResolution", Integer.toString(maxResolution)));
    BetonDataWriter w = new BetonDataWriter(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(out.toUri()), "0123abcd", 0, 0, schema, BetonWriteConf.parse(o));
    w.write(new GenericInternalRow(row));
    BetonCommitMessage m = (BetonCommitMessage) w.commit();
    w.close();
    List<byte[]> stored = new ArrayList<>();
    try (BetonReader r = BetonReader.open(out.resolve(m.shards().get(0).path()))) {
      for (int c = 0; c < images.length; c++) {
        RgbImage image = (RgbImage) r.value(0, c);
        byte[] b = new byte[image.payload().remaining()];
        image.payload().duplicate().get(b);
        stored.add(b);
      }
    }
    return stored;
  }

  @ParameterizedTest(name = "{0} at {1}, by path {2}")
  @CsvSource({"jpg, 128, false", "jpg, 128, true", "raw, 128, false", "raw, 128, true", "jpg, 1000, false",
      "jpg, 1000, true"})
  void eachColumnStoresItsOwnImage(String mode, int maxResolution, boolean byPath) throws Exception {
    byte[] photo = TestPhotos.photo(43, 1);
    byte[] other = TestPhotos.photo(44, 2);
    List<byte[]> both = write(mode, maxResolution, byPath, photo, other);
    byte[] photoAlone = write(mode, maxResolution, byPath, photo).get(0);
    byte[] otherAlone = write(mode, maxResolution, byPath, other).get(0);

    assertThat(photoAlone).isNotEqualTo(otherAlone);
    assertThat(both.get(0)).isEqualTo(photoAlone);
    assertThat(both.get(1)).isEqualTo(otherAlone);
    if (maxResolution == 1000) {
      assertThat(both.get(0)).as("passed through").isEqualTo(photo);
    }
  }
}
