package org.sparkbeton.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.NoSuchElementException;
import org.apache.spark.InterruptibleIterator;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.util.TaskCompletionListener;
import scala.collection.JavaConverters;

/**
 * The rows of a V2 scan's input partitions as an RDD, one RDD partition per input partition, each read by the
 * scan's reader factory and closed when its task completes: how {@link BetonStreamSource} gives Spark's V1
 * streaming API a batch that a V2 stream planned. Each task counts its rows and the bytes its reader read in the
 * task's input metrics (the Stages tab's Input column), as Spark's own scans do; the data source's own metrics
 * (the SQL tab's) have no node to show on in a V1 plan.
 */
final class InputPartitionRDD extends RDD<InternalRow> {
  private static final long serialVersionUID = 1L;

  private final InputPartition[] inputs;
  private final PartitionReaderFactory readers;

  /** One RDD partition: its index, and the input partition it reads. */
  private static final class Slice implements Partition {
    private static final long serialVersionUID = 1L;
    private final int index;
    private final InputPartition input;

    Slice(int index, InputPartition input) {
      this.index = index;
      this.input = input;
    }

    @Override
    public int index() {
      return index;
    }
  }

  // Nil is an empty immutable List: Spark's dependency Seq in Scala 2.12 (collection.Seq) and 2.13 (immutable.Seq)
  @SuppressWarnings({"unchecked", "rawtypes"})
  InputPartitionRDD(SparkContext sc, InputPartition[] inputs, PartitionReaderFactory readers) {
    super(sc, (scala.collection.immutable.List) scala.collection.immutable.Nil$.MODULE$,
        scala.reflect.ClassTag$.MODULE$.apply(InternalRow.class));
    this.inputs = inputs.clone();
    this.readers = readers;
  }

  @Override
  public Partition[] getPartitions() {
    Partition[] out = new Partition[inputs.length];
    for (int i = 0; i < inputs.length; i++) {
      out[i] = new Slice(i, inputs[i]);
    }
    return out;
  }

  @Override
  public scala.collection.immutable.List<String> getPreferredLocations(Partition split) {
    return JavaConverters.asScalaBuffer(Arrays.asList(((Slice) split).input.preferredLocations())).toList();
  }

  @Override
  public scala.collection.Iterator<InternalRow> compute(Partition split, TaskContext context) {
    PartitionReader<InternalRow> reader = readers.createReader(((Slice) split).input);
    org.apache.spark.executor.InputMetrics input = context.taskMetrics().inputMetrics();
    context.addTaskCompletionListener((TaskCompletionListener) done -> {
      input.incBytesRead(bytesRead(reader));
      close(reader);
    });
    return new InterruptibleIterator<>(context, new scala.collection.AbstractIterator<InternalRow>() {
      /** Whether the reader stands on a row that next() has not handed out yet. */
      private boolean ahead;
      private boolean finished;

      @Override
      public boolean hasNext() {
        if (!ahead && !finished) {
          try {
            ahead = reader.next();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          finished = !ahead;
        }
        return ahead;
      }

      @Override
      public InternalRow next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ahead = false;
        input.incRecordsRead(1);
        return reader.get();
      }
    });
  }

  /** The bytes the reader read, from its {@link org.sparkbeton.spark.read.BetonMetrics#BYTES_READ} metric; 0 for a reader without one. */
  private static long bytesRead(PartitionReader<InternalRow> reader) {
    for (org.apache.spark.sql.connector.metric.CustomTaskMetric m : reader.currentMetricsValues()) {
      if (m.name().equals(org.sparkbeton.spark.read.BetonMetrics.BYTES_READ)) {
        return m.value();
      }
    }
    return 0;
  }

  private static void close(PartitionReader<InternalRow> reader) {
    try {
      reader.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
