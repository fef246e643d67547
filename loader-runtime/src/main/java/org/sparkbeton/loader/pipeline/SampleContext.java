package org.sparkbeton.loader.pipeline;

/**
 * What an operation knows about the sample it is processing. One instance per worker thread and
 * pipeline, reused for every sample: operations must not keep it.
 */
public final class SampleContext {
  private final long seed;
  private final int worker;
  private final SampleRandom random = new SampleRandom();
  private int pipeline;
  private int epoch;
  private long sample;
  private int position;
  private int length;
  private int stage;

  public SampleContext(long seed) {
    this(seed, 0);
  }

  /** The context of worker thread {@code worker} (index of its per-worker {@link StageMemory} scratch). */
  public SampleContext(long seed, int worker) {
    if (worker < 0) {
      throw new IllegalArgumentException("Worker index must be >= 0, got " + worker);
    }
    this.seed = seed;
    this.worker = worker;
  }

  /** The worker thread running this context: stages index their per-worker scratch with it. */
  public int worker() {
    return worker;
  }

  /** Called by the loader before each sample. */
  public void begin(int pipeline, int epoch, long sample, int position) {
    this.pipeline = pipeline;
    this.epoch = epoch;
    this.sample = sample;
    this.position = position;
    this.length = -1;
  }

  public int epoch() {
    return epoch;
  }

  /** Index of the sample in the dataset. */
  public long sample() {
    return sample;
  }

  /** Position of the sample inside its batch. */
  public int position() {
    return position;
  }

  /** Called by the loader before each step of the pipeline (0 = decoder, 1.. = operations). */
  public void enterStage(int stage) {
    this.stage = stage;
  }

  /**
   * The generator of the current step, positioned at the start of the stream for (seed, epoch,
   * sample, pipeline, step): a sample's draws depend on nothing else. Calling it again restarts the
   * same stream, so call it once per sample and keep drawing from the result.
   */
  public SampleRandom random() {
    random.reset(seed, epoch, sample, ((long) pipeline << 16) | stage);
    return random;
  }

  /** The current step: 0 while the decoder runs, then the operation's 1-based position. */
  public int stage() {
    return stage;
  }

  /** Records the sample's valid length for variable-size outputs (bytes decoders). */
  public void setLength(int length) {
    this.length = length;
  }

  public int length() {
    return length;
  }
}
