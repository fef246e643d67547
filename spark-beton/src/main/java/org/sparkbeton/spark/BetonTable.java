package org.sparkbeton.spark;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.sparkbeton.spark.write.BetonWriteBuilder;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.dataset.JsonText;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.spark.read.BetonReadOptions;
import org.sparkbeton.spark.read.BetonScanBuilder;
import org.sparkbeton.spark.read.BetonSchema;
import org.sparkbeton.spark.read.DatasetInputs;
import org.sparkbeton.spark.read.ReadConf;

/**
 * The one table behind {@code format("beton")}: a dataset directory, file or glob. It reads
 * ({@link SupportsRead}, through spark-beton-reader's scan builder) and writes ({@link SupportsWrite}, through
 * spark-beton-writer's write builder), so one registration serves both directions.
 */
public final class BetonTable implements SupportsRead, SupportsWrite {
  private static final Logger LOG = LoggerFactory.getLogger(BetonTable.class);

  private final DatasetInputs inputs;
  private final BetonSchema schema;
  private final Configuration hadoopConf;
  /** Set for the write that {@link BetonProvider#createRelation} runs; null for reads. */
  private final WriteTarget write;
  /** Where no dataset could be opened and why, for a table {@link #unreadable} stands in for; null otherwise. */
  private final Unreadable unreadable;
  /** For a table {@link #opening} returned: opens the dataset when a read first needs it; null otherwise. */
  private final Opening opening;
  /** The dataset as the last scan found it: {@link #inputs} until the dataset changes ({@link #currentInputs}). */
  private volatile DatasetInputs current;

  /** Where a write goes: the dataset directory, its DataFrame schema and the options. */
  /**
   * @param newDataset null for an append or overwrite; else the write makes a new dataset (SaveMode ErrorIfExists,
   *     or Ignore when true) and must not add to one published meanwhile ({@link BetonWriteBuilder#asNewDataset})
   */
  record WriteTarget(String path, StructType schema, java.util.Map<String, String> options, Boolean newDataset) {
  }

  /**
   * @param path the table's path, for its name (null when not known)
   * @param failure why no dataset could be opened there
   */
  private record Unreadable(String path, RuntimeException failure) {
  }

  private BetonTable(DatasetInputs inputs, BetonSchema schema, Configuration hadoopConf, WriteTarget write,
      Unreadable unreadable, Opening opening) {
    this.inputs = inputs;
    this.schema = schema;
    this.hadoopConf = hadoopConf;
    this.write = write;
    this.unreadable = unreadable;
    this.opening = opening;
    this.current = inputs;
  }

  /** The dataset {@link #opening} opens, once, on first use. */
  private static final class Opening {
    private Supplier<BetonTable> open;
    private BetonTable opened;
    /** The read was given its columns ({@code .schema(...)}): a stream of it is {@link BetonStreamSource}'s. */
    private final boolean givenColumns;

    Opening(Supplier<BetonTable> open, boolean givenColumns) {
      this.open = open;
      this.givenColumns = givenColumns;
    }

    synchronized BetonTable get() {
      if (opened == null) {
        opened = open.get();
        open = null;
      }
      return opened;
    }
  }

  /** The table of a write: the directory need not exist yet. */
  static BetonTable forWrite(WriteTarget target, Configuration hadoopConf) {
    return new BetonTable(null, null, hadoopConf, target, null, null);
  }

  /**
   * A read table that opens its dataset ({@code open}: {@link #load}, or {@link #unreadable} when that fails) only
   * when first used: {@code DataFrameWriter.save()} asks for a table with the write's options only to learn from
   * {@link #capabilities} that it takes the V1 route, and opening it would parse those options as read options (and,
   * over an existing dataset, read its manifest) for nothing on every write.
   */
  static BetonTable opening(Supplier<BetonTable> open) {
    return new BetonTable(null, null, null, null, null, new Opening(open, false));
  }

  /**
   * {@link #opening} for a read given its columns ({@code spark.read().schema(...)},
   * {@code spark.readStream().schema(...)}). A batch read of it checks them against the dataset's at {@code load()}
   * as any; a stream of it claims no micro-batch read, so Spark streams it through the V1 source instead
   * ({@link BetonStreamSource}), which takes the columns as a table's declared ones: a subset, each read as its
   * given type, and, where the location holds no dataset yet, a query that waits for the first write there.
   */
  static BetonTable openingWithGivenColumns(Supplier<BetonTable> open) {
    return new BetonTable(null, null, null, null, null, new Opening(open, true));
  }

  /**
   * A table whose dataset could not be opened with these options (none yet at a path being written, a bad
   * option): it claims no batch write, so a save takes the V1 route, and a read fails with {@code failure}, the
   * reason, when it asks for the schema or a scan.
   */
  static BetonTable unreadable(String path, Configuration hadoopConf, RuntimeException failure) {
    return new BetonTable(null, null, hadoopConf, null, new Unreadable(path, failure), null);
  }

  /**
   * The paths of a read: {@code load(path)} puts one in option {@code path}, {@code load(a, b, ...)} a JSON list in
   * {@code paths}.
   */
  static List<String> paths(CaseInsensitiveStringMap options) {
    String path = options.get("path");
    if (path != null && !path.isEmpty()) {
      return List.of(path);
    }
    String list = options.get("paths");
    if (list == null || list.isEmpty()) {
      return List.of();
    }
    try {
      return JsonText.stringList(list); // as Spark writes it: ["a","b"]
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Option paths must be a JSON list of paths, got " + list, e);
    }
  }

