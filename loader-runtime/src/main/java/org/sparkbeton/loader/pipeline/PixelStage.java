package org.sparkbeton.loader.pipeline;

/**
 * The per-pixel form of a {@link PixelOperation}, planned for one input (an [H, W, 3] image of uint8,
 * float16 or float32) and used by one worker thread. It describes what it does instead of doing it, so
 * the planner can compose consecutive stages into one loop:
 * <ul>
 *   <li>a <b>coordinate mapping</b> ({@link #mapColumns}, {@link #mapRows}): which input pixel each output
 *       pixel copies (flips, permutations; shape unchanged);
 *   <li>a <b>value mapping</b> ({@link #mapValues}): what each channel value becomes, possibly converted to
 *       another element type ({@link #output()}'s dtype);
 *   <li>an <b>output layout</b> ({@link #channelsFirst}): [H, W, C] written as [C, H, W]; ends a fused run.
 * </ul>
 * A stage may combine the three. Per sample, {@link #begin} runs first (draw randomness there, from
 * {@code ctx.random()}, exactly as the unfused {@code apply} does), then the mappings are asked for.
 */
public interface PixelStage {

  /** Spec of what the stage produces: the input's shape (or [C, H, W] when {@link #channelsFirst}). */
  TensorSpec output();

  /** Per sample, before the mappings: draw this sample's randomness. Must not allocate. */
  default void begin(SampleContext ctx) {}

  /**
   * Coordinate mapping of columns: {@code columns[x]} holds the column of this stage's output that
   * output column x of the fused run reads; replace it by the column of this stage's input that it
   * reads (a flip writes {@code width - 1 - columns[x]}). Values must stay in [0, width).
   */
  default void mapColumns(int[] columns) {}

  /** As {@link #mapColumns}, for rows. */
  default void mapRows(int[] rows) {}

  /**
   * Value mapping: {@code table[c][v]} holds what input value v (0–255) of channel c has become after
   * the earlier stages (exactly, as this stage would read it unfused); replace it by what this stage
   * writes for it. A uint8 output must hold integers in 0–255.
   */
  default void mapValues(float[][] table) {}

  /** True when {@link #mapValues} depends on {@link #begin}'s draws (tables are then rebuilt per sample). */
  default boolean randomValues() {
    return false;
  }

  /** True when the stage writes [C, H, W] (a layout change: the last stage of a fused run). */
  default boolean channelsFirst() {
    return false;
  }
}
