package org.sparkbeton.spark;

import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.InsertableRelation;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dataset {@link BetonPathCatalog} is about to create or replace ({@code CREATE [OR REPLACE] TABLE ... AS SELECT},
 * {@code REPLACE TABLE}, {@code saveAsTable} in any mode, {@code writeTo(...).create()}, {@code createOrReplace()}):
 * the rows Spark writes into it are one {@code format("beton")} save of the path, with {@link SaveMode#ErrorIfExists}
 * for a create and {@link SaveMode#Overwrite} for a replace, so the dataset appears, or replaces the one there, when
 * that write publishes its manifest, all at once: a query that fails publishes nothing and leaves the dataset as it
 * was. A staged table Spark commits without writing rows ({@code REPLACE TABLE beton.`p` (a INT) USING beton}) is
 * an empty dataset of its columns, written at the commit.
 */
final class BetonStagedTable implements StagedTable, SupportsWrite {
  private static final Logger LOG = LoggerFactory.getLogger(BetonStagedTable.class);
  private final String name;
  private final String path;
  private final StructType schema;
  /** The write options of the catalog and of the statement. */
  private final Map<String, String> options;
  private final SaveMode mode;
  private volatile boolean written;

  BetonStagedTable(String name, String path, StructType schema, Map<String, String> options, SaveMode mode) {
    this.name = name;
    this.path = path;
    this.schema = schema;
    this.options = options;
    this.mode = mode;
  }

  @Override
  public String name() {
    return name;
  }

  String path() {
    return path;
  }

  /** The catalog's and the statement's options. */
  Map<String, String> options() {
    return options;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.V1_BATCH_WRITE, TableCapability.TRUNCATE);
  }

  /** The query's rows, saved as the dataset at the path: Spark runs a V1 write's relation on the driver. */
  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    Map<String, String> writeOptions = new LinkedHashMap<>(options);
    info.options().asCaseSensitiveMap().forEach((k, v) -> {
      BetonPathTable.checkOption(k);
      writeOptions.put(k, v);
    });
    // Spark's replace writes its rows as an overwrite (truncate()); this table's save replaces or creates whatever
    return new SupportsTruncate() {
      @Override
      public WriteBuilder truncate() {
        return this;
      }

      @Override
      public Write build() {
        return new V1Write() {
          @Override
          public InsertableRelation toInsertableRelation() {
            return (data, ignored) -> save(data, writeOptions);
          }

          @Override
          public String description() {
            return (mode == SaveMode.Overwrite ? "replace " : "create ") + name;
          }
        };
      }
    };
  }

  private void save(Dataset<Row> data, Map<String, String> writeOptions) {
    data.write().format(BetonDataSource.SHORT_NAME).options(BetonPathTable.writeOptions(writeOptions)).mode(mode)
        .save(path);
    written = true;
  }

  /** Nothing to publish after the rows' write, which published the dataset; without one, an empty dataset. */
  @Override
  public void commitStagedChanges() {
    if (!written) {
      save(SparkSession.active().createDataFrame(List.<Row>of(), schema), options);
    }
  }

  /**
   * Nothing to undo in a dataset: a write that failed published nothing, and its files went with its job. A create
   * leaves no directory where there was none: the failed write's, emptied by its abort, is deleted.
   */
  @Override
  public void abortStagedChanges() {
    if (mode != SaveMode.ErrorIfExists) {
      return;
    }
    Path dir = new Path(path);
    try {
      FileSystem fs = dir.getFileSystem(BetonProvider.hadoopConf(options));
      if (fs.exists(dir) && fs.listStatus(dir).length == 0) {
        fs.delete(dir, false);
      }
    } catch (IOException e) {
      LOG.warn("beton: could not delete the directory {} that a failed create left empty", path, e);
    }
  }
}
