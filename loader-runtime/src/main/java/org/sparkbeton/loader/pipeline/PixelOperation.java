package org.sparkbeton.loader.pipeline;

/**
 * An {@link Operation} that also has a per-pixel form, so the planner can run it together with its
 * neighbours in one pass per sample (pixel-level fusion): the decoder's uint8 RGB image is read once and
 * the final tensor (flipped, normalized, channels-first...) written once, straight into the batch slot.
 * {@link #plan} stays the operation's one-pass-per-op form ({@code LoaderBuilder.fuse(false)}); both
 * forms must give the same bytes. Built-in: {@code RandomHorizontalFlip} (a coordinate mapping),
 * {@code NormalizeImage} (a value mapping and conversion), {@code ToChannelsFirst} (an output layout);
 * user operations take part by implementing this interface.
 */
public interface PixelOperation extends Operation {

  /**
   * The per-pixel form of this operation on {@code input}, or null if it has none for that input (the
   * operation then runs on its own, through {@link #plan}). Called once per worker thread (and once
   * more while planning), so a stage may keep per-sample state from {@link PixelStage#begin}.
   */
  PixelStage planPixels(TensorSpec input);
}
