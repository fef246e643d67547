package org.sparkbeton.loader.djl.bench;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.basicdataset.cv.classification.ImageFolder;
import ai.djl.modality.cv.BufferedImageFactory;
import ai.djl.modality.cv.Image;
import ai.djl.modality.cv.ImageFactory;
import ai.djl.modality.cv.transform.Normalize;
import ai.djl.modality.cv.transform.RandomResizedCrop;
import ai.djl.modality.cv.transform.ToTensor;
import ai.djl.modality.cv.util.NDImageUtils;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.pooling.Pool;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.translate.Transform;
import ai.djl.translate.TranslateException;
import ai.djl.util.RandomUtils;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.jpeg.JpegHeader;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.fields.IntField;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.write.BetonWriter;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.djl.LoaderDataset;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/**
 * Data-bound feeding: how many images/s a DJL training step gets when the model is too small to matter (global
 * average pool + one linear layer), fed by {@link LoaderDataset} over a {@code .beton} or by DJL's own
 * {@link ImageFolder} over the same JPEG photos ({@link TestPhotos}), with the closest augmentations: random
 * resized crop (scale 0.08-1, ratio 3/4-4/3) to {@code side}, horizontal flip, normalize to float32 CHW. Both use
 * {@code threads} worker threads; runs alternate in one JVM and the table gives each round's ratio and the median.
 * Also reports the bytes each path copies per batch on its way into the batch's NDArray (see {@link #main}).
 * Arguments {@code key=value}, see {@link #DEFAULTS}.
 */
public final class FeedBenchmark {
  static final Map<String, String> DEFAULTS = Map.of(
      "dir", "target/feed-benchmark",
      "photos", "1024",
      "classes", "10",
      "side", "160",
      "batch", "64",
      "threads", "2",
      "rounds", "3",
      "seed", "11");

  private static final float[] MEAN01 = {0.485f, 0.456f, 0.406f};
  private static final float[] STD01 = {0.229f, 0.224f, 0.225f};

  private final int side;
  private final int batch;
  private final int threads;
  private final int classes;

  private FeedBenchmark(Map<String, String> o) {
    this.side = Integer.parseInt(o.get("side"));
    this.batch = Integer.parseInt(o.get("batch"));
    this.threads = Integer.parseInt(o.get("threads"));
    this.classes = Integer.parseInt(o.get("classes"));
  }

  /** One measured epoch: images trained on, batches, seconds, bytes copied into the batches' NDArrays. */
  record Run(long images, long batches, double seconds, long copiedBytes) {
    double imagesPerSecond() {
      return images / seconds;
    }
  }

  public static void main(String[] args) throws IOException, TranslateException {
    Map<String, String> o = new HashMap<>(DEFAULTS);
    for (String a : args) {
      int eq = a.indexOf('=');
      if (eq < 0 || !DEFAULTS.containsKey(a.substring(0, eq))) {
        throw new IllegalArgumentException("Unknown argument '" + a + "': expected key=value, keys " + DEFAULTS.keySet());
      }
      o.put(a.substring(0, eq), a.substring(eq + 1));
    }
    int n = Integer.parseInt(o.get("photos"));
    long seed = Long.parseLong(o.get("seed"));
    FeedBenchmark bench = new FeedBenchmark(o);
    Path dir = Files.createDirectories(Path.of(o.get("dir")));
    Path folder = dir.resolve("photos-" + n + "-" + bench.classes + "-" + seed);
    Path marker = folder.resolve(".complete");
    if (!Files.exists(marker)) {
      TestPhotos.writeImageFolder(folder, n, bench.classes, seed);
      Files.createFile(marker);
    }
    List<Path> files = imageFolderOrder(folder);
    Path beton = dir.resolve("photos-" + n + "-" + bench.classes + "-" + seed + ".beton");
    long sourcePixels = writeBeton(files, beton);

    int rounds = Integer.parseInt(o.get("rounds"));
    double[] loader = new double[rounds];
    double[] djl = new double[rounds];
    Run lastLoader = null;
    Run lastDjl = null;
    for (int r = 0; r < rounds; r++) { // alternate which goes first, so neither always runs on a warmer JVM
      if (r % 2 == 0) {
        lastLoader = bench.loaderDjl(beton, seed + r);
        lastDjl = bench.imageFolder(folder, seed + r);
      } else {
        lastDjl = bench.imageFolder(folder, seed + r);
        lastLoader = bench.loaderDjl(beton, seed + r);
      }
      loader[r] = lastLoader.imagesPerSecond();
      djl[r] = lastDjl.imagesPerSecond();
      System.out.printf("round %d: loader-djl %.1f img/s, ImageFolder %.1f img/s%n", r, loader[r], djl[r]);
    }

    System.out.printf("%nFeeding DJL (%d photos, %d classes, RRC to %dx%d + flip + normalize, float32 CHW, batch %d,"
            + " %d worker threads, torch threads %s, %d cores)%n", n, bench.classes, bench.side, bench.side,
        bench.batch, bench.threads, System.getProperty("ai.djl.pytorch.num_threads", "default"),
        Runtime.getRuntime().availableProcessors());
    System.out.println("| round | loader-djl img/s | ImageFolder img/s | ratio |");
    System.out.println("|---|---|---|---|");
    double[] ratios = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      ratios[r] = loader[r] / djl[r];
      System.out.printf("| %d | %.1f | %.1f | %.2fx |%n", r, loader[r], djl[r], ratios[r]);
    }
    System.out.printf("| median | %.1f | %.1f | %.2fx |%n", median(loader), median(djl), median(ratios));

