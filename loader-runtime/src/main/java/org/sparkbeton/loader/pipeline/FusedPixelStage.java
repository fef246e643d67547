package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of consecutive {@link PixelOperation}s planned as one step: one pass per sample from the
 * decoder's uint8 [H, W, 3] image to the run's final tensor ({@link PixelKernel}). Unlike other
 * stages it reads and writes heap or direct buffers alike (rows are moved with bulk gets and puts),
 * so the pipeline feeds it the decoder's direct output and lets it write straight into the batch slot.
 */
final class FusedPixelStage implements Operation.Stage {
  private final List<PixelOperation> ops;
  private final TensorSpec[] inputs;
  private final TensorSpec output;
  private final int firstStep;
  private final PixelKernel[] perWorker;
  private final ThreadLocal<PixelKernel> unplannedWorkers;

  private FusedPixelStage(List<PixelOperation> ops, List<TensorSpec> inputs, List<PixelStage> probes, int firstStep,
      int workers) {
    this.ops = List.copyOf(ops);
    this.inputs = inputs.toArray(new TensorSpec[0]);
    this.output = probes.get(probes.size() - 1).output();
    this.firstStep = firstStep;
    this.perWorker = new PixelKernel[workers];
    for (int w = 0; w < workers; w++) {
      perWorker[w] = w == 0 ? new PixelKernel(probes.toArray(new PixelStage[0]), this.inputs[0], firstStep) : kernel();
    }
    this.unplannedWorkers = workers == 0 ? ThreadLocal.withInitial(this::kernel) : null;
  }

  /**
   * The longest run of pixel operations starting at {@code ops[from]} on {@code input}, or null if
   * {@code ops[from]} cannot start one (not a {@link PixelOperation}, no per-pixel form for this input,
   * or the input is not a uint8 [H, W, 3] image). The run ends before an operation without a per-pixel
   * form and after a layout change.
   */
  static FusedPixelStage plan(String pipeline, List<Operation> ops, int from, TensorSpec input, int workers) {
    if (!input.isImage(DType.UINT8, 3)) {
      return null;
    }
    List<PixelOperation> run = new ArrayList<>();
    List<TensorSpec> inputs = new ArrayList<>();
    List<PixelStage> probes = new ArrayList<>();
    TensorSpec current = input;
    for (int i = from; i < ops.size() && ops.get(i) instanceof PixelOperation op; i++) {
      PixelStage stage;
      try {
        stage = op.planPixels(current);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Pipeline '" + pipeline + "', step " + (i + 1) + " (" + op.name() + ") on "
            + current + ": " + e.getMessage(), e);
      }
      if (stage == null) {
        break;
      }
      checkOutput(pipeline, i, op, current, stage);
      run.add(op);
      inputs.add(current);
      probes.add(stage);
      current = stage.output();
      if (stage.channelsFirst()) {
        break;
      }
    }
    return run.isEmpty() ? null : new FusedPixelStage(run, inputs, probes, from + 1, workers);
  }

  private static void checkOutput(String pipeline, int i, PixelOperation op, TensorSpec in, PixelStage stage) {
    TensorSpec out = stage.output();
    DType t = out.dtype();
    boolean typeOk = t == DType.UINT8 || t == DType.FLOAT16 || t == DType.FLOAT32;
    boolean shapeOk = stage.channelsFirst()
        ? out.rank() == 3 && out.dim(0) == 3 && out.dim(1) == in.dim(0) && out.dim(2) == in.dim(1)
        : out.rank() == 3 && out.dim(0) == in.dim(0) && out.dim(1) == in.dim(1) && out.dim(2) == 3;
    if (!typeOk || !shapeOk) {
      throw new IllegalArgumentException("Pipeline '" + pipeline + "', step " + (i + 1) + " (" + op.name() + ") on "
          + in + ": its pixel stage declares " + out + "; a pixel stage keeps the [H, W, 3] shape (or writes [3, H, W]"
          + " when channelsFirst) and outputs uint8, float16 or float32");
    }
  }

  /** A kernel with stages of its own (each worker's stages may keep per-sample state). */
  private PixelKernel kernel() {
    PixelStage[] stages = new PixelStage[ops.size()];
    for (int k = 0; k < stages.length; k++) {
      stages[k] = ops.get(k).planPixels(inputs[k]);
    }
    return new PixelKernel(stages, inputs[0], firstStep);
  }

  /** Operations fused into this step, in order. */
  int length() {
    return ops.size();
  }

  /** {@code fused(A + B)}, or {@code fused(A + B; coordinates in the decoder)} when a decoder applies its mapping. */
  String describe(boolean coordinatesInDecoder) {
    StringBuilder b = new StringBuilder("fused(");
    for (int i = 0; i < ops.size(); i++) {
      b.append(i == 0 ? "" : " + ").append(ops.get(i).name());
    }
    return b.append(coordinatesInDecoder ? "; coordinates in the decoder)" : ")").toString();
  }

  @Override
  public TensorSpec output() {
    return output;
  }

  @Override
  public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
    kernel(ctx).run(in, inOffset, out, outOffset, ctx);
  }

  /** The calling worker's kernel, for a pipeline that splits a run around a mapping decoder. */
  PixelKernel kernel(SampleContext ctx) {
    return unplannedWorkers == null ? perWorker[ctx.worker()] : unplannedWorkers.get();
  }
}
