package org.sparkbeton.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.InsertableRelation;
import org.apache.spark.sql.sources.PrunedFilteredScan;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.options.OptionNames;
import org.sparkbeton.spark.read.BetonReadOptions;
import org.sparkbeton.spark.read.DatasetInputs;
import org.sparkbeton.spark.read.ReadConf;
import org.sparkbeton.spark.write.BetonWriteConf;
import org.sparkbeton.spark.write.BetonWriteOptions;

/**
 * A beton dataset registered as a table of Spark's session catalog ({@code CREATE TABLE t USING beton LOCATION
 * '...'}, {@code saveAsTable}): Spark 3.5 resolves such tables through its V1 interfaces only, so this relation
 * hands each scan to {@code spark.read.format("beton")} over the table's location (the same reader, checks and
 * pruning) and each {@code INSERT} to {@code df.write.format("beton")} (the same commit protocol).
 */
final class BetonCatalogRelation extends BaseRelation implements PrunedFilteredScan, InsertableRelation {
  private final SQLContext sqlContext;
  private final String path;
  private final Map<String, String> readOptions;
  private final Map<String, String> writeOptions;
  private final StructType schema;

  private BetonCatalogRelation(SQLContext sqlContext, String path, Map<String, String> readOptions,
      Map<String, String> writeOptions, StructType declared) {
    this.sqlContext = sqlContext;
    this.path = path;
    this.readOptions = readOptions;
    this.writeOptions = writeOptions;
    StructType stored = declared == null || holdsData() ? read().schema() : null;
    if (declared != null && stored != null) {
      requireColumns(declared, stored, path);
    }
    this.schema = declared == null ? stored : annotated(declared, stored);
  }

  /**
   * The catalog's columns with the metadata of the dataset's (null: none yet): what a beton read says of each field
   * (an image's dataset, parts and recipe), as the dataset is now, so that rows of the table written elsewhere with
   * {@code format("beton")} are stored as the dataset stored them. The catalog keeps the types.
   */
  static StructType annotated(StructType declared, StructType stored) {
    if (stored == null) {
      return declared;
    }
    StructType out = new StructType();
    for (StructField f : declared.fields()) {
      StructField own = java.util.Arrays.stream(stored.fields()).filter(s -> s.name().equalsIgnoreCase(f.name()))
          .findFirst().orElse(f);
      out = out.add(new StructField(f.name(), f.dataType(), f.nullable(), own.metadata()));
    }
    return out;
  }

  /**
   * The relation over the table's {@code path} (its location) and its options, split into read and write ones;
   * {@code declared} is the catalog's schema (null: the dataset's own, read now).
   */
  static BetonCatalogRelation open(SQLContext sqlContext, Map<String, String> tableOptions, StructType declared) {
    TableOptions options = TableOptions.split(tableOptions);
    if (options.path == null || options.path.isEmpty()) {
      throw new IllegalArgumentException("A beton table needs a location: CREATE TABLE t USING beton LOCATION"
          + " '/data/my-dataset'");
    }
    return new BetonCatalogRelation(sqlContext, options.path, options.read, options.write, declared);
  }

  /**
   * Throws what the table's first read or write would for its options: a name neither takes, or a value the read's
   * or the write's parsing refuses. Spark's session catalog stores a table's options without asking the source, so
   * {@code CREATE TABLE} calls this (through {@code BetonSessionExtensions}) instead of a table that fails every query.
   */
  static void checkOptions(Map<String, String> tableOptions) {
    TableOptions options = TableOptions.split(tableOptions);
    ReadConf.parse(options.read, Map.of());
    BetonWriteConf.parse(options.write);
  }

  /** A table's options as its location and those for reads and for writes (a file system setting is in both). */
  private static final class TableOptions {
    String path;
    final Map<String, String> read = new HashMap<>();
    final Map<String, String> write = new HashMap<>();

    static TableOptions split(Map<String, String> tableOptions) {
      TableOptions options = new TableOptions();
      for (Map.Entry<String, String> e : tableOptions.entrySet()) {
        String key = e.getKey();
        if (key.equalsIgnoreCase("path")) {
          options.path = e.getValue();
          continue;
        }
        boolean forReads = ReadConf.accepts(key);
        boolean forWrites = BetonWriteConf.accepts(key);
        if (!forReads && !forWrites) {
          throw new IllegalArgumentException(unknownOption(key));
        }
        if (forReads) {
          options.read.put(key, e.getValue());
        }
        if (forWrites) {
          options.write.put(key, e.getValue());
        }
      }
      return options;
    }
  }

  /** An option of a beton table that neither reads nor writes take, with the nearest of both. */
  static String unknownOption(String key) {
    List<String> all = new ArrayList<>(BetonReadOptions.ALL);
    all.addAll(BetonWriteOptions.ALL);
    return "Unknown option '" + key + "' for a beton table" + OptionNames.nearest(key, all)
        .map(n -> "; did you mean '" + n + "'?").orElse("") + " Read options (any case): "
        + String.join(", ", BetonReadOptions.ALL) + "; write options: " + String.join(", ", BetonWriteOptions.ALL)
        + "; names with a dot pass as file system settings (e.g. fs.s3a.endpoint)";
  }

