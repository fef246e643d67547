package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.FieldTypes;

class RecordedColumnTypesTest {
  private static final List<ManifestField> FIELDS = List.of(ManifestField.of("a", FieldTypes.INT),
      ManifestField.of("b", FieldTypes.INT), ManifestField.of("c", FieldTypes.INT),
      ManifestField.of("d", FieldTypes.JSON));

  private static DatasetManifest dataset(long samples, Map<String, String> recipe) {
    List<ShardEntry> shards = samples == 0 ? List.of()
        : List.of(new ShardEntry("part-00000-a.beton", samples, 100, new ShardChecksum("crc32c", "00000000"), null));
    return new DatasetManifest(FIELDS, shards, recipe, "test");
  }

  private static Map<String, String> recipe(String... entries) {
    Map<String, String> r = new LinkedHashMap<>();
    for (int i = 0; i < entries.length; i += 2) {
      r.put(entries[i], entries[i + 1]);
    }
    return r;
  }

  @Test
  void readsTheTypesOfARecipeByField() {
    assertThat(RecordedColumnTypes.of(recipe("page_size", "8", "spark_type.a", "INT", "spark_type.d", "ARRAY<INT>")))
        .containsExactly(Map.entry("a", "INT"), Map.entry("d", "ARRAY<INT>"));
  }

  @Test
  void aFieldFitsTheTypesItsValuesCanBe() {
    assertThat(RecordedColumnTypes.fits(FieldTypes.INT, "SMALLINT")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.INT, "BOOLEAN")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.INT, "FLOAT")).isFalse();
    assertThat(RecordedColumnTypes.fits(FieldTypes.FLOAT, "FLOAT")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.FLOAT, "DOUBLE")).isFalse();
    assertThat(RecordedColumnTypes.fits(FieldTypes.FLOAT, "DECIMAL(10,2)")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.FLOAT, "DECIMAL(10)")).isFalse();
    assertThat(RecordedColumnTypes.fits(FieldTypes.INT, "DECIMAL(10,0)")).isFalse();
    assertThat(RecordedColumnTypes.fits(FieldTypes.BYTES, "STRING")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.JSON, "STRUCT<a: INT>")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.JSON, "map<string, int>")).isTrue();
    assertThat(RecordedColumnTypes.fits(FieldTypes.JSON, "STRING")).isFalse();
    assertThat(RecordedColumnTypes.fits(FieldTypes.RGB_IMAGE, "BINARY")).isFalse();
  }

  @Test
  void anAppendKeepsEqualTypesWidensIntegersAndDropsTheRest() {
    DatasetManifest before = dataset(10, recipe("spark_type.a", "TINYINT", "spark_type.b", "BOOLEAN",
        "spark_type.d", "ARRAY<INT>"));
    Map<String, String> written = recipe("job_id", "j2", "spark_type.a", "INT", "spark_type.b", "TINYINT",
        "spark_type.c", "SMALLINT", "spark_type.d", "ARRAY<INT>");
    assertThat(RecordedColumnTypes.afterAppend(written, before)).containsExactly(Map.entry("job_id", "j2"),
        Map.entry("spark_type.a", "INT"), Map.entry("spark_type.d", "ARRAY<INT>"));
  }

  /** decimal(5,2) rows appended to decimal(10,4) ones read as decimal(10,4), not double; past 15 digits, double. */
  @Test
  void anAppendOfDecimalsTakesTheDecimalThatHoldsBoth() {
    DatasetManifest before = dataset(10, recipe("spark_type.a", "DECIMAL(5,2)", "spark_type.b", "DECIMAL(12,0)"));
    Map<String, String> written = recipe("spark_type.a", "DECIMAL(10,4)", "spark_type.b", "DECIMAL(10,4)");
    assertThat(RecordedColumnTypes.afterAppend(written, before)).containsExactly(Map.entry("spark_type.a",
        "DECIMAL(10,4)")); // b would need DECIMAL(16,4): more digits than a float64 gives back
    assertThat(RecordedColumnTypes.unit("DATE")).isEqualTo("days since 1970-01-01");
    assertThat(RecordedColumnTypes.unit("TINYINT")).isEqualTo(RecordedColumnTypes.unit(null));
  }

  @Test
  void anEmptyDatasetConstrainsNothing() {
    Map<String, String> written = recipe("spark_type.a", "INT");
    assertThat(RecordedColumnTypes.afterAppend(written, dataset(0, Map.of()))).isEqualTo(written);
    assertThat(RecordedColumnTypes.afterAppend(written, dataset(3, Map.of()))).isEmpty();
  }
}
