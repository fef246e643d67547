package org.sparkbeton.loader.djl.example;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.sparkbeton.loader.djl.SizeSchedule;

/**
 * The runnable example: draws a shapes-on-photos dataset ({@link ShapeScenes}, 8 classes), writes it as
 * {@code .beton} files, and trains DJL's ResNet-18 on the CPU from {@link org.sparkbeton.loader.djl.LoaderDataset}
 * with progressive resizing, printing one line per epoch. Arguments are {@code key=value}; see {@link #DEFAULTS}.
 * Run it as {@code loader-djl/README.md} says (offline DJL, PyTorch unpacked under {@code target/}).
 */
public final class TrainResNet {
  /** Every option and its default. */
  static final Map<String, String> DEFAULTS = Map.ofEntries(
      Map.entry("dir", "target/train-example"), // where the generated .beton files are kept (reused when present)
      Map.entry("train", "6000"),               // training images
      Map.entry("heldOut", "600"),              // held-out images (never trained on)
      Map.entry("epochs", "6"),
      // the side per epoch (progressive resizing; the last repeats). 128,160,192 works too, about 4x slower per image
      Map.entry("sizes", "64,64,80,80,96,96"),
      Map.entry("batch", "32"),
      Map.entry("layers", "18"),                // DJL ResNetV1 depth
      Map.entry("loaderThreads", "1"),
      Map.entry("lr", "0.001"),
      Map.entry("seed", "7"),
      Map.entry("background", "photo"));        // photo: shapes over photo crops with distractors; gradient: the easy set

  private TrainResNet() {}

  public static void main(String[] args) throws IOException {
    Map<String, String> o = parse(args);
    int classes = ShapeScenes.CLASSES.size();
    long seed = Long.parseLong(o.get("seed"));
    int train = Integer.parseInt(o.get("train"));
    int heldOut = Integer.parseInt(o.get("heldOut"));
    Path dir = Files.createDirectories(Path.of(o.get("dir")));
    ShapeScenes.Background background = ShapeScenes.Background.valueOf(o.get("background").toUpperCase(Locale.ROOT));
    String name = "shapes-" + background.name().toLowerCase(Locale.ROOT);
    Path trainFile = dir.resolve(name + "-train-" + train + "-" + seed + ".beton");
    Path heldOutFile = dir.resolve(name + "-heldout-" + heldOut + "-" + seed + ".beton");
    long t0 = System.nanoTime();
    ShapeScenes scenes = new ShapeScenes(seed, ShapeScenes.CLASSES, 200, 280, background);
    if (!Files.exists(trainFile)) {
      scenes.write(trainFile, 0, train);
    }
    if (!Files.exists(heldOutFile)) {
      scenes.write(heldOutFile, 1_000_000, heldOut); // images no training file holds
    }
    System.out.printf("data: %d training and %d held-out images (%d classes, shapes on %ss), ready in %.1f s%n",
        train, heldOut, classes, o.get("background"), (System.nanoTime() - t0) / 1e9);

    int[] sides = Arrays.stream(o.get("sizes").split(",")).mapToInt(Integer::parseInt).toArray();
    ResNetTraining.Options options = new ResNetTraining.Options(classes, Integer.parseInt(o.get("layers")),
        Integer.parseInt(o.get("batch")), Integer.parseInt(o.get("loaderThreads")), SizeSchedule.perEpoch(sides),
        0.35, Float.parseFloat(o.get("lr")), seed);
    System.out.printf("model: DJL ResNetV1-%s, batch %s, Adam lr %s, sides %s, torch threads %s, loader threads %s%n",
        o.get("layers"), o.get("batch"), o.get("lr"), o.get("sizes"),
        System.getProperty("ai.djl.pytorch.num_threads", "default"), o.get("loaderThreads"));
    long start = System.nanoTime();
    ResNetTraining.EpochReport last = null;
    long images = 0;
    try (ResNetTraining training = new ResNetTraining(trainFile, heldOutFile, options)) {
      for (int e = 0; e < Integer.parseInt(o.get("epochs")); e++) {
        last = training.epoch();
        images += last.images();
        System.out.println(last);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("done: held-out accuracy %.1f%% (chance %.1f%%) after %.0f s of training and evaluation,"
            + " %d training images, %.1f img/s overall; peak RSS %d MiB%n", 100 * last.heldOutAccuracy(),
        100.0 / classes, seconds, images, images / seconds, PeakRss.mib());
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> o = new HashMap<>(DEFAULTS);
    for (String a : args) {
      int eq = a.indexOf('=');
      if (eq < 0 || !DEFAULTS.containsKey(a.substring(0, eq))) {
        throw new IllegalArgumentException("Unknown argument '" + a + "': expected key=value with a key of "
            + DEFAULTS.keySet());
      }
      o.put(a.substring(0, eq), a.substring(eq + 1));
    }
    return o;
  }
}
