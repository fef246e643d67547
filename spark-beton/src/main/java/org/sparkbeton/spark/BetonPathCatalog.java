package org.sparkbeton.spark;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.spark.write.BetonWriteConf;
import org.sparkbeton.spark.write.DatasetDirectory;
import org.sparkbeton.spark.write.DatasetPublisher;

/**
 * A catalog whose tables are beton datasets named by their paths, for SQL: with
 * {@code spark.sql.catalog.beton=org.sparkbeton.spark.BetonPathCatalog}, {@code SELECT * FROM beton.`/data/photos`}
 * reads the dataset (or a {@code .beton} file, or a glob) as {@code spark.read().format("beton").load(path)} does,
 * {@code INSERT INTO} / {@code INSERT OVERWRITE beton.`/data/photos`} append to or replace its rows,
 * {@code CREATE OR REPLACE TABLE ... AS SELECT} replaces it, all at once ({@link BetonStagedTable}), and
 * {@code CREATE TABLE beton.`/data/new` [(columns)] [AS SELECT ...]} writes a new one, as do
 * {@code df.write().format("beton").saveAsTable(...)} and a streaming query's {@code toTable(...)}. Spark's own
 * {@code parquet.`path`} form serves file formats only, and a data source of Spark's DataSource V2 cannot join it; a
 * catalog can.
 *
 * <p>Nothing is registered: a table is wherever its path says. The catalog's options
 * ({@code spark.sql.catalog.beton.<option>}) are read and write options every table of it takes (e.g.
 * {@code verifyChecksums}, {@code fs.s3a.endpoint}); Spark's {@code OPTIONS (...)} of a statement come after them.
 */
