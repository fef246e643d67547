package org.sparkbeton.spark;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;
import org.apache.spark.sql.sources.InsertableRelation;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.sparkbeton.spark.read.ReadConf;
import org.sparkbeton.spark.write.BetonWriteConf;

/**
 * A table of {@link BetonPathCatalog}: the dataset at a path. Reads are {@code format("beton")} reads of the path (the
 * same scan, pruning and answers from metadata); writes hand the rows to {@code format("beton")}'s save, so they take
 * its commit protocol, as an {@code INSERT} into a beton table of the session catalog does
 * ({@link BetonCatalogRelation}: the dataset's image fields stay images, stored with its recipe).
 */
final class BetonPathTable implements SupportsRead, SupportsWrite {
  /** The table's name in its catalog: {@code beton.`/data/photos`}. */
  private final String name;
  private final String path;
  /** The catalog's options, then a create's: read and write options alike. */
  private final Map<String, String> options;
  /** The dataset's read table. */
  private final BetonTable read;

  private BetonPathTable(String name, String path, Map<String, String> options, BetonTable read) {
    this.name = name;
    this.path = path;
    this.options = options;
    this.read = read;
  }

  /** The dataset (or {@code .beton} file, or glob of them) at {@code path}; fails with the read's reason. */
  static BetonPathTable existing(String name, String path, Map<String, String> options) {
    Map<String, String> readOptions = withPath(readOptions(options), path);
    BetonTable table = BetonTable.load(new CaseInsensitiveStringMap(readOptions),
        BetonProvider.hadoopConf(readOptions), BetonProvider.readConf(readOptions));
    return new BetonPathTable(name, path, options, table);
  }

  /** Refuses a name that is neither a read nor a write option, naming the nearest of them. */
  static void checkOption(String key) {
    if (!ReadConf.accepts(key) && !BetonWriteConf.accepts(key)) {
      throw new IllegalArgumentException(BetonCatalogRelation.unknownOption(key));
    }
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * The dataset's columns, each nullable: a dataset holds no nulls, but Spark checks the rows of an {@code INSERT}
   * against the table's schema before the write sees them, and for a column declared not null fails a null with its
   * own message (about Scala tuples and Java beans); declared nullable, the null reaches the write, which names the
   * column and row and applies {@code nullPolicy}.
   */
  @Override
  public StructType schema() {
    StructType out = new StructType();
    for (StructField f : read.schema().fields()) {
      out = out.add(new StructField(f.name(), f.dataType(), true, f.metadata()));
    }
    return out;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ, TableCapability.V1_BATCH_WRITE,
        TableCapability.STREAMING_WRITE, TableCapability.TRUNCATE);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap given) {
    Map<String, String> scanOptions = readOptions(options);
    scanOptions.putAll(given.asCaseSensitiveMap());
    return read.newScanBuilder(new CaseInsensitiveStringMap(scanOptions));
  }

  /**
   * An append (an {@code INSERT INTO}, {@code writeTo(...).append()}, a create's rows into the empty dataset the
   * create wrote) or, after {@code truncate()}, a replacement of the dataset ({@code INSERT OVERWRITE}), run as
   * {@code format("beton")}'s save: Spark runs a V1 write's relation itself, on the driver, with the query's rows.
   * A streaming query's write ({@code writeStream().toTable(name)}) is that of {@code writeStream().start(path)}.
   */
  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    Map<String, String> writeOptions = new LinkedHashMap<>(options);
    Map<String, String> given = info.options().asCaseSensitiveMap();
    BetonProvider.withoutCheckpointLocation(given).keySet().forEach(BetonPathTable::checkOption);
    writeOptions.putAll(given);
    return new PathWriteBuilder(writeOptions, info);
  }

  private final class PathWriteBuilder implements WriteBuilder, SupportsTruncate {
    private final Map<String, String> writeOptions;
    private final LogicalWriteInfo info;
    private boolean replace;

    PathWriteBuilder(Map<String, String> writeOptions, LogicalWriteInfo info) {
      this.writeOptions = writeOptions;
      this.info = info;
    }

    @Override
    public WriteBuilder truncate() {
      replace = true;
      return this;
    }

    @Override
    public Write build() {
      boolean overwrite = replace;
      return new V1Write() {
        @Override
        public InsertableRelation toInsertableRelation() {
          // a batch write has no checkpoint: the option is a mistake here, refused as any unknown one
          writeOptions.keySet().forEach(BetonPathTable::checkOption);
          // Spark's V1 fallback passes overwrite=false whatever the statement: the builder's truncate() says it
          return (data, ignored) -> BetonCatalogRelation.open(SparkSession.active().sqlContext(),
              withPath(writeOptions, path), null).insert(data, overwrite);
        }

        /** Each micro-batch appends to the dataset, or with Complete output mode ({@code truncate()}) replaces it. */
        @Override
        public StreamingWrite toStreaming() {
          // the table's read options (the catalog's, for every table of it) are no concern of a write
          WriteBuilder stream = BetonProvider.streamingWrite(withPath(BetonPathTable.writeOptions(writeOptions), path),
              info.schema(), info.queryId());
          return (overwrite ? ((SupportsTruncate) stream).truncate() : stream).build().toStreaming();
        }

        @Override
        public String description() {
          return (overwrite ? "overwrite " : "append to ") + name();
        }
      };
    }
  }

  private static Map<String, String> readOptions(Map<String, String> options) {
    return only(options, ReadConf::accepts);
  }

  /** The write options among a table's options. */
  static Map<String, String> writeOptions(Map<String, String> options) {
    return only(options, BetonWriteConf::accepts);
  }

  /** The options whose names {@code accepts}: the table's hold read and write options alike. */
  private static Map<String, String> only(Map<String, String> options, java.util.function.Predicate<String> accepts) {
    Map<String, String> out = new LinkedHashMap<>();
    options.forEach((k, v) -> {
      if (accepts.test(k)) {
        out.put(k, v);
      }
    });
    return out;
  }

  private static Map<String, String> withPath(Map<String, String> options, String path) {
    Map<String, String> out = new LinkedHashMap<>(options);
    out.put("path", path);
    return out;
  }
}
