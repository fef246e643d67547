package org.sparkbeton.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.spark.read.testing.TestDatasets;

/**
 * A {@code load()} opens its dataset once: Spark asks the provider for the schema, then for the table with the
 * same options, and the second call takes the table the first opened. Proven by removing the manifest in between,
 * which a second open could not get past.
 */
class BetonDataSourceOpenOnceTest {
  private static final List<BetonField> FIELDS = List.of(new BetonField("label", IntField.INSTANCE));

  @TempDir Path tmp;
  static SparkSession spark;

  @BeforeAll
  static void setUp() {
    spark = SparkTests.session("BetonDataSourceOpenOnceTest");
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  @Test
  void getTableTakesTheTableThatInferSchemaOpenedOnce() throws Exception {
    Path dataset = write("a", 2);
    BetonDataSource source = new BetonDataSource();
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(Map.of("path", dataset.toString()));
    StructType schema = source.inferSchema(options);
    Files.delete(dataset.resolve("_manifest.json"));

    Table table = source.getTable(schema, new Transform[0], options.asCaseSensitiveMap());
    assertThat(table.schema()).isEqualTo(schema);
    assertThat(((BetonTable) table).inputs().shards()).hasSize(2);

    // taken once: asked again, the provider opens the dataset again, and now finds no manifest
    Table again = source.getTable(schema, new Transform[0], options.asCaseSensitiveMap());
    assertThatThrownBy(() -> ((BetonTable) again).newScanBuilder(options))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no _manifest.json");
  }

  @Test
  void getTableWithOtherOptionsOpensItsOwnPath() throws Exception {
    Path first = write("first", 1);
    Path second = write("second", 3);
    BetonDataSource source = new BetonDataSource();
    StructType schema = source.inferSchema(new CaseInsensitiveStringMap(Map.of("path", first.toString())));

    Table table = source.getTable(schema, new Transform[0], Map.of("path", second.toString()));
    assertThat(((BetonTable) table).inputs().shards()).hasSize(3);
    assertThat(table.name()).isEqualTo("beton:" + ((BetonTable) table).inputs().root()).contains("second");
  }

  @Test
  void aTableNotFromInferSchemaOpensItsDatasetOnlyWhenAReadUsesIt() throws Exception {
    Path dataset = write("deferred", 2);
    BetonDataSource source = new BetonDataSource();
    // what DataFrameWriter.save() asks for: the write's options, which are no read options
    Map<String, String> writeOptions = Map.of("path", dataset.toString(), "imageColumns", "image", "writeMode", "jpg");
    Table forSave = source.getTable(new StructType(), new Transform[0], writeOptions);
    Files.delete(dataset.resolve("_manifest.json"));
    // no batch write: a save takes the V1 route, which settles its SaveMode first (streams write through the table)
    assertThat(forSave.capabilities()).containsExactlyInAnyOrder(
        org.apache.spark.sql.connector.catalog.TableCapability.BATCH_READ,
        org.apache.spark.sql.connector.catalog.TableCapability.MICRO_BATCH_READ,
        org.apache.spark.sql.connector.catalog.TableCapability.STREAMING_WRITE,
        org.apache.spark.sql.connector.catalog.TableCapability.TRUNCATE);
    assertThatThrownBy(() -> ((BetonTable) forSave).newScanBuilder(new CaseInsensitiveStringMap(writeOptions)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("imageColumns");

    // a read given a schema opens its dataset at first use, then keeps it
    Path other = write("deferred-read", 3);
    Table read = source.getTable(new StructType(), new Transform[0], Map.of("path", other.toString()));
    assertThat(((BetonTable) read).inputs().shards()).hasSize(3);
    Files.delete(other.resolve("_manifest.json"));
    assertThat(((BetonTable) read).inputs().shards()).hasSize(3);
    assertThat(read.schema().fieldNames()).containsExactly("label");
  }

  @Test
  void aLoadReadsTheDatasetAsBefore() throws Exception {
    Path dataset = write("load", 2);
    assertThat(spark.read().format("beton").load(dataset.toString()).groupBy("label").count().count()).isEqualTo(4);
  }

  private Path write(String name, int shards) {
    Path dir = tmp.resolve(name);
    List<List<Object[]>> samples = new java.util.ArrayList<>();
    for (int s = 0; s < shards; s++) {
      samples.add(List.of(new Object[] {(long) s}, new Object[] {(long) s + 10}));
    }
    TestDatasets.writeDataset(dir, FIELDS, samples);
    return dir;
  }
}