  /**
   * A batch read of the table, with its read options less those for streams of it ({@link
   * BetonReadOptions#STREAMING_ONLY}), which a batch read refuses: a table's options serve both.
   */
  private Dataset<Row> read() {
    Map<String, String> batch = new HashMap<>(readOptions);
    batch.keySet().removeIf(key -> BetonReadOptions.STREAMING_ONLY.stream().anyMatch(key::equalsIgnoreCase));
    return sqlContext.sparkSession().read().format(BetonDataSource.SHORT_NAME).options(batch).load(path);
  }

  /**
   * Whether the location holds data: not when nothing is there or only an empty directory (a managed table's,
   * created before its first write) or the files of a write that never published. Such a table reads as empty.
   */
  private boolean holdsData() {
    return !BetonProvider.inspect(path, readOptions).state().holdsNoDataset();
  }

  /** Every column the catalog declares must be one of the dataset's at {@code path} (any case). */
  static void requireColumns(StructType declared, StructType stored, String path) {
    for (StructField f : declared.fields()) {
      if (java.util.Arrays.stream(stored.fieldNames()).noneMatch(f.name()::equalsIgnoreCase)) {
        throw new IllegalArgumentException("Column '" + f.name() + "' is not a field of the beton dataset at "
            + path + " (its fields: " + String.join(", ", stored.fieldNames()) + ")");
      }
    }
  }

  @Override
  public SQLContext sqlContext() {
    return sqlContext;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  /** The rows come as Spark's internal rows, straight from the reader's plan. */
  @Override
  public boolean needConversion() {
    return false;
  }

  /**
   * The columns asked for, from a fresh read of the location (rows appended since the table was resolved included),
   * each cast to the type the catalog holds for it: a table created from a DataFrame keeps that DataFrame's types
   * (int, float), which the dataset stores widened (Int fields read as long, Float as double). The filters Spark
   * passes go to the read too (it skips shards by min/max as a direct read does); Spark applies all of them again
   * above this scan.
   */
  @Override
  @SuppressWarnings("unchecked")
  public RDD<Row> buildScan(String[] requiredColumns, Filter[] filters) {
    if (!holdsData()) {
      return sqlContext.sparkContext().emptyRDD(scala.reflect.ClassTag$.MODULE$.apply(Row.class));
    }
    Dataset<Row> data = read();
    Column[] columns = new Column[requiredColumns.length];
    for (int i = 0; i < columns.length; i++) {
      StructField declared = schema.apply(requiredColumns[i]);
      columns[i] = asDeclared(declared, storedType(data.schema(), declared.name()), path);
    }
    for (Filter f : filters) {
      // each the read can use (to skip shards by min/max) is given to it; Spark applies them all again above
      Optional<Column> condition = FilterColumns.of(f);
      if (condition.isPresent()) {
        data = data.where(condition.get());
      }
    }
    RDD<?> rows = data.select(columns).queryExecution().toRdd();
    return (RDD<Row>) rows;
  }

  /**
   * The dataset's column of {@code declared}'s name, cast to the type the catalog holds for it. Where that type is
   * narrower than the stored one (INT over a stored BIGINT, FLOAT over DOUBLE: a table created from a DataFrame of
   * ints, or declared so by hand), a value it cannot hold fails the query naming the column, the value and the type
   * to declare: Spark's cast wraps it around (5,000,000,000 read as 705,032,704) or makes it infinite.
   */
  static Column asDeclared(StructField declared, DataType stored, String path) {
    Column value = functions.col("`" + declared.name().replace("`", "``") + "`");
    Column cast = value.cast(declared.dataType());
    if (stored instanceof NumericType && declared.dataType() instanceof NumericType
        && !Cast.canUpCast(stored, declared.dataType())) {
      // the value is what the cast gives back (Spark's = holds for NaN = NaN), or the query fails
      Column holds = value.isNull().or(cast.cast(stored).equalTo(value));
      cast = functions.when(holds, cast).otherwise(functions.raise_error(functions.concat(
          functions.lit("Column " + declared.name() + " of the beton table at " + path + " holds "),
          value.cast(DataTypes.StringType), functions.lit(", which its declared type " + declared.dataType().sql()
              + " cannot hold: declare it " + stored.sql()))));
    }
    return cast.as(declared.name(), declared.metadata());
  }

  /** The type the dataset stores the column {@code name} (any case) as. */
  static DataType storedType(StructType stored, String name) {
    return java.util.Arrays.stream(stored.fields()).filter(f -> f.name().equalsIgnoreCase(name)).findFirst()
        .map(StructField::dataType).orElseThrow(() -> new IllegalArgumentException("Column '" + name
            + "' is not a field of the beton dataset (its fields: " + String.join(", ", stored.fieldNames()) + ")"));
  }

  /** The rows written as the dataset holds them ({@link CatalogInsert}), appended or replacing it. */
  @Override
  public void insert(Dataset<Row> data, boolean overwrite) {
    DatasetManifest stored = holdsData() ? DatasetInputs.resolve(path, BetonProvider.hadoopConf(readOptions))
        .manifest() : null;
    CatalogInsert insert = CatalogInsert.of(stored, data.schema(), writeOptions);
    data.drop(insert.dropColumns().toArray(new String[0])).write().format(BetonDataSource.SHORT_NAME)
        .options(insert.options()).mode(overwrite ? SaveMode.Overwrite : SaveMode.Append).save(path);
  }

  @Override
  public String toString() {
    return "BetonCatalogRelation(" + path + ")";
  }
}
