package org.sparkbeton.spark;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReportsSourceMetrics;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.sql.execution.streaming.SerializedOffset;
import org.apache.spark.sql.execution.streaming.Source;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.spark.read.BetonMicroBatchStream;
import org.sparkbeton.spark.read.ReadConf;
import org.sparkbeton.spark.write.BetonWriteConf;
import org.sparkbeton.spark.write.DatasetDirectory;
import scala.Option;

/**
 * The stream of a session-catalog table stored as a beton dataset, {@code spark.readStream().table("photos")} of a
 * table {@code USING beton}: Spark 3.5 streams a catalog table of a data source through its V1 streaming API only
 * ({@code StreamSourceProvider}). Every step goes to the stream {@code readStream().format("beton").load(location)}
 * runs ({@link BetonMicroBatchStream}): the same offsets (a checkpoint written by either reads on with the other),
 * the same checks (a dataset replaced under the stream, a column widened by an append) and the same batches, whose
 * rows come as a streaming DataFrame over the batch's input partitions ({@link InputPartitionRDD}), each column cast
 * to the type the catalog holds for it, as the table's batch reads are ({@link BetonCatalogRelation}).
 *
 * <p>A table whose location holds no dataset yet (created with its columns, not written to) streams too: the
 * catalog gives the columns, and the source offers no data until the first write there commits, then reads from
 * that write's first shard on.
 *
 * <p>A stream of a path given its columns ({@code readStream().format("beton").schema(...).load(path)}) comes here
 * too ({@link BetonTable#openingWithGivenColumns} claims no micro-batch read), with the given columns as the
 * declared ones.
 */
final class BetonStreamSource implements Source, SupportsTriggerAvailableNow, ReportsSourceMetrics {
  private static final Logger LOG = LoggerFactory.getLogger(BetonStreamSource.class);

  private final SQLContext sqlContext;
  private final String metadataPath;
  private final CaseInsensitiveStringMap options;
  /** The catalog's columns, or null where none were declared (the rows are the dataset's, as read). */
  private final StructType declared;
  /**
   * {@link #declared} with the dataset's field metadata as it is when the stream starts (an image's dataset and
   * recipe, which an append since the table's creation may have changed); null before.
   */
  private StructType columns;
  /** The stream of the dataset; null while the location holds none yet. */
  private BetonMicroBatchStream stream;
  /** The rows the stream's readers give: the dataset's columns (null with the stream). */
  private StructType readSchema;
  /** Where the query starts when its checkpoint holds no offset of this source: taken once, at the first ask. */
  private Offset initial;
  /** {@code Trigger.AvailableNow()} began while the location held no dataset: this run reads nothing. */
  private boolean availableNowBeforeDataset;

  private BetonStreamSource(SQLContext sqlContext, String metadataPath, CaseInsensitiveStringMap options,
      StructType declared) {
    this.sqlContext = sqlContext;
    this.metadataPath = metadataPath;
    this.options = options;
    this.declared = declared;
  }

  /**
   * The rows of the stream of the dataset at the {@code path} among {@code options}: the columns {@code declared}
   * (the catalog's; each must be a field of the dataset) with the dataset's field metadata, or, where null, the
   * dataset's.
   */
  static StructType schema(Map<String, String> options, StructType declared) {
    CaseInsensitiveStringMap read = readOptions(options);
    DatasetDirectory.State state = state(read);
    if (declared != null && state.holdsNoDataset()) {
      return declared;
    }
    return columns(load(read, state), declared);
  }

  /** The source of a query whose checkpoint keeps this source's state under {@code metadataPath}. */
  static BetonStreamSource open(SQLContext sqlContext, String metadataPath, Map<String, String> options,
      StructType declared) {
    CaseInsensitiveStringMap read = readOptions(options);
    BetonStreamSource source = new BetonStreamSource(sqlContext, metadataPath, read, declared);
    DatasetDirectory.State state = state(read);
    if (declared != null && state.holdsNoDataset()) {
      LOG.info("beton: {} holds no dataset yet; its stream starts with the first write there", read.get("path"));
    } else {
      source.startStream(load(read, state));
    }
    return source;
  }

  private void startStream(BetonTable table) {
    if (declared != null) {
      columns = columns(table, declared); // fails for a declared column the dataset lacks
    }
    Scan scan = table.newScanBuilder(options).build();
    stream = (BetonMicroBatchStream) scan.toMicroBatchStream(metadataPath);
    readSchema = scan.readSchema();
  }

  /** The stream, started now if the first write to the location has committed since the query began; else null. */
  private BetonMicroBatchStream stream() {
    if (stream != null || availableNowBeforeDataset) {
      return stream;
    }
    DatasetDirectory.State state = state(options);
    if (!state.holdsNoDataset()) {
      LOG.info("beton: {} has its first write; its stream reads from the first shard", options.get("path"));
      startStream(load(options, state));
      initial = stream.beforeFirstShard(); // the dataset is new to this query: all of it, startingPosition aside
    }
    return stream;
  }

