package org.sparkbeton.spark;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.CaseInsensitiveMap;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.execution.streaming.Source;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.RelationProvider;
import org.apache.spark.sql.sources.SchemaRelationProvider;
import org.apache.spark.sql.sources.StreamSourceProvider;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.spark.read.ReadConf;
import org.sparkbeton.spark.write.BetonSchemaMapping;
import org.sparkbeton.spark.write.BetonWriteBuilder;
import org.sparkbeton.spark.write.BetonWriteOptions;
import org.sparkbeton.spark.write.DatasetDirectory;
import org.sparkbeton.spark.write.DatasetPublisher;
import scala.Option;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * What the {@code beton} data source does: {@code spark.read.format("beton").load(path)}, where path is a
 * dataset directory (read through its manifest), a {@code .beton} file, or a glob of files; saves in every
 * SaveMode; tables of the session catalog. Spark reaches it through {@link BetonDataSource}, the class registered
 * under the short name {@code beton}, which makes one of these per instance of itself (on Java 17 or newer); the
 * writer joins through the same {@link BetonTable}.
 */
public final class BetonProvider implements TableProvider, CreatableRelationProvider, RelationProvider,
    SchemaRelationProvider, StreamSourceProvider {
  private static final Logger LOG = LoggerFactory.getLogger(BetonProvider.class);
  /** Internal option: marks the V2 write that {@link #createRelation} runs once the SaveMode is settled. */
  static final String V2_WRITE = "__beton_v2_write";
  /**
   * Internal option of that write: the SaveMode (ErrorIfExists, or Ignore: {@value #IGNORE}) found no dataset at the
   * path, so the write makes a new one and must not add to one another write publishes there meanwhile.
   */
  static final String NEW_DATASET = "__beton_new_dataset";
  private static final String IGNORE = "ignore";
  /** Spark's option naming a streaming query's checkpoint, which it hands the sink with the sink's options. */
  private static final String CHECKPOINT_LOCATION = "checkpointLocation";

  /**
   * The table {@link #inferSchema} opened, with the options it was opened with. Spark makes a provider per
   * {@code load()} and asks it for the schema, then for the table with the same options: the second call takes
   * this one instead of reading and checking the manifest again (for 1,000 shards, parsing 0.6 MB of JSON,
   * its self-checksum and resolving every shard's path). Taken once, so a later call opens afresh.
   */
  private Opened opened;

  private record Opened(Map<String, String> options, BetonTable table) {}

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    BetonTable table = BetonTable.load(options, hadoopConf(options), readConf(options));
    opened = new Opened(new HashMap<>(options.asCaseSensitiveMap()), table);
    return table.schema();
  }

  /**
   * True so that {@code DataFrameWriter} hands the DataFrame's schema to {@link #getTable} instead of
   * inferring one from a path that a write may be about to create. Reads still infer the schema from
   * the files; a schema given to {@code spark.read.schema(...)} is not used.
   */
  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(properties);
    if (options.containsKey(V2_WRITE)) {
      Map<String, String> writeOptions = new HashMap<>(properties);
      writeOptions.keySet().removeIf(k -> k.equalsIgnoreCase(V2_WRITE) || k.equalsIgnoreCase("path")
          || k.equalsIgnoreCase(NEW_DATASET));
      String newDataset = options.get(NEW_DATASET);
      return BetonTable.forWrite(new BetonTable.WriteTarget(options.get("path"), schema, writeOptions,
          newDataset == null ? null : newDataset.equals(IGNORE)), hadoopConf(options));
    }
    Opened last = opened;
    opened = null;
    if (last != null && last.options().equals(properties)) {
      return last.table();
    }
    // opened when a read first uses it: a write asks for a table (with its write options, to a path that may not exist
    // yet) only to learn it takes the V1 route
    java.util.function.Supplier<BetonTable> open = () -> {
      try {
        BetonTable table = BetonTable.load(options, hadoopConf(options), readConf(options));
        requireSameSchema(schema, table.schema(), options.get("path"));
        return table;
      } catch (RuntimeException e) {
        // A plain read never gets here for a missing dataset or an unknown option: inferSchema fails first with
        // this message. A read given a schema skips inferSchema: its scan fails with the message.
        return BetonTable.unreadable(options.get("path"), hadoopConf(options), e);
      }
    };
    return schema.isEmpty() ? BetonTable.opening(open) : BetonTable.openingWithGivenColumns(open);
  }

  /**
   * Refuses a read given a schema ({@code spark.read().schema(...)}) other than the dataset's: Spark would show the
   * dataset's columns whatever was given, so a schema that differs would be silently ignored.
   */
  static void requireSameSchema(StructType given, StructType stored, String path) {
    if (given.isEmpty()) {
      return; // no column given: nothing to ignore
    }
    boolean same = given.fields().length == stored.fields().length;
    for (int i = 0; same && i < given.fields().length; i++) {
      same = given.fields()[i].name().equalsIgnoreCase(stored.fields()[i].name())
          && given.fields()[i].dataType().equals(stored.fields()[i].dataType());
    }
    if (!same) {
      throw new IllegalArgumentException("The schema given to spark.read().schema(...) is not the one of " + path
          + ": " + given.simpleString() + " against " + stored.simpleString() + ". format(\"beton\") reads the"
          + " schema the dataset records: leave out .schema(...) and select() the columns you want");
    }
  }

  /**
   * {@code df.write.format("beton").mode(m).save(path)} for every SaveMode. Spark 3.5 refuses
   * ErrorIfExists and Ignore for a V2 table, so {@code save()} comes here (the table does not claim
   * batch writes); the mode is settled against the path, then the write runs as a real DSv2 batch
   * write (commit coordinator, attempt-unique shards, manifest published last by the driver) in
   * Append or Overwrite. A directory holding only the files of a write that never published (it failed or
   * was killed) is no dataset: ErrorIfExists and Ignore write there, deleting those files first
   * ({@link DatasetDirectory}). A bad image or value stops the job at once ({@link BadRowFailFast}) and is what the
   * save throws.
   */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode,
      scala.collection.immutable.Map<String, String> parameters, Dataset<Row> data) {
    // Spark hands a CaseInsensitiveMap, which iterates lower-cased keys: take the names as the user wrote them,
    // for messages and for Hadoop settings
    scala.collection.immutable.Map<String, String> given = parameters instanceof CaseInsensitiveMap<String> m
        ? m.originalMap() : parameters;
    Map<String, String> options = new HashMap<>(JavaConverters.mapAsJavaMapConverter(given).asJava());
    String path = takePath(options);
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("df.write.format(\"beton\") needs a path: .save(\"/data/my-dataset\")");
    }
    StoredManifest stored = new StoredManifest(Map.copyOf(options), path);
    if (mode == SaveMode.Append && java.util.Arrays.stream(data.schema().fields())
        .anyMatch(f -> f.dataType() instanceof org.apache.spark.sql.types.ArrayType)) {
      options = withDatasetShapes(options, stored.get(), data.schema());
    }
    // Before the mode is settled: a bad option or column fails even a write that Ignore would skip.
    boolean storesImages = storesImages(data.schema(), options);
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(path);
    DatasetDirectory.Inspection found;
    try {
      org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(hadoopConf(options));
      found = DatasetDirectory.inspect(fs, dir);
      boolean unlisted = found.state() == DatasetDirectory.State.UNLISTED_SHARDS;
      if (unlisted && (mode == SaveMode.ErrorIfExists || mode == SaveMode.Append)) {
        // no dataset to add to, and publishing one would make these shards its orphans
        throw new IllegalArgumentException(DatasetDirectory.unlistedShardsMessage(path, found.example(),
            "mode(\"overwrite\")"));
      }
      if ((found.state() == DatasetDirectory.State.LEFTOVERS && mode != SaveMode.Append)
          || (unlisted && mode == SaveMode.Overwrite)) {
        // a first write that failed or was killed: its files are not a dataset, and this write replaces them
        int deleted = DatasetDirectory.deleteLeftovers(fs, dir);
        if (deleted > 0) {
          LOG.info("Deleted {} file(s) of an earlier write to {} that never published a manifest", deleted, path);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(FileSystemMessages.cannotCheck(path, e), e);
    }
    BaseRelation relation = new BaseRelation() {
      @Override public SQLContext sqlContext() { return sqlContext; }
      @Override public StructType schema() { return data.schema(); }
    };
    switch (found.state()) {
      case FILE -> throw new IllegalArgumentException(isAFile(path));
      case DATASET, OCCUPIED, UNLISTED_SHARDS -> {
        if (mode == SaveMode.Ignore) {
          return relation;
        }
        if (mode == SaveMode.ErrorIfExists) {
          throw new IllegalArgumentException(existsMessage(path, found));
        }
      }
      default -> {
        // MISSING or LEFTOVERS: no dataset there, every mode writes
      }
    }
    if (mode == SaveMode.Append && found.state() == DatasetDirectory.State.DATASET && storesImages) {
      options = withDatasetRecipe(options, stored.get());
    }
    if (mode == SaveMode.ErrorIfExists || mode == SaveMode.Ignore) { // and no dataset there: a new one
      options.put(NEW_DATASET, mode == SaveMode.Ignore ? IGNORE : "error");
    }
    try (BadRowFailFast guard = BadRowFailFast.watch(sqlContext.sparkContext())) {
      try {
        data.write().format(BetonDataSource.class.getName()).options(options).option(V2_WRITE, "true")
            .mode(mode == SaveMode.Overwrite ? SaveMode.Overwrite : SaveMode.Append).save(path);
      } catch (Exception e) { // SparkException (checked, undeclared) included
        IllegalArgumentException bad = guard.failure(e);
        if (bad != null) {
          throw bad;
        }
        throw e;
      }
    }
    return relation;
  }

  /**
   * The write of {@code df.writeStream().format("beton").start(path)}: each micro-batch appends to the dataset at the
   * path, settled against it as an Append save is (a file there, or shards no manifest lists, fail the query before
   * its first batch; an image column takes the dataset's image settings where the options give none).
   */
  static WriteBuilder streamingWrite(LogicalWriteInfo info) {
    return streamingWrite(info.options().asCaseSensitiveMap(), info.schema(), info.queryId());
  }

  /**
   * The write of a streaming query ({@code queryId}, which a restart from its checkpoint keeps) of rows of
   * {@code schema} to the dataset at the {@code path} among {@code given}: also that of
   * {@code writeStream().toTable("beton.`/data/x`")} ({@link BetonPathTable}).
   */
  static WriteBuilder streamingWrite(Map<String, String> given, StructType schema, String queryId) {
    Map<String, String> options = withoutCheckpointLocation(given);
    String path = takePath(options);
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("df.writeStream().format(\"beton\") needs a path:"
          + " .start(\"/data/my-dataset\")");
    }
    boolean storesImages = storesImages(schema, options);
    DatasetDirectory.Inspection found = inspect(path, options);
    switch (found.state()) {
      case FILE -> throw new IllegalArgumentException(isAFile(path));
      case UNLISTED_SHARDS -> throw new IllegalArgumentException(DatasetDirectory.unlistedShardsMessage(path,
          found.example(), "a batch write with mode(\"overwrite\")"));
      case DATASET -> {
        if (storesImages) {
          options = withDatasetRecipe(options, storedManifest(options, path));
        }
      }
      default -> {
        // MISSING, LEFTOVERS (the next publish's cleanup takes them) or OCCUPIED (other files, never deleted)
      }
    }
    return new BetonWriteBuilder(path, schema, options, hadoopConf(options)).forStreamingQuery(queryId);
  }

  /** {@code options} less Spark's {@code checkpointLocation}: the stream's, handed to its sink with the sink's. */
  static Map<String, String> withoutCheckpointLocation(Map<String, String> options) {
    Map<String, String> out = new HashMap<>(options);
    out.keySet().removeIf(key -> key.equalsIgnoreCase(CHECKPOINT_LOCATION));
    return out;
  }

  /** What {@code path} holds, on the file system the options (Hadoop settings among them) give. */
  static DatasetDirectory.Inspection inspect(String path, Map<String, String> options) {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(path);
    try {
      return DatasetDirectory.inspect(dir.getFileSystem(hadoopConf(options)), dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(FileSystemMessages.cannotCheck(path, e), e);
    }
  }

  /** Why no dataset can be written at {@code path}, a file. */
  private static String isAFile(String path) {
    return "Cannot write a beton dataset to " + path + ": it is a file; a dataset is a directory of shards and a"
        + " manifest";
  }

  /** Removes Spark's {@code path} option (any case) from {@code options}: the write's path, or null. */
  private static String takePath(Map<String, String> options) {
    String path = null;
    for (String key : List.copyOf(options.keySet())) {
      if (key.equalsIgnoreCase("path")) {
        path = options.remove(key);
      }
    }
    return path;
  }

  /** Whether a write of {@code schema} with {@code options} stores images; a bad option or column fails here. */
  private static boolean storesImages(StructType schema, Map<String, String> options) {
    return BetonSchemaMapping.fields(schema, BetonWriteBuilder.plan(schema, options)).stream()
        .anyMatch(f -> f.typeId() == FieldTypes.RGB_IMAGE);
  }

  /**
   * The options of an append of array columns to the dataset {@code stored} (null: none there) with the shapes its
   * NDArray fields have where the options give none ({@link BetonWriteOptions#withArrayShapes}).
   */
  private static Map<String, String> withDatasetShapes(Map<String, String> options, DatasetManifest stored,
      StructType columns) {
    return stored == null ? options : new HashMap<>(BetonWriteOptions.withArrayShapes(options, stored, columns));
  }

  /** The manifest of the dataset at a path, read once when first asked for (an append may need it twice). */
  private static final class StoredManifest {
    private final Map<String, String> options;
    private final String path;
    private boolean read;
    private DatasetManifest manifest;

    StoredManifest(Map<String, String> options, String path) {
      this.options = options;
      this.path = path;
    }

    /** The manifest, or null where there is none. */
    DatasetManifest get() {
      if (!read) {
        manifest = storedManifest(options, path);
        read = true;
      }
      return manifest;
    }
  }

  /** The manifest of the dataset at {@code path}, or null where there is none. */
  private static DatasetManifest storedManifest(Map<String, String> options, String path) {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(path);
    try {
      return DatasetPublisher.read(dir.getFileSystem(hadoopConf(options)), dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(FileSystemMessages.cannotCheck(path, e), e);
    }
  }

  /**
   * The options of an append of rows with images to the dataset {@code stored} with the image settings its manifest
   * records where the options give none, as an {@code INSERT} into a table has them ({@link CatalogInsert}): the new
   * images are resized and encoded as the rest were (and rows a beton read gave take them before their own
   * dataset's), instead of by the defaults.
   */
  private static Map<String, String> withDatasetRecipe(Map<String, String> options, DatasetManifest stored) {
    return stored == null ? options : BetonWriteOptions.withRecipe(options, stored.recipe());
  }

  /**
   * A table of the session catalog stored as a beton dataset ({@code CREATE TABLE ... USING beton LOCATION ...},
   * {@code saveAsTable}): Spark 3.5 resolves catalog tables of a data source through this V1 interface only.
   */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters) {
    return BetonCatalogRelation.open(sqlContext, asGiven(parameters), null);
  }

  /**
   * Refuses a table's {@code OPTIONS} as its first query would ({@link BetonCatalogRelation#checkOptions}), for
   * {@code BetonSessionExtensions} to call at {@code CREATE TABLE}: Spark's session catalog stores a V2 provider's
   * table without asking it.
   */
  public void checkTableOptions(Map<String, String> options) {
    BetonCatalogRelation.checkOptions(options);
  }

  /** {@link #createRelation(SQLContext, scala.collection.immutable.Map)} of a table whose schema the catalog holds. */
  @Override
  public BaseRelation createRelation(SQLContext sqlContext, scala.collection.immutable.Map<String, String> parameters,
      StructType schema) {
    return BetonCatalogRelation.open(sqlContext, asGiven(parameters), schema);
  }

  /**
   * The columns of a stream of a table of the session catalog ({@code spark.readStream().table("photos")}), which
   * Spark 3.5 resolves through this V1 interface only ({@link BetonStreamSource}); {@code schema} is the catalog's.
   * Spark also asks this of {@code spark.readStream().format("beton").load(path)}, which then runs as a V2 stream.
   */
  @Override
  public Tuple2<String, StructType> sourceSchema(SQLContext sqlContext, Option<StructType> schema, String providerName,
      scala.collection.immutable.Map<String, String> parameters) {
    return new Tuple2<>(BetonDataSource.SHORT_NAME,
        BetonStreamSource.schema(asGiven(parameters), schema.isDefined() ? schema.get() : null));
  }

  /** The source of {@link #sourceSchema}'s stream, for a query that keeps its state under {@code metadataPath}. */
  @Override
  public Source createSource(SQLContext sqlContext, String metadataPath, Option<StructType> schema,
      String providerName, scala.collection.immutable.Map<String, String> parameters) {
    return BetonStreamSource.open(sqlContext, metadataPath, asGiven(parameters),
        schema.isDefined() ? schema.get() : null);
  }

  /** Spark's options with their keys as the user wrote them (a CaseInsensitiveMap iterates lower-cased keys). */
  private static Map<String, String> asGiven(scala.collection.immutable.Map<String, String> parameters) {
    scala.collection.immutable.Map<String, String> given = parameters instanceof CaseInsensitiveMap<String> m
        ? m.originalMap() : parameters;
    return JavaConverters.mapAsJavaMapConverter(given).asJava();
  }

  /** Why the default SaveMode (ErrorIfExists) refuses {@code path}, and what to do. */
  static String existsMessage(String path, DatasetDirectory.Inspection found) {
    if (found.state() == DatasetDirectory.State.DATASET) {
      return "Path " + path + " already exists and holds a beton dataset. Set mode \"overwrite\" to replace it, or \"append\""
          + " to add shards to it.";
    }
    return "Path " + path + " already exists and holds files that are not part of a beton dataset (" + found.example()
        + "). Write to another path, or set mode \"overwrite\" or \"append\" to write the dataset beside them"
        + " (they are never deleted).";
  }

  /** The session's Hadoop configuration plus every option, as Spark's file sources do. */
  static Configuration hadoopConf(Map<String, String> options) {
    Configuration conf = new Configuration(SparkSession.active().sessionState().newHadoopConf());
    originalCase(options).forEach((k, v) -> {
      if (v != null) {
        conf.set(k, v);
      }
    });
    return conf;
  }

  /**
   * The options, with the session's settings that Spark's file sources read: the defaults of two options, and the
   * two that size input partitions. {@code spark.sql.files.minPartitionNum} falls back as in Spark's
   * {@code FilePartition.maxSplitBytes}: to {@code spark.sql.leafNodeDefaultParallelism}, then the default parallelism.
   */
  static ReadConf readConf(Map<String, String> options) {
    SparkSession spark = SparkSession.active();
    SQLConf sql = spark.sessionState().conf();
    String parallelism = sql.getConfString("spark.sql.leafNodeDefaultParallelism",
        Integer.toString(spark.sparkContext().defaultParallelism()));
    return ReadConf.parse(originalCase(options), Map.of(
        "spark.sql.files.ignoreCorruptFiles", Boolean.toString(sql.ignoreCorruptFiles()),
        "spark.sql.files.ignoreMissingFiles", Boolean.toString(sql.ignoreMissingFiles()),
        "spark.sql.files.maxPartitionBytes", Long.toString(sql.filesMaxPartitionBytes()),
        "spark.sql.files.openCostInBytes", Long.toString(sql.filesOpenCostInBytes()),
        "spark.sql.files.minPartitionNum", sql.getConfString("spark.sql.files.minPartitionNum", parallelism)));
  }

  /** The options with their keys as given: a {@link CaseInsensitiveStringMap} iterates lower-cased keys. */
  private static Map<String, String> originalCase(Map<String, String> options) {
    return options instanceof CaseInsensitiveStringMap m ? m.asCaseSensitiveMap() : options;
  }
}
