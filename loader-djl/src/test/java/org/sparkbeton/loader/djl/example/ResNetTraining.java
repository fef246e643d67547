package org.sparkbeton.loader.djl.example;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.basicmodelzoo.cv.classification.ResNetV1;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.djl.LoaderDataset;
import org.sparkbeton.loader.djl.SizeSchedule;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/**
 * Trains DJL's {@link ResNetV1} on a {@code .beton} of labelled images fed by {@link LoaderDataset}: random resized
 * crops with flips for training, centre crops for the held-out split, both at the epoch's side from a
 * {@link SizeSchedule} (progressive resizing). Each epoch reports loss, accuracy, images/s and how much of the
 * step time was spent waiting for the next batch. Used by {@link TrainResNet} and the suite's training test.
 */
public final class ResNetTraining implements AutoCloseable {
  /** ImageNet's mean and standard deviation in 0..255 units (NormalizeImage's units). */
  static final double[] MEAN = {123.675, 116.28, 103.53};
  static final double[] STD = {58.395, 57.12, 57.375};

  /** What to train. */
  public record Options(int classes, int layers, int batchSize, int loaderThreads, SizeSchedule sizes,
                        double minCropScale, float learningRate, long seed) {}

  /** One epoch: training loss and accuracy (over its batches, in training mode), held-out accuracy, timings. */
  public record EpochReport(int epoch, int side, double loss, double trainAccuracy, double heldOutAccuracy,
                            long images, double seconds, double waitSeconds, double cpuSeconds) {
    public double imagesPerSecond() {
      return images / seconds;
    }

    /** Share of the epoch's time spent waiting for the loader's next batch. */
    public double waitShare() {
      return waitSeconds / seconds;
    }

    /** Cores this process kept busy on average (the machine may be shared). */
    public double coresUsed() {
      return cpuSeconds / seconds;
    }

    @Override
    public String toString() {
      return String.format("epoch %d  %3dpx  loss %.3f  train acc %5.1f%%  held-out acc %5.1f%%  %6.1f img/s"
              + "  waiting for data %4.1f%%  %.1f s (%.2f cores busy)", epoch, side, loss, 100 * trainAccuracy,
          100 * heldOutAccuracy, imagesPerSecond(), 100 * waitShare(), seconds, coresUsed());
    }
  }

  private final Options options;
  private final LoaderDataset train;
  private final LoaderDataset heldOut;
  private final Model model;
  private final Trainer trainer;
  private int epoch;

  public ResNetTraining(Path trainFile, Path heldOutFile, Options o) throws IOException {
    this.options = o;
    RandomResizedCropRgbDecoder rrc = new RandomResizedCropRgbDecoder(o.sizes().size(0), o.sizes().size(0),
        o.minCropScale(), 1.0, 3.0 / 4, 4.0 / 3);
    Loader trainLoader = Loader.builder(trainFile).batchSize(o.batchSize()).numThreads(o.loaderThreads())
        .order(OrderOption.QUASI_RANDOM).seed(o.seed())
        .pipeline("image", rrc, new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT32),
            new ToChannelsFirst())
        .pipeline("label", new IntDecoder())
        .build();
    this.train = LoaderDataset.builder(trainLoader).data("image").labels("label")
        .optSizeSchedule(o.sizes(), rrc::outputSize).build();
    CenterCropRgbDecoder center = new CenterCropRgbDecoder(o.sizes().size(0), o.sizes().size(0), 1.0);
    Loader heldOutLoader = Loader.builder(heldOutFile).batchSize(o.batchSize()).numThreads(o.loaderThreads())
        .dropLast(false)
        .pipeline("image", center, new NormalizeImage(MEAN, STD, DType.FLOAT32), new ToChannelsFirst())
        .pipeline("label", new IntDecoder())
        .build();
    this.heldOut = LoaderDataset.builder(heldOutLoader).data("image").labels("label")
        .optSizeSchedule(o.sizes(), center::outputSize).build();

    ai.djl.engine.Engine.getInstance().setRandomSeed((int) o.seed());
    this.model = Model.newInstance("resnet" + o.layers(), Device.cpu());
    int side = o.sizes().maxSize();
    model.setBlock(ResNetV1.builder().setImageShape(new Shape(3, side, side)).setNumLayers(o.layers())
        .setOutSize(o.classes()).build());
    DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
        .optOptimizer(Optimizer.adam().optLearningRateTracker(Tracker.fixed(o.learningRate())).build())
        .optDevices(new Device[] {Device.cpu()});
    this.trainer = model.newTrainer(config);
    trainer.initialize(new Shape(1, 3, o.sizes().size(0), o.sizes().size(0)));
  }

  /** Trains one epoch, then measures accuracy on the held-out split. */
  public EpochReport epoch() {
    int side = options.sizes().size(epoch);
    double lossSum = 0;
    long correct = 0;
    long images = 0;
    long waited = 0;
    long start = System.nanoTime();
    long cpuStart = cpuNanos();
    Iterator<Batch> batches = train.getData(trainer.getManager()).iterator();
    while (true) {
      long before = System.nanoTime();
      if (!batches.hasNext()) {
        break;
      }
      Batch batch = batches.next();
      waited += System.nanoTime() - before;
      try (GradientCollector collector = trainer.newGradientCollector()) {
        NDList predictions = trainer.forward(batch.getData(), batch.getLabels());
        NDArray loss = trainer.getLoss().evaluate(batch.getLabels(), predictions);
        collector.backward(loss);
        lossSum += loss.getFloat() * batch.getSize();
        correct += correct(predictions.head(), batch.getLabels().head());
        images += batch.getSize();
      }
      trainer.step();
      batch.close(); // gives the slot back to the loader
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = (cpuNanos() - cpuStart) / 1e9;
    EpochReport report = new EpochReport(epoch, side, lossSum / images, (double) correct / images, heldOutAccuracy(),
        images, seconds, waited / 1e9, cpuSeconds);
    epoch++;
    return report;
  }

  /** Accuracy over the whole held-out split, in inference mode. */
  private double heldOutAccuracy() {
    long correct = 0;
    long total = 0;
    NDManager manager = trainer.getManager();
    for (Batch batch : heldOut.getData(manager)) {
      NDList predictions = trainer.evaluate(batch.getData());
      correct += correct(predictions.head(), batch.getLabels().head());
      total += batch.getSize();
      batch.close();
    }
    return (double) correct / total;
  }

  /** CPU time of the whole process (PyTorch's threads included). */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static long correct(NDArray logits, NDArray labels) {
    return logits.argMax(1).eq(labels).countNonzero().getLong();
  }

  /** The training set's dataset (its loader's timings, state). */
  public LoaderDataset train() {
    return train;
  }

  /** The trainer's NDManager: what the batches' sub-managers hang from. */
  public NDManager manager() {
    return trainer.getManager();
  }

  @Override
  public void close() {
    try {
      trainer.close();
      model.close();
    } finally {
      try {
        train.close();
      } finally {
        heldOut.close();
      }
    }
  }
}
