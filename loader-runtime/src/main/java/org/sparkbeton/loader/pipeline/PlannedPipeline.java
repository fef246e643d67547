package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * One output's decoder and operations, bound to their specs before any data is read. A sample runs
 * through all steps in one go on one thread (sample-level fusion): the decoder writes into one of
 * two per-thread scratch buffers, each operation reads one and writes the other (or works in place),
 * so a sample's data stays in the core's cache from decode to the end; one copy then puts the result
 * into the batch slot. Scratch buffers are heap buffers with arrays, so operations can run plain
 * array loops, which the JIT compiles far better than per-byte calls on direct buffers. Without
 * operations the decoder writes straight into the slot. No allocation, boxing or locking per sample.
 */
public final class PlannedPipeline {
  private final String output;
  private final String field;
  private final int index;
  private final Decoder.Stage decoder;
  private final Operation.Stage[] stages;
  private final BatchOperation.BatchStage[] tail;
  private final TensorSpec rowSpec;
  private final TensorSpec spec;
  private final int scratchBytes;

  private PlannedPipeline(String output, String field, int index, Decoder.Stage decoder, Operation.Stage[] stages,
                          BatchOperation.BatchStage[] tail) {
    this.output = output;
    this.field = field;
    this.index = index;
    this.decoder = decoder;
    this.stages = stages;
    this.tail = tail;
    this.rowSpec = stages.length == 0 ? decoder.output() : stages[stages.length - 1].output();
    this.spec = tail.length == 0 ? rowSpec : tail[tail.length - 1].output();
    int scratch = stages.length == 0 ? 0 : decoder.output().bytes();
    for (int i = 0; i < stages.length; i++) {
      scratch = Math.max(scratch, stages[i].output().bytes());
    }
    this.scratchBytes = scratch;
  }

  /**
   * Plans {@code decoder} then each operation in turn; a refusal is rethrown naming the output, the
   * step and the input it got.
   */
  public static PlannedPipeline plan(int index, String output, FieldSource field, Decoder decoder, List<Operation> ops) {
    return plan(index, output, field, decoder, ops, List.of());
  }

  /** As above, followed by batch operations (the pipeline's tail). */
  public static PlannedPipeline plan(int index, String output, FieldSource field, Decoder decoder, List<Operation> ops,
                                     List<BatchOperation> batchOps) {
    return plan(index, output, field, decoder, ops, batchOps, StageMemory.NONE);
  }

  /** As above, with the loader's off-heap per-worker memory offered to the stages. */
  public static PlannedPipeline plan(int index, String output, FieldSource field, Decoder decoder, List<Operation> ops,
                                     List<BatchOperation> batchOps, StageMemory memory) {
    Decoder.Stage d;
    try {
      d = decoder.plan(field, memory);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Pipeline '" + output + "', decoder " + decoder.name() + ": " + e.getMessage(), e);
    }
    Operation.Stage[] stages = new Operation.Stage[ops.size()];
    TensorSpec current = d.output();
    for (int i = 0; i < stages.length; i++) {
      Operation op = ops.get(i);
      try {
        stages[i] = op.plan(current);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Pipeline '" + output + "', step " + (i + 1) + " (" + op.name() + ") on "
            + current + ": " + e.getMessage(), e);
      }
      if (stages[i].inPlace() && stages[i].output().bytes() != current.bytes()) {
        throw new IllegalArgumentException("Pipeline '" + output + "', step " + (i + 1) + " (" + op.name()
            + ") claims to work in place but turns " + current + " into " + stages[i].output());
      }
      current = stages[i].output();
    }
    BatchOperation.BatchStage[] tail = new BatchOperation.BatchStage[batchOps.size()];
    for (int i = 0; i < tail.length; i++) {
      BatchOperation op = batchOps.get(i);
      int step = stages.length + i + 1;
      try {
        tail[i] = op.plan(current);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Pipeline '" + output + "', step " + step + " (" + op.name() + ") on "
            + current + ": " + e.getMessage(), e);
      }
      if (tail[i].inPlace() && tail[i].output().bytes() != current.bytes()) {
        throw new IllegalArgumentException("Pipeline '" + output + "', step " + step + " (" + op.name()
            + ") claims to work in place but turns " + current + " into " + tail[i].output());
      }
      current = tail[i].output();
    }
    return new PlannedPipeline(output, field.name(), index, d, stages, tail);
  }

  public String output() {
    return output;
  }

  public String field() {
    return field;
  }

  /** What each sample looks like after the per-sample steps, before the batch operations. */
  public TensorSpec rowSpec() {
    return rowSpec;
  }

  /** The batch operations that end this pipeline (empty for most). */
  public List<BatchOperation.BatchStage> tail() {
    return List.of(tail);
  }

  /** What each sample of this output looks like in a batch. */
  public TensorSpec spec() {
    return spec;
  }

  /** Bytes each of the two per-thread heap scratch buffers needs (0 when the decoder writes the output). */
  public int scratchBytes() {
    return scratchBytes;
  }

  /**
   * Runs one sample: decode, then every step, ending in {@code out} at {@code outOffset}.
   * {@code a} and {@code b} are this thread's heap scratch buffers (with arrays, little-endian), at
   * least {@link #scratchBytes()} each.
   */
  public void run(long sample, int epoch, int position, SampleContext ctx,
                  ByteBuffer a, ByteBuffer b, ByteBuffer out, int outOffset) {
    run(sample, epoch, position, ctx, a, b, out, outOffset, null);
  }

  /** As above; when {@code nanos} is not null, adds decode time to {@code nanos[0]} and the rest to {@code nanos[1]}. */
  public void run(long sample, int epoch, int position, SampleContext ctx,
                  ByteBuffer a, ByteBuffer b, ByteBuffer out, int outOffset, long[] nanos) {
    ctx.begin(index, epoch, sample, position);
    ctx.enterStage(0);
    int n = stages.length;
    long t0 = nanos == null ? 0 : System.nanoTime();
    if (n == 0) {
      decoder.decode(sample, out, outOffset, ctx);
      if (nanos != null) {
        nanos[0] += System.nanoTime() - t0;
      }
      return;
    }
    decoder.decode(sample, a, 0, ctx);
    long t1 = nanos == null ? 0 : System.nanoTime();
    ByteBuffer cur = a;
    ByteBuffer spare = b;
    for (int i = 0; i < n; i++) {
      Operation.Stage stage = stages[i];
      ctx.enterStage(i + 1);
      if (stage.inPlace()) {
        stage.apply(cur, 0, cur, 0, ctx);
      } else {
        stage.apply(cur, 0, spare, 0, ctx);
        ByteBuffer t = cur;
        cur = spare;
        spare = t;
      }
    }
    out.put(outOffset, cur, 0, rowSpec.bytes());
    if (nanos != null) {
      nanos[0] += t1 - t0;
      nanos[1] += System.nanoTime() - t1;
    }
  }
}
