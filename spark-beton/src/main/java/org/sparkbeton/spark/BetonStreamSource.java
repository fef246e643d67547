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
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.sql.execution.streaming.SerializedOffset;
import org.apache.spark.sql.execution.streaming.Source;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
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
 */
final class BetonStreamSource implements Source, SupportsTriggerAvailableNow {
  private final SQLContext sqlContext;
  private final BetonMicroBatchStream stream;
  /** The rows the stream's readers give: the dataset's columns. */
  private final StructType readSchema;
  /** The rows of this source: the catalog's columns, or null where none were declared (the dataset's, as read). */
  private final StructType declared;
  /** Where the query starts when its checkpoint holds no offset of this source: taken once, at the first ask. */
  private Offset initial;

  private BetonStreamSource(SQLContext sqlContext, BetonMicroBatchStream stream, StructType readSchema,
      StructType declared) {
    this.sqlContext = sqlContext;
    this.stream = stream;
    this.readSchema = readSchema;
    this.declared = declared;
  }

  /**
   * The rows of the stream of the dataset at the {@code path} among {@code options}: the columns {@code declared}
   * (the catalog's; each must be a field of the dataset) with the dataset's field metadata, or, where null, the
   * dataset's.
   */
  static StructType schema(Map<String, String> options, StructType declared) {
    return columns(load(options), declared);
  }

  private static StructType columns(BetonTable table, StructType declared) {
    StructType stored = table.schema();
    if (declared == null) {
      return stored;
    }
    BetonCatalogRelation.requireColumns(declared, stored, table.inputs().root());
    return BetonCatalogRelation.annotated(declared, stored);
  }

  /** The source of a query whose checkpoint keeps this source's state under {@code metadataPath}. */
  static BetonStreamSource open(SQLContext sqlContext, String metadataPath, Map<String, String> options,
      StructType declared) {
    BetonTable table = load(options);
    Scan scan = table.newScanBuilder(readOptions(options)).build();
    BetonMicroBatchStream stream = (BetonMicroBatchStream) scan.toMicroBatchStream(metadataPath);
    StructType columns = declared == null ? null : columns(table, declared);
    return new BetonStreamSource(sqlContext, stream, scan.readSchema(), columns);
  }

  private static BetonTable load(Map<String, String> options) {
    CaseInsensitiveStringMap read = readOptions(options);
    String path = read.get("path");
    if (path != null && BetonProvider.inspect(path, read).state() == DatasetDirectory.State.LEFTOVERS) {
      // the batch read's message would suggest a glob of shards, which a stream cannot read
      throw new IllegalArgumentException("No beton dataset at " + path + " yet: the directory holds no published"
          + " manifest (nothing was written there, or only a write that failed). A stream reads a dataset, then its"
          + " appends: start it once the first write to the path has committed (for a table, its first INSERT)");
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
    return declared == null ? readSchema : declared;
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return stream.getDefaultReadLimit();
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    stream.prepareForTriggerAvailableNow();
  }

  /** Spark asks a source with admission control for {@link #latestOffset(Offset, ReadLimit)}; this answers alike. */
  @Override
  public Option<org.apache.spark.sql.execution.streaming.Offset> getOffset() {
    return Option.apply(latestOffset(null, ReadLimit.allAvailable()));
  }

  /** {@code start} is null before this query's first batch, else the last offset Spark recorded for this source. */
  @Override
  public org.apache.spark.sql.execution.streaming.Offset latestOffset(Offset start, ReadLimit limit) {
    return new SerializedOffset(stream.latestOffset(fromSpark(start), limit).json());
  }

  @Override
  public Dataset<Row> getBatch(Option<org.apache.spark.sql.execution.streaming.Offset> start,
      org.apache.spark.sql.execution.streaming.Offset end) {
    InputPartition[] inputs = stream.planInputPartitions(fromSpark(start.isDefined() ? start.get() : null),
        fromSpark(end));
    InputPartitionRDD rdd = new InputPartitionRDD(sqlContext.sparkContext(), inputs, stream.createReaderFactory());
    Dataset<Row> rows = sqlContext.internalCreateDataFrame(rdd, readSchema, true);
    if (declared == null) {
      return rows;
    }
    return rows.select(Arrays.stream(declared.fields()).map(BetonCatalogRelation::asDeclared).toArray(Column[]::new));
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

  @Override
  public void stop() {
    stream.stop();
  }

  @Override
  public String toString() {
    return "BetonStreamSource(" + schema().simpleString() + ")";
  }
}
