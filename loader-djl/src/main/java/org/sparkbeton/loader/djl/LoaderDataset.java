package org.sparkbeton.loader.djl;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.util.Progress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderState;
import org.sparkbeton.loader.pipeline.PlannedPipeline;

/**
 * A {@link Loader} as a DJL {@link Dataset}: {@link #getData(NDManager)} runs the loader's next epoch and yields
 * {@link LoaderBatch}es whose NDArrays wrap the loader's batch slots without a copy (on the PyTorch engine,
 * {@code NDManager.create(directBuffer, shape, type)} is {@code torch::from_blob}). A slot stays the batch's
 * until the batch is closed, as DJL's {@code EasyTrain} does after each step.
 *
 * <p>Everything else is the loader's: order, seed, distributed rank, resume ({@link #state()} to checkpoint,
 * {@code LoaderBuilder.resumeFrom} to resume), augmentations, threads. Progressive resizing: give a
 * {@link SizeSchedule} and the decoder's {@code outputSize}, and each epoch starts at its scheduled size.
 *
 * <pre>{@code
 * RandomResizedCropRgbDecoder rrc = new RandomResizedCropRgbDecoder(160, 160);
 * Loader loader = Loader.builder(Path.of("train.beton")).batchSize(64).order(OrderOption.QUASI_RANDOM).seed(1)
 *     .pipeline("image", rrc, new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT32),
 *         new ToChannelsFirst())
 *     .pipeline("label", new IntDecoder())
 *     .build();
 * try (LoaderDataset train = LoaderDataset.builder(loader).data("image").labels("label")
 *     .optSizeSchedule(SizeSchedule.perEpoch(128, 160, 192), rrc::outputSize).build()) {
 *   EasyTrain.fit(trainer, 3, train, null);
 * }
 * }</pre>
 *
 * <p>An output's NDArray has shape {@code (batch, sample shape...)} and the output's element type; a label output
 * whose samples are {@code [1]} (IntDecoder's int64, FloatDecoder's float64) becomes shape {@code (batch)}, DJL's
 * sparse-label convention. Arrays are created on the CPU (wrapping host memory); with {@link Builder#optDevice}
 * DJL copies them to that device, as its own datasets do, and a trainer on other devices splits and copies them
 * itself. The dataset owns the loader: {@link #close()} closes it; a batch still open then stays readable until it
 * is closed.
 */
public final class LoaderDataset implements Dataset, AutoCloseable {
  private final Loader loader;
  private final List<String> data;
  private final List<String> labels;
  private final Device device;
  private final SizeSchedule schedule;
  private final SizeSchedule.Target scheduleTarget;
  private final Set<SlotLease> open = ConcurrentHashMap.newKeySet();
  private boolean closed;

  private LoaderDataset(Builder b) {
    this.loader = b.loader;
    this.data = List.copyOf(b.data);
    this.labels = List.copyOf(b.labels);
    this.device = b.device;
    this.schedule = b.schedule;
    this.scheduleTarget = b.scheduleTarget;
  }

  public static Builder builder(Loader loader) {
    return new Builder(Objects.requireNonNull(loader, "loader"));
  }

  /**
   * The loader's next epoch as DJL batches; each {@code iterator()} of the result starts one epoch (stopping one
   * still running), like the loader's own. The executor DJL passes is not used: the loader has its own workers.
   */
  @Override
  public Iterable<Batch> getData(NDManager manager) {
    Objects.requireNonNull(manager, "manager");
    return () -> startEpoch(manager);
  }

  private synchronized Iterator<Batch> startEpoch(NDManager manager) {
    if (closed) {
      throw new IllegalStateException("This LoaderDataset is closed");
    }
    // batches of an earlier epoch never closed (a step threw before its close) would hold their slots, and the new
    // epoch would stop at the first batch that needs one: they are closed here, on the thread that starts it
    closeOpenBatches();
    if (schedule != null) {
      int side = schedule.size(loader.nextEpoch());
      scheduleTarget.outputSize(side, side);
    }
    return new EpochBatches(loader.iterator(), new SlotArrays(manager, device, data, labels, loader.length(),
        open::add, open::remove));
  }

