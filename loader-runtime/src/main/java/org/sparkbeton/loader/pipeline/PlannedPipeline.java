package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One output's decoder and operations, bound to their specs before any data is read. A sample runs
 * through all steps in one go on one thread (sample-level fusion): the decoder writes into one of
 * two per-thread scratch buffers, each operation reads one and writes the other (or works in place),
 * so a sample's data stays in the core's cache from decode to the end; one copy then puts the result
 * into the batch slot. Scratch buffers are heap buffers with arrays, so operations can run plain
 * array loops, which the JIT compiles far better than per-byte calls on direct buffers. Without
 * operations the decoder writes straight into the slot. No allocation, boxing or locking per sample.
 *
 * <p>With pixel fusion (the default), each run of consecutive {@link PixelOperation}s on a uint8 RGB
 * image becomes one step, one pass per sample ({@link FusedPixelStage}); a run right after the decoder
 * reads the decoder's output from per-worker direct memory (so a native decoder and resizer can write
 * it), and a run at the end writes straight into the batch slot, skipping the final copy. When the
 * decoder is a {@link Decoder.MappingStage} (the resizing crop decoders), it also takes over the first
 * run's coordinate mapping (flips): a run that only moves pixels then costs nothing at all, the decoder
 * writing the slot itself, and any other run is left with values and layout.
 */
public final class PlannedPipeline {
  private final String output;
  private final String field;
  private final int index;
  private final Decoder.Stage decoder;
  private final Decoder.MappingStage mappingDecoder; // non-null: it applies the first fused run's mapping
  private final Operation.Stage[] stages;
  private final int[] steps; // pipeline step (1-based operation index) where each stage starts
  private final ByteBuffer[] decoded; // per worker: direct decoder output for a fused first stage, else null
  private final boolean lastWritesSlot;
  private final BatchOperation.BatchStage[] tail;
  private final TensorSpec rowSpec;
  private final TensorSpec spec;
  private final int scratchBytes;

