package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.SparkBetonVersion;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;

/** The columns of an append against the dataset's fields, and the fix the message gives for each difference. */
class AppendCompatibilityTest {
  private static final ManifestField ID = ManifestField.of("id", FieldTypes.INT);

  /** A dataset of 3 samples in one shard. */
  private static DatasetManifest dataset(Map<String, String> recipe, ManifestField... fields) {
    return new DatasetManifest(List.of(fields), List.of(new org.sparkbeton.format.dataset.ShardEntry("s.beton", 3, 100,
        new org.sparkbeton.format.dataset.ShardChecksum("crc32c", "00000000"), Map.of())), recipe,
        SparkBetonVersion.writer());
  }

  /**
   * A stream's toTable into a new table of the path catalog creates an empty dataset without the stream's options
   * (Spark hands the create none): an image column there is JSON, and the stream's first batch was refused, with
   * every restart. An empty dataset of the same columns takes the write's fields; one of other columns does not.
   */
  @Test
  void anEmptyDatasetOfTheSameColumnsTakesTheWritesFields() {
    DatasetManifest empty = new DatasetManifest(List.of(ManifestField.of("image", FieldTypes.JSON),
        ManifestField.of("label", FieldTypes.INT)), List.of(), Map.of(), SparkBetonVersion.writer());
    assertThat(differences(empty, ManifestField.of("image", FieldTypes.RGB_IMAGE),
        ManifestField.of("label", FieldTypes.INT))).isNull();
    assertThat(differences(empty, ManifestField.of("image", FieldTypes.RGB_IMAGE),
        ManifestField.of("src", FieldTypes.JSON))).contains("'src'");
  }

  private static String differences(DatasetManifest dataset, ManifestField... planned) {
    return AppendCompatibility.differences(dataset, List.of(planned), Map.of("label", "string", "image", "string"))
        .orElse(null);
  }

  @Test
  void theSameFieldsAppend() {
    DatasetManifest ds = dataset(Map.of(), ID, ManifestField.of("label", FieldTypes.INT));
    assertThat(differences(ds, ID, ManifestField.of("label", FieldTypes.INT))).isNull();
    AppendCompatibility.require("/data/ds", ds, List.of(ID, ManifestField.of("label", FieldTypes.INT)), Map.of());
  }