  /** Nothing to prepare: the loader opened and planned everything when it was built. */
  @Override
  public void prepare(Progress progress) {}

  /** The loader, for its timings, lengths and options. */
  public Loader loader() {
    return loader;
  }

  /** Batches per epoch. */
  public int length() {
    return loader.length();
  }

  /** The position to save with a checkpoint (see {@link Loader#state()}). */
  public LoaderState state() {
    return loader.state();
  }

  /** DJL batches handed out and not yet closed. */
  public int openBatches() {
    return open.size();
  }

  /**
   * Closes every DJL batch handed out and not yet closed, with the arrays made from them (using one then throws
   * DJL's "released" error); returns how many. The next epoch does this itself; call it from the thread that
   * used the batches (DJL's arrays are not for two threads at once).
   */
  public synchronized int closeOpenBatches() {
    List<SlotLease> leases = new ArrayList<>(open);
    RuntimeException failure = null;
    for (SlotLease lease : leases) {
      try {
        lease.closeBatch();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    return leases.size();
  }

  /**
   * Closes the loader: no epoch starts or goes on after it. A batch still open stays readable, its slot held, until
   * it is closed, which frees the slot's memory: a step may be running over its arrays on another thread (Ctrl-C's
   * shutdown hook, a watchdog), and closing or freeing them under it crashed the JVM. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    loader.close();
  }

  /** One epoch of loader batches as DJL batches. */
  private static final class EpochBatches implements Iterator<Batch> {
    private final Iterator<org.sparkbeton.loader.Batch> epoch;
    private final SlotArrays arrays;

    EpochBatches(Iterator<org.sparkbeton.loader.Batch> epoch, SlotArrays arrays) {
      this.epoch = epoch;
      this.arrays = arrays;
    }

    @Override
    public boolean hasNext() {
      return epoch.hasNext();
    }

    @Override
    public Batch next() {
      return arrays.wrap(epoch.next());
    }
  }

  /** Options of a {@link LoaderDataset}. */
  public static final class Builder {
    private final Loader loader;
    private final List<String> data = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private Device device;
    private SizeSchedule schedule;
    private SizeSchedule.Target scheduleTarget;

    private Builder(Loader loader) {
      this.loader = loader;
    }

    /** Required: the loader outputs that make the batch's data NDList, in this order. */
    public Builder data(String... outputs) {
      data.addAll(List.of(outputs));
      return this;
    }

    /** The loader outputs that make the batch's label NDList, in this order; default none. */
    public Builder labels(String... outputs) {
      labels.addAll(List.of(outputs));
      return this;
    }

    /** Pins every batch to {@code device} (DJL copies it there, as {@code RandomAccessDataset.optDevice}); default: the CPU, no copy. */
    public Builder optDevice(Device device) {
      this.device = device;
      return this;
    }

    /** Progressive resizing: before each epoch, {@code target} (a crop decoder's {@code outputSize}) gets the epoch's side. */
    public Builder optSizeSchedule(SizeSchedule schedule, SizeSchedule.Target target) {
      this.schedule = Objects.requireNonNull(schedule, "schedule");
      this.scheduleTarget = Objects.requireNonNull(target, "target");
      return this;
    }

    public LoaderDataset build() {
      if (data.isEmpty()) {
        throw new IllegalArgumentException("Name the loader outputs that make a batch's data with data(...); outputs are "
            + outputNames());
      }
      List<String> seen = new ArrayList<>();
      for (String output : concat(data, labels)) {
        if (!outputNames().contains(output)) {
          throw new IllegalArgumentException("No loader output '" + output + "'; outputs are " + outputNames());
        }
        if (seen.contains(output)) {
          throw new IllegalArgumentException("Loader output '" + output + "' is named twice in data/labels");
        }
        seen.add(output);
      }
      return new LoaderDataset(this);
    }

    private List<String> outputNames() {
      List<String> names = new ArrayList<>();
      for (PlannedPipeline p : loader.pipelines()) {
        names.add(p.output());
      }
      return names;
    }

    private static List<String> concat(List<String> a, List<String> b) {
      List<String> all = new ArrayList<>(a);
      all.addAll(b);
      return all;
    }
  }
}