    long batchTensor = (long) bench.batch * 3 * bench.side * bench.side * 4;
    System.out.printf("%nBytes copied per batch on the way into the batch's NDArray (the batch tensor is %s; counted"
        + " in the last round):%n", mib(batchTensor));
    System.out.println("| path | bytes copied per batch | copies |");
    System.out.println("|---|---|---|");
    System.out.printf("| loader-djl | %s | none: the NDArray wraps the loader's slot (from_blob), into which the loader"
        + " wrote each sample's final tensor once |%n", mib(lastLoader.copiedBytes() / lastLoader.batches()));
    System.out.printf("| ImageFolder | %s | decoded pixels to an int[] and to a direct buffer (7 B per source pixel,"
        + " %.0f px per photo), the flip's copy, the stack of the batch |%n",
        mib(lastDjl.copiedBytes() / lastDjl.batches()), (double) sourcePixels / files.size());
  }

  /** One epoch of loader-djl batches through a training step of the tiny model. */
  Run loaderDjl(Path beton, long seed) throws IOException {
    Loader loader = Loader.builder(beton).batchSize(batch).numThreads(threads).order(OrderOption.RANDOM).seed(seed)
        .pipeline("image", new RandomResizedCropRgbDecoder(side, side), new RandomHorizontalFlip(),
            new NormalizeImage(new double[] {123.675, 116.28, 103.53}, new double[] {58.395, 57.12, 57.375},
                DType.FLOAT32), new ToChannelsFirst())
        .pipeline("label", new IntDecoder())
        .build();
    try (LoaderDataset ds = LoaderDataset.builder(loader).data("image").labels("label").build()) {
      return train(ds, null, new AtomicLong()); // nothing copies: LoaderDatasetTest.theNdArrayIsTheSlotNotACopy
    }
  }

  /** One epoch of DJL's ImageFolder (threads workers fetch whole batches ahead) through the same step. */
  Run imageFolder(Path folder, long seed) throws IOException, TranslateException {
    RandomUtils.RANDOM.setSeed(seed);
    AtomicLong copied = new AtomicLong();
    ImageFactory plain = ImageFactory.getInstance();
    ImageFactory.setImageFactory(new BufferedImageFactory() {
      @Override
      public Image fromFile(Path path) throws IOException {
        Image image = super.fromFile(path);
        // toNDArray: getRGB into an int[] (4 B/px), then a loop into a direct buffer (3 B/px)
        copied.addAndGet(7L * image.getWidth() * image.getHeight());
        return image;
      }
    });
    ImageFolder ds = ImageFolder.builder().setRepositoryPath(folder).optMaxDepth(2)
        .addTransform(fixedSize(new RandomResizedCrop(side, side)))
        // DJL 0.36's RandomFlipLeftRight computes the flip and returns the unflipped image; this one returns it
        .addTransform(a -> {
          if (RandomUtils.nextFloat() > 0.5) {
            copied.addAndGet(a.size()); // uint8 HWC
            return a.flip(1);
          }
          return a;
        })
        .addTransform(new ToTensor())
        .addTransform(new Normalize(MEAN01, STD01))
        .setSampling(batch, true, true)
        .optPrefetchNumber(2 * threads)
        .build();
    ds.prepare();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      return train(ds, pool, copied);
    } finally {
      pool.shutdownNow();
      ImageFactory.setImageFactory(plain);
    }
  }

  /**
   * DJL 0.36's RandomResizedCrop falls back to a centre crop without a resize when no box of the drawn area and
   * ratio fits, so a batch would mix sizes; resize only those.
   */
  private Transform fixedSize(Transform rrc) {
    return image -> {
      NDArray out = rrc.transform(image);
      Shape s = out.getShape();
      return s.get(0) == side && s.get(1) == side ? out : NDImageUtils.resize(out, side, side);
    };
  }

  /** Trains the tiny model on one epoch; {@code copied} counts the pipeline's copies, the stack is added for DJL's. */
  private Run train(Dataset dataset, ExecutorService pool, AtomicLong copied) throws IOException {
    SequentialBlock tiny = new SequentialBlock().add(Pool.globalAvgPool2dBlock()).add(Blocks.batchFlattenBlock())
        .add(Linear.builder().setUnits(classes).build());
    try (Model model = Model.newInstance("tiny", Device.cpu())) {
      model.setBlock(tiny);
      DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
          .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.01f)).build())
          .optDevices(new Device[] {Device.cpu()});
      try (Trainer trainer = model.newTrainer(config)) {
        trainer.initialize(new Shape(1, 3, side, side));
        long images = 0;
        long batches = 0;
        long start = System.nanoTime();
        Iterable<Batch> epoch = pool == null ? dataset.getData(trainer.getManager())
            : dataset.getData(trainer.getManager(), pool);
        for (Batch b : epoch) {
          try (GradientCollector gc = trainer.newGradientCollector()) {
            NDList out = trainer.forward(b.getData(), b.getLabels());
            NDArray loss = trainer.getLoss().evaluate(b.getLabels(), out);
            gc.backward(loss);
          }
          trainer.step();
          images += b.getSize();
          batches++;
          if (pool != null) { // Batchifier.STACK copied every sample into the batch tensor
            NDArray x = b.getData().head();
            copied.addAndGet(x.size() * x.getDataType().getNumOfBytes());
          }
          b.close();
        }
        return new Run(images, batches, (System.nanoTime() - start) / 1e9, copied.get());
      }
    } catch (TranslateException e) {
      throw new IOException(e);
    }
  }

  /** The photos in ImageFolder's label order: class folders sorted by name, files sorted within. */
  static List<Path> imageFolderOrder(Path folder) throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> classes = Files.list(folder)) {
      for (Path c : classes.filter(Files::isDirectory).sorted().toList()) {
        try (Stream<Path> photos = Files.list(c)) {
          files.addAll(photos.filter(p -> p.toString().endsWith(".jpg")).sorted().toList());
        }
      }
    }
    return files;
  }

  /** The same JPEG bytes into a .beton (label = class folder's index); returns the photos' total pixels. */
  static long writeBeton(List<Path> files, Path beton) throws IOException {
    List<BetonField> fields = List.of(new BetonField("image", RgbImageField.INSTANCE),
        new BetonField("label", IntField.INSTANCE));
    List<Path> classDirs = files.stream().map(Path::getParent).distinct().sorted().toList();
    long pixels = 0;
    JpegHeader header = new JpegHeader();
    try (BetonWriter w = BetonWriter.builder(fields).open(beton); JpegCodec codec = JpegCodecs.fastest()) {
      for (Path f : files) {
        byte[] jpeg = Files.readAllBytes(f);
        codec.probe(ByteBuffer.wrap(jpeg), header);
        pixels += (long) header.width() * header.height();
        w.append(RgbImage.jpeg(header.width(), header.height(), jpeg), (long) classDirs.indexOf(f.getParent()));
      }
      w.finish();
    }
    return pixels;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String mib(long bytes) {
    return bytes < 1024 ? bytes + " B" : String.format("%.1f MiB", bytes / (1024.0 * 1024));
  }
}