  /** The tester's case: a string label appended to int labels ran the whole job, then said to overwrite. */
  @Test
  void aColumnOfAnotherTypeIsNamedWithTheCastThatFitsTheDataset() {
    DatasetManifest ds = dataset(Map.of("spark_type.label", "INT"), ID, ManifestField.of("label", FieldTypes.INT));
    assertThatThrownBy(() -> AppendCompatibility.require("/data/ds", ds, List.of(ID,
        ManifestField.of("label", FieldTypes.JSON)), Map.of("label", "string")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot append to /data/ds: the DataFrame's columns do not match the dataset's fields, so nothing"
            + " was written. column 'label' is Int in the dataset, but the DataFrame's string column would be stored as"
            + " JSON: cast it to int. If these columns are the ones you want, write them to another path, or replace"
            + " the dataset with mode(\"overwrite\") (its 3 samples are deleted); a streaming query has no overwrite: start it on another path, with a new"
            + " checkpointLocation");
    // without a recorded type, the field's own
    assertThat(differences(dataset(Map.of(), ID, ManifestField.of("w", FieldTypes.FLOAT)), ID,
        ManifestField.of("w", FieldTypes.JSON)))
        .isEqualTo("column 'w' is Float in the dataset, but the DataFrame's column would be stored as JSON: cast it to"
            + " double");
  }

  /** Following "use mode overwrite" would have replaced an image dataset; the fix is imageColumns. */
  @Test
  void anImageColumnStoredAsJsonOrBytesNamesImageColumns() {
    DatasetManifest ds = dataset(Map.of(), ManifestField.of("image", FieldTypes.RGB_IMAGE),
        ManifestField.of("label", FieldTypes.INT));
    assertThat(differences(ds, ManifestField.of("image", FieldTypes.JSON), ManifestField.of("label", FieldTypes.INT)))
        .isEqualTo("column 'image' is RGBImage in the dataset, but the DataFrame's string column would be stored as"
            + " JSON: name it in option imageColumns (.option(\"imageColumns\", \"image\")): strings there are paths"
            + " of image files, binary values encoded images");
    assertThat(differences(dataset(Map.of(), ManifestField.of("image", FieldTypes.BYTES)),
        ManifestField.of("image", FieldTypes.RGB_IMAGE)))
        .endsWith("would be stored as RGBImage: the dataset does not store it as images: leave it out of option"
            + " imageColumns");
  }

  @Test
  void arraysStringsAsBytesMissingExtraRenamedAndReorderedColumns() {
    ManifestField emb34 = new ManifestField("emb", FieldTypes.NDARRAY, "<f4", new long[] {3, 4});
    assertThat(differences(dataset(Map.of(), emb34), new ManifestField("emb", FieldTypes.NDARRAY, "<f8",
        new long[] {12})))
        .isEqualTo("column 'emb' is NDArray <f4 [3, 4] in the dataset, but the DataFrame's column would be stored as"
            + " NDArray <f8 [12]: make it an array of float with option arrayShapes 'emb:3x4'");
    assertThat(differences(dataset(Map.of("spark_type.label", "STRING"), ManifestField.of("label", FieldTypes.BYTES)),
        ManifestField.of("label", FieldTypes.JSON)))
        .endsWith(": the dataset stores its strings as UTF-8 bytes: set option stringEncoding to bytes");
    DatasetManifest ds = dataset(Map.of(), ID, ManifestField.of("Label", FieldTypes.INT),
        ManifestField.of("w", FieldTypes.FLOAT));
    assertThat(differences(ds, ID, ManifestField.of("label", FieldTypes.INT), ManifestField.of("x", FieldTypes.INT)))
        .isEqualTo("column 'label' is 'Label' in the dataset: rename it; the dataset's column 'w' (Float) is missing"
            + " from the DataFrame; column 'x' is not in the dataset: drop it");
    assertThat(differences(ds, ManifestField.of("w", FieldTypes.FLOAT), ID, ManifestField.of("Label", FieldTypes.INT)))
        .isEqualTo("the columns are in another order: select them in the dataset's, id, Label, w");
  }

  /** A dataset of 3 samples whose field 'd' recorded {@code recorded} (null: none, a bigint). */
  private static DatasetManifest withD(String recorded) {
    Map<String, String> recipe = recorded == null ? Map.of() : Map.of("spark_type.d", recorded);
    return new DatasetManifest(List.of(ID, ManifestField.of("d", FieldTypes.INT)),
        List.of(new org.sparkbeton.format.dataset.ShardEntry("s.beton", 3, 100,
            new org.sparkbeton.format.dataset.ShardChecksum("crc32c", "00000000"), Map.of())), recipe,
        SparkBetonVersion.writer());
  }

  /**
   * The tester's case: timestamps appended to dates were accepted, and the column read as bigint holding days and
   * microseconds side by side. Units must match; integers of any width and booleans share plain numbers.
   */
  @Test
  void rowsCountingAnIntFieldInOtherUnitsAreRefused() {
    assertThatThrownBy(() -> AppendCompatibility.requireSameUnits("/data/ds", withD("DATE"),
        Map.of("spark_type.d", "TIMESTAMP")))
        .hasMessageStartingWith("Cannot append to /data/ds: column 'd' holds DATE values in the dataset (days since"
            + " 1970-01-01), and the DataFrame's TIMESTAMP values (microseconds since 1970-01-01 UTC) would be stored"
            + " beside them in its one Int field, read back as one type that means something else for one of them;"
            + " nothing was written. Cast the column to date. If these columns");
    assertThatThrownBy(() -> AppendCompatibility.requireSameUnits("/data/ds", withD("TIMESTAMP"),
        Map.of("spark_type.d", "TIMESTAMP_NTZ"))).hasMessageContaining("Cast the column to timestamp.");
    assertThatThrownBy(() -> AppendCompatibility.requireSameUnits("/data/ds", withD(null),
        Map.of("spark_type.d", "DATE"))).hasMessageContaining("holds BIGINT values in the dataset (numbers)")
        .hasMessageContaining("Convert it to the dataset's numbers yourself (unix_date(col) gives a date's days");
    assertThatThrownBy(() -> AppendCompatibility.requireSameUnits("/data/ds", withD("BOOLEAN"),
        Map.of("spark_type.d", "DATE"))).hasMessageContaining("holds BOOLEAN values");

    AppendCompatibility.requireSameUnits("/data/ds", withD("DATE"), Map.of("spark_type.d", "DATE"));
    AppendCompatibility.requireSameUnits("/data/ds", withD("SMALLINT"), Map.of("spark_type.d", "INT"));
    AppendCompatibility.requireSameUnits("/data/ds", withD(null), Map.of("spark_type.d", "INT"));
    AppendCompatibility.requireSameUnits("/data/ds", withD("BOOLEAN"), Map.of());
    AppendCompatibility.requireSameUnits("/data/ds", new DatasetManifest(List.of(ID, ManifestField.of("d",
        FieldTypes.INT)), List.of(), Map.of("spark_type.d", "DATE"), SparkBetonVersion.writer()),
        Map.of("spark_type.d", "TIMESTAMP")); // no rows yet: no constraint
  }
}