public final class BetonPathCatalog implements StagingTableCatalog {
  private String name = "beton";
  private Map<String, String> defaults = Map.of();

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    this.name = name;
    Map<String, String> given = new LinkedHashMap<>(options.asCaseSensitiveMap());
    for (String key : given.keySet()) {
      if (key.equalsIgnoreCase("path")) {
        throw new IllegalArgumentException("spark.sql.catalog." + name + ".path: the " + name + " catalog names"
            + " each dataset by its own path (" + name + ".`/data/photos`); it takes no path of its own");
      }
      BetonPathTable.checkOption(key);
    }
    this.defaults = Map.copyOf(given);
  }

  @Override
  public String name() {
    return name;
  }

  /** The dataset at the identifier's path, for reads (for writes, the overload below). */
  @Override
  public Table loadTable(Identifier ident) {
    String path = path(ident);
    try {
      return BetonPathTable.existing(quoted(path), path, defaults);
    } catch (IllegalArgumentException e) {
      // Not NoSuchTableException: Spark would then try the name as a file query and fail saying only that beton is
      // no file format. A missing dataset fails here with the read's reason and what writes one.
      if (inspect(path).holdsNoDataset()) {
        throw new IllegalArgumentException(e.getMessage() + " (CREATE TABLE " + quoted(path) + " AS SELECT ... writes"
            + " a new dataset there)", e);
      }
      throw e;
    }
  }

  /**
   * The dataset at the identifier's path, for a write (an {@code INSERT}, {@code saveAsTable}, {@code insertInto},
   * {@code writeTo(...).append()}). A missing dataset is Spark's {@link NoSuchTableException} here, unlike for a read:
   * {@code saveAsTable} then creates the dataset (its modes as for a table of any catalog), and an {@code INSERT}
   * fails with Spark's TABLE_OR_VIEW_NOT_FOUND, naming the path.
   */
  @Override
  public Table loadTable(Identifier ident, Set<TableWritePrivilege> privileges) throws NoSuchTableException {
    if (inspect(path(ident)).holdsNoDataset()) {
      throw new NoSuchTableException(ident);
    }
    return loadTable(ident);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    String path = path(ident);
    return !inspect(path).holdsNoDataset();
  }

  /**
   * {@code CREATE TABLE beton.`path` (columns)}: an empty dataset of those columns at the path, written now, so that
   * the table exists as Spark expects after a create (its {@code INSERT}s then append to it); a create by a query is
   * {@link #stageCreate}'s. A path holding a dataset or other files exists (Spark then refuses the create, or skips
   * it for {@code IF NOT EXISTS}); the files of a write that never published do not count, as for
   * {@code df.write().format("beton").save(path)}.
   */
  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException {
    BetonStagedTable create = staged(ident, schema, partitions, properties);
    create.commitStagedChanges(); // no rows written: the empty dataset
    return BetonPathTable.existing(create.name(), create.path(), create.options());
  }

  /**
   * A create by a query ({@code CREATE TABLE ... AS SELECT}, {@code saveAsTable}, {@code writeTo(...).create()}): the
   * dataset appears when the query's write publishes it ({@link BetonStagedTable}); a query that fails leaves no
   * dataset.
   */
  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    return staged(ident, schema, partitions, properties);
  }

  /** The create of a new dataset at the path; a path holding one, or other files, is refused. */
  private BetonStagedTable staged(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException {
    String path = path(ident);
    refusePartitions(partitions);
    Map<String, String> options = createOptions(path, properties);
    refuseExisting(path);
    return new BetonStagedTable(quoted(path), path, schema, options, SaveMode.ErrorIfExists);
  }

  /**
   * {@code REPLACE TABLE}: the dataset at the path replaced, as an {@code INSERT OVERWRITE} replaces it, by the
   * query's rows, with the query's columns; all at once when the write publishes, so a query that fails leaves the
   * dataset as it was.
   */
  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchTableException {
    String path = path(ident);
    refusePartitions(partitions);
    Map<String, String> options = createOptions(path, properties);
    if (inspect(path).holdsNoDataset()) {
      throw new NoSuchTableException(ident);
    }
    return new BetonStagedTable(quoted(path), path, schema, options, SaveMode.Overwrite);
  }

  /**
   * {@code CREATE OR REPLACE TABLE}, {@code saveAsTable} in mode overwrite, {@code writeTo(...).createOrReplace()}:
   * as {@link #stageReplace}, creating the dataset where there is none.
   */
  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) {
    String path = path(ident);
    refusePartitions(partitions);
    return new BetonStagedTable(quoted(path), path, schema, createOptions(path, properties), SaveMode.Overwrite);
  }

  private static void refusePartitions(Transform[] partitions) {
    if (partitions.length > 0) {
      throw new IllegalArgumentException("A beton table takes no PARTITIONED BY ("
          + String.join(", ", Arrays.stream(partitions).map(Transform::describe).toList()) + "): "
          + BetonWriteConf.WHY_NOT_PARTITIONED + "; keep the columns as fields");
    }
  }

  private void refuseExisting(String path) throws TableAlreadyExistsException {
    if (!inspect(path).holdsNoDataset()) {
      throw new TableAlreadyExistsException("Path " + path + " already holds a beton dataset or other files:"
          + " INSERT INTO " + quoted(path) + " appends to a dataset, INSERT OVERWRITE or CREATE OR REPLACE TABLE"
          + " replaces it");
    }
  }

  /**
   * Options of a create: the catalog's, then the statement's {@code OPTIONS}. A {@code USING} other than beton and a
   * {@code LOCATION} other than the path are refused: the path is where the dataset goes.
   */
  private Map<String, String> createOptions(String path, Map<String, String> properties) {
    Map<String, String> options = new LinkedHashMap<>(defaults);
    for (Map.Entry<String, String> p : properties.entrySet()) {
      String key = p.getKey();
      if (key.startsWith(TableCatalog.OPTION_PREFIX)) {
        String option = key.substring(TableCatalog.OPTION_PREFIX.length());
        BetonPathTable.checkOption(option);
        options.put(option, p.getValue());
      } else if (key.equals(TableCatalog.PROP_PROVIDER) && !BetonSessionExtensions.isBetonProvider(p.getValue())) {
        throw new IllegalArgumentException("The " + name + " catalog writes beton datasets only, not USING "
            + p.getValue() + " (saveAsTable and writeStream().toTable ask for Spark's default format,"
            + " spark.sql.sources.default, unless given .format(\"beton\"))");
      } else if (key.equals(TableCatalog.PROP_LOCATION) && !new Path(p.getValue()).equals(new Path(path))) {
        throw new IllegalArgumentException("A table of the " + name + " catalog is at its path, " + path
            + "; it takes no other LOCATION (" + p.getValue() + ")");
      }
    }
    return options;
  }

  /** Refused: a path's table has no definition to change; its fields are what the dataset's manifest lists. */
  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("The " + name + " catalog cannot alter " + quoted(path(ident)) + ": its"
        + " columns are the fields the dataset stores. Write it again with the columns you want (INSERT OVERWRITE)");
  }

  /**
   * Drops a dataset of no samples (only its manifest: what a create with columns wrote); refuses one with samples, as
   * a path's table is its data, and deleting data is for a file system command or {@code beton gc}. False where there
   * is no dataset.
   */
  @Override
  public boolean dropTable(Identifier ident) {
    String path = path(ident);
    if (inspect(path).holdsNoDataset()) {
      return false;
    }
    Path dir = new Path(path);
    try {
      FileSystem fs = dir.getFileSystem(BetonProvider.hadoopConf(defaults));
      DatasetManifest manifest = DatasetPublisher.read(fs, dir);
      if (manifest != null && manifest.shards().isEmpty() && onlyManifest(fs, dir)) {
        return fs.delete(dir, true);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(FileSystemMessages.cannotCheck(path, e), e);
    }
    throw new UnsupportedOperationException("The " + name + " catalog does not delete datasets: " + quoted(path)
        + " is the dataset at " + path + " itself. Delete the directory with your file system's tools; to replace its"
        + " rows, INSERT OVERWRITE " + quoted(path) + " SELECT ...");
  }

  /** Whether the directory holds nothing but the manifest (and checksum files a local file system adds). */
  private static boolean onlyManifest(FileSystem fs, Path dir) throws java.io.IOException {
    for (FileStatus s : fs.listStatus(dir)) {
      String file = s.getPath().getName();
      if (!file.equals(DatasetManifest.FILE_NAME) && !(file.startsWith(".") && file.endsWith(".crc"))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void renameTable(Identifier from, Identifier to) {
    throw new UnsupportedOperationException("The " + name + " catalog does not move datasets (" + quoted(path(from))
        + "): its tables are their paths");
  }

  /** None: datasets are not registered anywhere, so there is nothing to list. */
  @Override
  public Identifier[] listTables(String[] namespace) {
    return new Identifier[0];
  }

  /** The dataset path a table name of this catalog is: its one part, quoted with back-ticks. */
  private String path(Identifier ident) {
    if (ident.namespace().length > 0 || ident.name().isEmpty()) {
      String given = String.join(".", ident.namespace()) + (ident.namespace().length > 0 ? "." : "") + ident.name();
      throw new IllegalArgumentException("A table of the " + name + " catalog is a dataset's path in back-ticks, e.g. "
          + name + ".`/data/photos` or " + name + ".`s3a://bucket/photos`; got " + name + "." + given);
    }
    return ident.name();
  }

  private String quoted(String path) {
    return name + ".`" + path.replace("`", "``") + "`";
  }

  private DatasetDirectory.State inspect(String path) {
    return BetonProvider.inspect(path, defaults).state();
  }
}