  static BetonTable load(CaseInsensitiveStringMap options, Configuration hadoopConf, ReadConf conf) {
    List<String> paths = paths(options);
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("format(\"beton\") needs a path: spark.read.format(\"beton\").load(path)");
    }
    String path = String.join(", ", paths);
    DatasetInputs inputs = DatasetInputs.resolve(paths, hadoopConf);
    for (ManifestField f : inputs.fields()) {
      if (f.typeId() == FieldTypes.CUSTOM) {
        if (!conf.customFields().containsKey(f.name())) {
          throw new IllegalArgumentException("Field '" + f.name() + "' of " + path + " is a custom field (type id 255),"
              + " whose metadata layout the file does not record; pass option " + BetonReadOptions.CUSTOM_FIELD_LAYOUT
              + "=" + f.name() + ":<size>:<alignment> to read its raw metadata bytes");
        }
        LOG.warn("Field '{}' of {} is a custom field (type id 255): it is read as its raw metadata bytes ({} bytes);"
            + " payloads it may point to are not interpreted", f.name(), path, conf.customFields().get(f.name()).size());
      }
    }
    BetonSchema schema = BetonSchema.of(inputs.fields(), conf.imageMode(), inputs.root(), inputs.recipe());
    return new BetonTable(inputs, schema, hadoopConf, null, null, null);
  }

  @Override
  public String name() {
    if (opening != null) {
      return opening.get().name();
    }
    return "beton:" + (write != null ? write.path() : inputs != null ? inputs.root()
        : unreadable != null && unreadable.path() != null ? unreadable.path() : "(no dataset yet)");
  }

  @Override
  public StructType schema() {
    if (opening != null) {
      return opening.get().schema();
    }
    if (unreadable != null) {
      // a read given a schema (spark.read().schema(...)) asks for this at load(), where a plain read's inferSchema
      // fails: the reason then, not an empty schema now and the reason at the first query
      throw unreadable.failure();
    }
    return write != null ? write.schema() : schema != null ? schema.sparkSchema() : new StructType();
  }

  /**
   * Reads (streaming reads too: {@code spark.readStream().format("beton")}) and streaming writes always; batch writes
   * only for the write {@link BetonProvider#createRelation} runs, so that {@code DataFrameWriter.save()} takes the V1
   * route for every SaveMode (Spark 3.5 refuses ErrorIfExists and Ignore for a V2 table) and the mode is applied
   * before the V2 write starts. A table not yet {@link #opening opened} reads too, whether its dataset opens or not
   * ({@link #unreadable}). A streaming write ({@code df.writeStream().format("beton")}) asks for the table with the
   * stream's options, then for its write ({@link BetonProvider#streamingWrite}); TRUNCATE lets Spark run its Complete
   * output mode, which replaces the dataset with each batch.
   */
  @Override
  public Set<TableCapability> capabilities() {
    if (write != null) {
      return EnumSet.of(TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }
    if (opening != null && opening.givenColumns) {
      // Spark streams a table without MICRO_BATCH_READ through the data source's V1 StreamSourceProvider, without
      // asking this table for its schema (which would open, or fail for, a location not yet written)
      return EnumSet.of(TableCapability.BATCH_READ, TableCapability.STREAMING_WRITE, TableCapability.TRUNCATE);
    }
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ, TableCapability.STREAMING_WRITE,
        TableCapability.TRUNCATE);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    if (write == null) {
      // only a streaming write gets here: batch saves take the V1 route (no BATCH_WRITE) to the table above
      return BetonProvider.streamingWrite(info);
    }
    BetonWriteBuilder builder = new BetonWriteBuilder(write.path(), info.schema(), write.options(), hadoopConf);
    return write.newDataset() == null ? builder : builder.asNewDataset(write.newDataset());
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    if (opening != null) {
      return opening.get().newScanBuilder(options);
    }
    if (unreadable != null) {
      throw unreadable.failure();
    }
    ReadConf conf = BetonProvider.readConf(options);
    DatasetInputs now = currentInputs();
    // annotated as at load(), as the table's schema Spark resolved the query with
    BetonSchema readSchema = BetonSchema.of(now.fields(), conf.imageMode(), inputs.root(), inputs.recipe());
    return new BetonScanBuilder(now, readSchema, conf, hadoopConf);
  }

  /**
   * The dataset as it is now, for a scan: a DataFrame keeps this table from its {@code load()} and plans a scan per
   * query, and an overwrite or append in between replaces the manifest (an overwrite also deletes the shards it
   * listed). Each scan reads the manifest again when it changed, so an old DataFrame counts and reads the
   * dataset of today, as a new one would; when the fields changed too, the columns Spark resolved at {@code load()}
   * no longer exist as they were, and the query fails saying so.
   */
  private DatasetInputs currentInputs() {
    DatasetInputs last = current;
    DatasetInputs now = last.current(hadoopConf);
    if (now == last) {
      return now;
    }
    if (!now.fields().equals(inputs.fields())) {
      throw new IllegalStateException("The dataset " + inputs.root() + " changed after this DataFrame was loaded:"
          + " its fields are now " + now.fields() + ", they were " + inputs.fields() + " at load(). Load it again,"
          + " spark.read.format(\"beton\").load(...), to read it as it is now");
    }
    inputs.requireSameColumnTypes(now, "this DataFrame", "Load it again, spark.read.format(\"beton\").load(...), to"
        + " read it as it is now");
    LOG.info("beton: {} changed after it was loaded; reading it as it is now ({} samples in {} shards, {} before)",
        inputs.root(), now.totalSamples(), now.shards().size(), last.totalSamples());
    current = now;
    return now;
  }

  DatasetInputs inputs() {
    return opening != null ? opening.get().inputs() : inputs;
  }
}