  private static StructType columns(BetonTable table, StructType declared) {
    StructType stored = table.schema();
    if (declared == null) {
      return stored;
    }
    BetonCatalogRelation.requireColumns(declared, stored, table.inputs().root());
    return BetonCatalogRelation.annotated(declared, stored);
  }

  /**
   * What the location holds ({@link DatasetDirectory.State#holdsNoDataset}: nothing, or a directory with no published
   * manifest); {@code DATASET} where no single path is given (several, for the read to refuse).
   */
  private static DatasetDirectory.State state(CaseInsensitiveStringMap read) {
    String path = read.get("path");
    return path == null ? DatasetDirectory.State.DATASET : BetonProvider.inspect(path, read).state();
  }

  /** The table of the dataset at the location, whose {@link #state} is {@code state}. */
  private static BetonTable load(CaseInsensitiveStringMap read, DatasetDirectory.State state) {
    String path = read.get("path");
    if (state == DatasetDirectory.State.LEFTOVERS) {
      // the batch read's message would suggest a glob of shards, which a stream cannot read
      throw new IllegalArgumentException("No beton dataset at " + path + " yet: the directory holds no published"
          + " manifest (nothing was written there, or only a write that failed). A stream of a path reads a"
          + " dataset, then its appends: start it once the first write to the path has committed, give the stream its"
          + " columns (.schema(...)), or stream a table created with its columns (CREATE TABLE t (...) USING beton"
          + " LOCATION '" + path + "'); either waits for it");
    }
    return BetonTable.load(read, BetonProvider.hadoopConf(read), BetonProvider.readConf(read));
  }

  /**
   * The options less those only writes take: a catalog table's options hold both (its reads and its
   * {@code INSERT}s take theirs). An option neither takes stays, for the read to name.
   */
  private static CaseInsensitiveStringMap readOptions(Map<String, String> options) {
    Map<String, String> read = new HashMap<>(options);
    read.keySet().removeIf(key -> BetonWriteConf.accepts(key) && !ReadConf.accepts(key));
    return new CaseInsensitiveStringMap(read);
  }

  @Override
  public StructType schema() {
    return columns != null ? columns : declared != null ? declared : readSchema;
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return BetonMicroBatchStream.readLimit(BetonProvider.readConf(options));
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    BetonMicroBatchStream now = stream();
    if (now == null) {
      availableNowBeforeDataset = true;
    } else {
      now.prepareForTriggerAvailableNow();
    }
  }

  /** Spark asks a source with admission control for {@link #latestOffset(Offset, ReadLimit)}; this answers alike. */
  @Override
  public Option<org.apache.spark.sql.execution.streaming.Offset> getOffset() {
    return Option.apply(latestOffset(null, ReadLimit.allAvailable()));
  }

  /**
   * {@code start} is null before this query's first batch, else the last offset Spark recorded for this source.
   * Null (no data) while the location holds no dataset.
   */
  @Override
  public org.apache.spark.sql.execution.streaming.Offset latestOffset(Offset start, ReadLimit limit) {
    BetonMicroBatchStream now = stream();
    return now == null ? null : new SerializedOffset(now.latestOffset(fromSpark(start), limit).json());
  }

  @Override
  public Dataset<Row> getBatch(Option<org.apache.spark.sql.execution.streaming.Offset> start,
      org.apache.spark.sql.execution.streaming.Offset end) {
    BetonMicroBatchStream now = stream();
    if (now == null) {
      throw new IllegalStateException("The beton dataset at " + options.get("path") + " is gone: this stream read it"
          + " up to " + end.json() + ". Start a new query (a new checkpointLocation) once a dataset is there again");
    }
    InputPartition[] inputs = now.planInputPartitions(fromSpark(start.isDefined() ? start.get() : null),
        fromSpark(end));
    InputPartitionRDD rdd = new InputPartitionRDD(sqlContext.sparkContext(), inputs, now.createReaderFactory());
    Dataset<Row> rows = sqlContext.internalCreateDataFrame(rdd, readSchema, true);
    if (declared == null) {
      return rows;
    }
    return rows.select(Arrays.stream(columns.fields()).map(f -> BetonCatalogRelation.asDeclared(f,
        BetonCatalogRelation.storedType(readSchema, f.name()), options.get("path"))).toArray(Column[]::new));
  }

  /** Spark's offset (ours, or as its checkpoint gave it back) as the stream's; null: where the query starts. */
  private Offset fromSpark(Offset offset) {
    if (offset != null) {
      return stream.deserializeOffset(offset.json());
    }
    if (initial == null) {
      initial = stream.initialOffset();
    }
    return initial;
  }

  /** The stream's lag ({@link BetonMicroBatchStream#metrics}); none while the location holds no dataset yet. */
  @Override
  public java.util.Map<String, String> metrics(java.util.Optional<Offset> latestConsumedOffset) {
    return stream == null ? java.util.Map.of() : stream.metrics(latestConsumedOffset);
  }

  @Override
  public void stop() {
    if (stream != null) {
      stream.stop();
    }
  }

  @Override
  public String toString() {
    return "BetonStreamSource(" + options.get("path") + ")";
  }
}
