package org.sparkbeton.spark;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.sparkbeton.spark.write.DatasetDirectory;

/**
 * A catalog whose tables are beton datasets named by their paths, for SQL: with
 * {@code spark.sql.catalog.beton=org.sparkbeton.spark.BetonPathCatalog}, {@code SELECT * FROM beton.`/data/photos`}
 * reads the dataset (or a {@code .beton} file, or a glob) as {@code spark.read().format("beton").load(path)} does,
 * {@code INSERT INTO} / {@code INSERT OVERWRITE beton.`/data/photos`} append to or replace it, and
 * {@code CREATE TABLE beton.`/data/new` AS SELECT ...} writes a new one. Spark's own {@code parquet.`path`} form
 * serves file formats only, and a data source of Spark's DataSource V2 cannot join it; a catalog can.
 *
 * <p>Nothing is registered: a table is wherever its path says. The catalog's options
 * ({@code spark.sql.catalog.beton.<option>}) are read and write options every table of it takes (e.g.
 * {@code verifyChecksums}, {@code fs.s3a.endpoint}); Spark's {@code OPTIONS (...)} of a statement come after them.
 */
public final class BetonPathCatalog implements TableCatalog {
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

  /** The dataset at the identifier's path, for reads, appends and overwrites. */
  @Override
  public Table loadTable(Identifier ident) {
    String path = path(ident);
    try {
      return BetonPathTable.existing(quoted(path), path, defaults);
    } catch (IllegalArgumentException e) {
      // Not NoSuchTableException: Spark would then try the name as a file query and fail saying only that beton is
      // no file format. A missing dataset fails here with the read's reason and what writes one.
      if (BetonPathTable.isAbsent(inspect(path))) {
        throw new IllegalArgumentException(e.getMessage() + " (CREATE TABLE " + quoted(path) + " AS SELECT ... writes"
            + " a new dataset there)", e);
      }
      throw e;
    }
  }

  @Override
  public boolean tableExists(Identifier ident) {
    String path = path(ident);
    return !BetonPathTable.isAbsent(inspect(path));
  }

  /**
   * The table of {@code CREATE TABLE beton.`path` AS SELECT ...}, which Spark then writes the query's rows into: a
   * new dataset at the path. A path holding a dataset or other files exists (Spark then refuses the create, or skips
   * it for {@code IF NOT EXISTS}); the files of a write that never published do not count, as for
   * {@code df.write().format("beton").save(path)}.
   */
  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException {
    String path = path(ident);
    if (partitions.length > 0) {
      throw new IllegalArgumentException("A beton table takes no PARTITIONED BY ("
          + String.join(", ", Arrays.stream(partitions).map(Transform::describe).toList()) + "): a dataset is one"
          + " directory of shards under one manifest, opened as one by FFCV and the loader; keep the columns as fields");
    }
    if (!BetonPathTable.isAbsent(inspect(path))) {
      throw new TableAlreadyExistsException("Path " + path + " already holds a beton dataset or other files:"
          + " INSERT INTO " + quoted(path) + " appends to a dataset, INSERT OVERWRITE replaces it");
    }
    return BetonPathTable.created(quoted(path), path, schema, createOptions(path, properties));
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
      } else if (key.equals(TableCatalog.PROP_PROVIDER) && !isBeton(p.getValue())) {
        throw new IllegalArgumentException("The " + name + " catalog writes beton datasets only, not USING "
            + p.getValue());
      } else if (key.equals(TableCatalog.PROP_LOCATION) && !new Path(p.getValue()).equals(new Path(path))) {
        throw new IllegalArgumentException("A table of the " + name + " catalog is at its path, " + path
            + "; it takes no other LOCATION (" + p.getValue() + ")");
      }
    }
    return options;
  }

  private static boolean isBeton(String provider) {
    return provider.equalsIgnoreCase(BetonDataSource.SHORT_NAME) || provider.equals(BetonDataSource.class.getName())
        || provider.equals(BetonProvider.class.getName());
  }

  /** Refused: a path's table has no definition to change; its fields are what the dataset's manifest lists. */
  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw new UnsupportedOperationException("The " + name + " catalog cannot alter " + quoted(path(ident)) + ": its"
        + " columns are the fields the dataset stores. Write it again with the columns you want (INSERT OVERWRITE)");
  }

  /**
   * Drops nothing that exists. Spark calls this to undo a {@code CREATE TABLE ... AS SELECT} whose write failed (the
   * write has deleted its own files by then: false, nothing there); {@code DROP TABLE} of a dataset is refused, as a
   * path's table is its data, and deleting data is for a file system command or {@code beton gc}.
   */
  @Override
  public boolean dropTable(Identifier ident) {
    String path = path(ident);
    if (BetonPathTable.isAbsent(inspect(path))) {
      return false;
    }
    throw new UnsupportedOperationException("The " + name + " catalog does not delete datasets: " + quoted(path)
        + " is the dataset at " + path + " itself. Delete the directory with your file system's tools; to replace its"
        + " rows, INSERT OVERWRITE " + quoted(path) + " SELECT ...");
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
    Path dir = new Path(path);
    try {
      FileSystem fs = dir.getFileSystem(BetonProvider.hadoopConf(defaults));
      return DatasetDirectory.inspect(fs, dir).state();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(FileSystemMessages.cannotCheck(path, e), e);
    }
  }
}