  private PlannedPipeline(String output, String field, int index, Decoder.Stage decoder, Operation.Stage[] stages,
                          int[] steps, BatchOperation.BatchStage[] tail, StageMemory memory) {
    this.output = output;
    this.field = field;
    this.index = index;
    this.decoder = decoder;
    this.stages = stages;
    this.steps = steps;
    this.tail = tail;
    boolean fusedFirst = stages.length > 0 && stages[0] instanceof FusedPixelStage;
    this.decoded = fusedFirst && memory.workers() > 0 ? new ByteBuffer[memory.workers()] : null;
    for (int w = 0; decoded != null && w < decoded.length; w++) {
      decoded[w] = memory.direct(decoder.output().bytes(), "pipeline '" + output + "' decoded sample, worker " + w);
    }
    this.lastWritesSlot = stages.length > 0 && stages[stages.length - 1] instanceof FusedPixelStage;
    this.mappingDecoder = fusedFirst && decoder instanceof Decoder.MappingStage m ? m : null;
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

  /** As above, with the loader's off-heap per-worker memory offered to the stages, pixel operations fused. */
  public static PlannedPipeline plan(int index, String output, FieldSource field, Decoder decoder, List<Operation> ops,
                                     List<BatchOperation> batchOps, StageMemory memory) {
    return plan(index, output, field, decoder, ops, batchOps, memory, true);
  }

  /**
   * As above; {@code fuse} false runs every operation on its own, one pass each (the reference the
   * fused form must match bit for bit, and the benchmark's baseline).
   */
  public static PlannedPipeline plan(int index, String output, FieldSource field, Decoder decoder, List<Operation> ops,
                                     List<BatchOperation> batchOps, StageMemory memory, boolean fuse) {
    Decoder.Stage d;
    try {
      d = decoder.plan(field, memory);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Pipeline '" + output + "', decoder " + decoder.name() + ": " + e.getMessage(), e);
    }
    List<Operation.Stage> stages = new ArrayList<>();
    List<Integer> steps = new ArrayList<>();
    TensorSpec current = d.output();
    for (int i = 0; i < ops.size(); ) {
      FusedPixelStage fused = fuse ? FusedPixelStage.plan(output, ops, i, current, memory.workers()) : null;
      if (fused != null) {
        stages.add(fused);
        steps.add(i + 1);
        current = fused.output();
        i += fused.length();
        continue;
      }
      Operation op = ops.get(i);
      Operation.Stage stage;
      try {
        stage = op.plan(current);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Pipeline '" + output + "', step " + (i + 1) + " (" + op.name() + ") on "
            + current + ": " + e.getMessage(), e);
      }
      if (stage.inPlace() && stage.output().bytes() != current.bytes()) {
        throw new IllegalArgumentException("Pipeline '" + output + "', step " + (i + 1) + " (" + op.name()
            + ") claims to work in place but turns " + current + " into " + stage.output());
      }
      stages.add(stage);
      steps.add(i + 1);
      current = stage.output();
      i++;
    }
    BatchOperation.BatchStage[] tail = new BatchOperation.BatchStage[batchOps.size()];
    for (int i = 0; i < tail.length; i++) {
      BatchOperation op = batchOps.get(i);
      int step = ops.size() + i + 1;
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
    return new PlannedPipeline(output, field.name(), index, d, stages.toArray(new Operation.Stage[0]),
        steps.stream().mapToInt(Integer::intValue).toArray(), tail, memory);
  }

  /**
   * The per-sample steps as planned, for logs and tests: each operation's stage class, or
   * {@code fused(A + B + ...)} for a fused run of pixel operations, {@code fused(A + B; coordinates
   * in the decoder)} when the decoder applies the run's coordinate mapping.
   */
  public List<String> describeSteps() {
    List<String> out = new ArrayList<>();
    for (Operation.Stage st : stages) {
      out.add(st instanceof FusedPixelStage f ? f.describe(out.isEmpty() && mappingDecoder != null)
          : st.getClass().getName());
    }
    return out;
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
    ByteBuffer cur = decoded != null ? decoded[ctx.worker()] : a;
    PixelKernel mapped = null; // the first run's kernel, begun, when the decoder applies its mapping
    if (mappingDecoder != null) {
      mapped = ((FusedPixelStage) stages[0]).kernel(ctx);
      mapped.begin(ctx); // the run's draws come from its own steps' streams: order does not matter
      ctx.enterStage(0);
      if (n == 1 && lastWritesSlot && mapped.copiesMappedInput()) {
        mappingDecoder.decode(sample, out, outOffset, ctx, mapped.columnMap(), mapped.rowMap());
        if (nanos != null) {
          nanos[0] += System.nanoTime() - t0;
        }
        return;
      }
      mappingDecoder.decode(sample, cur, 0, ctx, mapped.columnMap(), mapped.rowMap());
    } else {
      decoder.decode(sample, cur, 0, ctx);
    }
    long t1 = nanos == null ? 0 : System.nanoTime();
    ByteBuffer spare = cur == a ? b : a;
    int last = lastWritesSlot ? n - 1 : n;
    for (int i = 0; i < last; i++) {
      Operation.Stage stage = stages[i];
      ctx.enterStage(steps[i]);
      if (i == 0 && mapped != null) {
        mapped.pass(cur, 0, spare, 0, true);
        cur = spare;
        spare = cur == a ? b : a;
      } else if (stage.inPlace()) {
        stage.apply(cur, 0, cur, 0, ctx);
      } else {
        stage.apply(cur, 0, spare, 0, ctx);
        cur = spare;
        spare = cur == a ? b : a; // never the direct decoder output: unfused stages get heap arrays
      }
    }
    if (lastWritesSlot && n == 1 && mapped != null) {
      mapped.pass(cur, 0, out, outOffset, true);
    } else if (lastWritesSlot) {
      ctx.enterStage(steps[n - 1]);
      stages[n - 1].apply(cur, 0, out, outOffset, ctx);
    } else {
      out.put(outOffset, cur, 0, rowSpec.bytes());
    }
    if (nanos != null) {
      nanos[0] += t1 - t0;
      nanos[1] += System.nanoTime() - t1;
    }
  }
}
