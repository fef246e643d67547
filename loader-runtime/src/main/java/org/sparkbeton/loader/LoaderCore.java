package org.sparkbeton.loader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.sparkbeton.loader.io.BatchStaging;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.memory.BufferAllocator;
import org.sparkbeton.loader.memory.SlotRing;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.PlannedPipeline;
import org.sparkbeton.loader.pipeline.StageMemory;

/**
 * The part of a {@link Loader} its epochs run on and that must be freed: the plan (batch slots, stage memory), the
 * files, the staging, the decoders, the allocator when the loader owns it, and the running epoch's worker threads.
 * It never refers to the {@code Loader}: worker threads reach only this, so a loader dropped without
 * {@link Loader#close()} becomes unreachable, and the {@link Cleaner} then closes this core ({@link #closeWhenUnreachable})
 * and logs one warning. Otherwise {@link Loader#close()} closes it.
 */
final class LoaderCore {
  private static final System.Logger LOG = System.getLogger(Loader.class.getName());
  /** One daemon thread for every loader of the process: it only runs when a loader was dropped unclosed. */
  private static final Cleaner CLEANER = Cleaner.create(r -> {
    Thread t = new Thread(r, "beton-loader-cleaner");
    t.setDaemon(true);
    return t;
  });

  private final LoaderBuilder options;
  private final Shards shards;
  private final BatchStaging staging;
  private final BufferAllocator allocator;
  private final boolean ownsAllocator;
  private final LoaderPlan plan;
  private final ProgressBar progressBar;
  private final BadSamples badSamples = new BadSamples();
  private EpochRun running;
  private boolean closed;
  private final HandedBatches handedBatches = new HandedBatches();

  LoaderCore(LoaderBuilder options, Shards shards, BatchStaging staging, BufferAllocator allocator,
      boolean ownsAllocator) {
    this.options = options;
    this.shards = shards;
    this.staging = staging;
    this.allocator = allocator;
    this.ownsAllocator = ownsAllocator;
    this.plan = new LoaderPlan(allocator, options.numThreads, options.batchesAhead + 2, options.batchSize);
    this.progressBar = options.progress == null ? null
        : new ProgressBar(options.progress, options.progressIntervalMillis);
  }

  /**
   * Closes this core once {@code loader} becomes unreachable, unless it was closed first; the returned cleanable
   * runs that check at once when the loader is closed (so that the cleaner no longer holds this core).
   */
  Cleaner.Cleanable closeWhenUnreachable(Loader loader) {
    return CLEANER.register(loader, new Unclosed(this));
  }

  /** The cleaner's action. Static: it must not hold the loader, or the loader would never become unreachable. */
  private static final class Unclosed implements Runnable {
    private final LoaderCore core;

    Unclosed(LoaderCore core) {
      this.core = core;
    }

    @Override
    public void run() {
      try {
        if (core.close(null)) {
          warn(null);
        }
      } catch (RuntimeException | Error e) {
        warn(e); // on the cleaner's thread, where nobody would see it thrown
      }
    }

    private void warn(Throwable closeFailure) {
      LOG.log(System.Logger.Level.WARNING, "A loader over " + core.shards.name() + " was dropped without close():"
          + " its worker threads, off-heap buffers and files were only released when the garbage collector found it"
          + " unreachable. Call close() when done with a loader (try-with-resources), so that they are released at"
          + " once" + (closeFailure == null ? "" : "; releasing them failed: " + closeFailure), closeFailure);
    }
  }

  /** Plans every pipeline (see {@link LoaderPlan#replan}). */
  synchronized void replan(Function<StageMemory, List<PlannedPipeline>> planner) {
    plan.replan(planner);
  }

  /** Frees the plan after a failed build (the builder closes the files and the allocator). */
  synchronized void closePlan() {
    plan.close();
  }

  /** The slots of the batches the consumer may still read; given back as {@link HandedBatches} says. */
  HandedBatches handedBatches() {
    return handedBatches;
  }

  /** The epoch whose workers run now: {@link #close} stops them. */
  synchronized void started(EpochRun run) {
    running = run;
  }

  /**
   * Stops the running epoch's workers, then frees the plan's buffers, the staging, the files, the decoders and,
   * when owned, the allocator (which throws if anything is still allocated). A batch slot a consumer still holds
   * ({@link Batch#retain()}) is freed when it is released, and an owned allocator closed after it. Returns false
   * when closed already. The slots held for the consumer ({@link HandedBatches}) go back unless {@code closer}
   * (null for the cleaner) is another thread than the consumer's, still running.
   */
  boolean close(Thread closer) {
    EpochRun run;
    synchronized (this) {
      if (closed) {
        return false;
      }
      closed = true;
      run = running;
      running = null;
    }
    if (run != null) {
      run.close(); // not under this lock: nothing a worker calls takes it, but it need not be held while they stop
    }
    synchronized (this) {
      // every step runs whatever failed before it; the first failure is thrown, later ones suppressed in it (the
      // owned allocator's leak report, last, often follows from an earlier failure and must not hide it)
      RuntimeException failure = step(null, plan::close);
      if (staging != null) {
        failure = step(failure, staging::close); // before the shards: a remote dataset unmaps and unpins what it staged
      }
      failure = step(failure, shards::close);
      failure = step(failure, this::releaseDecoders);
      if (ownsAllocator) {
        // after the slots that consumers still hold: their memory is freed by their release (SlotRing#close)
        failure = step(failure, () -> plan.whenSlotsFreed(allocator::close));
      }
      failure = step(failure, () -> handedBatches.loaderClosedBy(closer)); // frees the slots, after their ring closed
      if (failure != null) {
        throw failure;
      }
    }
    return true;
  }

  /** One step of {@link #close()}. */
  @FunctionalInterface
  private interface Step {
    void run() throws IOException;
  }

  /** Runs {@code step}; returns the first failure so far ({@code failure}, or this step's), later ones suppressed. */
  private static RuntimeException step(RuntimeException failure, Step step) {
    try {
      step.run();
    } catch (IOException | RuntimeException e) {
      RuntimeException thrown = e instanceof RuntimeException r ? r : new UncheckedIOException((IOException) e);
      if (failure == null) {
        return thrown;
      }
      failure.addSuppressed(thrown);
    }
    return failure;
  }

  /** Each distinct decoder, once. */
  List<Decoder> decoders() {
    Set<Decoder> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Decoder> out = new ArrayList<>();
    for (LoaderBuilder.Spec s : options.specs) {
      if (seen.add(s.decoder())) {
        out.add(s.decoder());
      }
    }
    return out;
  }

  /** Releases each distinct decoder (frees JPEG codec handles once no loader uses them); workers have stopped. */
  private void releaseDecoders() {
    RuntimeException failure = null;
    for (Decoder d : decoders()) {
      try {
        d.release();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = new IllegalStateException("Cannot release decoder " + d.name(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  synchronized List<PlannedPipeline> pipelines() {
    return plan.pipelines();
  }

  synchronized SlotRing ring() {
    return plan.ring();
  }

  synchronized SlotPlan slotPlan() {
    return plan.slotPlan();
  }

  synchronized ByteBuffer[] scratch() {
    return plan.scratch();
  }

  /** Off-heap bytes of the plan: slots and stage memory; 0 once closed. */
  synchronized long planBytes() {
    return plan.offHeapBytes();
  }

  BadSamples badSamples() {
    return badSamples;
  }

  BadSamplePolicy badSamplePolicy() {
    return options.onBadSample;
  }

  /** Records a bad sample of {@code epoch}; {@code substitute} -1 when it is left out. */
  void recordBadSample(int epoch, int batch, int sample, int substitute, String reason) {
    badSamples.add(badSampleEvent(epoch, batch, sample, substitute, reason));
  }

  BadSamples.Event badSampleEvent(int epoch, int batch, int sample, int substitute, String reason) {
    int shard = shards.shardOf(sample);
    return new BadSamples.Event(epoch, batch, sample, shards.reader(shard).file(), sample - shards.start(shard),
        substitute, reason);
  }

  /** The files this loader reads. */
  Shards shards() {
    return shards;
  }

  /** What brings each batch's data in before it is decoded (PROCESS cache, remote shards), or null. */
  BatchStaging staging() {
    return staging;
  }

  /** The progress display, or null when not asked for. */
  ProgressBar progressBar() {
    return progressBar;
  }

  int batchSize() { return options.batchSize; }
  int batchesAhead() { return options.batchesAhead; }
  int numThreads() { return options.numThreads; }
  boolean debug() { return options.debug; }
  boolean profile() { return options.profile; }
  long seed() { return options.seed; }
}
