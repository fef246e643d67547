package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.verify.BetonVerifier;

/**
 * Executes every committed notebook with {@code jupyter nbconvert --to notebook --execute}, in name order (02 reads
 * what 01 writes), from an empty {@code target/test-work}, and checks: no cell error, the executed notebook has
 * every output and picture ({@link NotebookFile#problems}), and what the cells printed against what they wrote to
 * disk, read here independently. Skipped without Jupyter (see {@link TestJupyter}). Timings the notebooks print
 * are never checked.
 */
class NotebooksTest {
  private static final Path WORK = TestJupyter.WORK;

  /** What each notebook's output must show; a new notebook needs an entry here. */
  private static final Map<String, Consumer<String>> VALUES = Map.of(
      "01-prepare-and-look.ipynb", NotebooksTest::prepareAndLook,
      "02-training-loader.ipynb", NotebooksTest::trainingLoader,
      "03-ffcv-compatibility.ipynb", NotebooksTest::ffcvCompatibility,
      "04-bottleneck-doctor.ipynb", NotebooksTest::bottleneckDoctor,
      "05-training-with-djl.ipynb", NotebooksTest::trainingWithDjl);

  /** Skips (or fails) the class without Jupyter. */
  @BeforeAll
  static void jupyter() throws IOException {
    TestJupyter.nbconvert();
  }

  @TestFactory
  Stream<DynamicTest> everyNotebookRunsAndShowsWhatItWrote() throws IOException {
    List<Path> notebooks = Notebooks.committed();
    assertThat(notebooks).as("notebooks in " + Notebooks.MODULE).isNotEmpty();
    TestJupyter.deleteRecursively(WORK); // nothing a previous run left may satisfy a check
    return notebooks.stream().map(notebook -> DynamicTest.dynamicTest(notebook.getFileName().toString(), () -> {
      String name = notebook.getFileName().toString();
      assertThat(VALUES).as("value checks for " + name).containsKey(name);
      Nbconvert.Result r = TestJupyter.execute(notebook);
      if (!r.ok()) {
        fail(name + " failed (nbconvert exit " + r.exitCode() + "):\n" + r.failure());
      }
      NotebookFile executed = NotebookFile.read(r.output());
      assertThat(executed.problems(Notebooks.PICTURES.get(name))).as("problems of the executed " + name).isEmpty();
      VALUES.get(name).accept(executed.stdout());
    }));
  }

  /** The photo folders, the manifest and the label histogram agree; the histogram plan reads no shard. */
  private static void prepareAndLook(String out) {
    Map<String, Long> perFolder = jpegsPerFolder(WORK.resolve("photos"));
    String printed = perFolder.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
    assertThat(group(out, "photos/ per class folder: (\\{.*})", 1)).as("class folders as printed").isEqualTo(printed);
    long photos = perFolder.values().stream().mapToLong(Long::longValue).sum();
    assertThat(perFolder).as("an unbalanced set of classes").hasSizeGreaterThan(1);
    assertThat(perFolder.values().stream().distinct().count()).as("distinct class sizes").isGreaterThan(1);

    DatasetManifest manifest = manifest();
    assertThat(manifest.totalSamples()).as("manifest total_samples").isEqualTo(photos);
    assertThat(manifest.shards()).as("one shard per write task").hasSize(2);

    Matcher bins = Pattern.compile("(?m)^  label (\\d+) (\\S+) +(\\d+)$").matcher(out);
    Map<String, Long> histogram = new TreeMap<>();
    while (bins.find()) {
      histogram.put(bins.group(2), Long.parseLong(bins.group(3)));
    }
    assertThat(histogram).as("the printed histogram, per class").isEqualTo(perFolder);
    assertThat(out).contains("LocalTableScan").doesNotContain("BatchScan");
    assertThat(group(out, "\\[ok] (\\d+) images decoded from the shards", 1))
        .isEqualTo(String.valueOf(6 * perFolder.size()));
  }

  /** Batch shapes follow the pipelines and the resizing schedule; epochs are whole batches of the dataset. */
  private static void trainingLoader(String out) {
    long samples = manifest().totalSamples();
    assertThat(group(out, "(?m)^batch 0 of epoch 0: image (\\S+\\[[\\d, ]+])", 1)).isEqualTo("uint8[16, 224, 224, 3]");
    assertThat(group(out, "(?m)^batches: (.*)$", 1)).isEqualTo("[float16[32, 3, 224, 224]]");
    assertThat(group(out, "every epoch read \\[(\\d+)] images", 1)).isEqualTo(String.valueOf(samples / 32 * 32));
    List<String> resized = Pattern.compile("(?m)^epoch (\\d): image (\\S+\\[[\\d, ]+]),").matcher(out).results()
        .map(m -> m.group(1) + " " + m.group(2)).toList();
    assertThat(resized).containsExactly("0 uint8[32, 96, 96, 3]", "1 uint8[32, 128, 128, 3]",
        "2 uint8[32, 160, 160, 3]", "3 uint8[32, 192, 192, 3]");
    assertThat(Pattern.compile("(?m)^ ?(\\d+) ms step: epoch +\\d+ ms, the training loop waited").matcher(out)
        .results().map(m -> m.group(1)).toList()).containsExactly("0", "20", "60");
    assertThat(out).contains("each of the 16 samples got another crop in epoch 1");
  }

  /** The rewrite is FFCV's file byte for byte, and photos.beton verifies (both read here, not taken from the output). */
  private static void ffcvCompatibility(String out) {
    byte[] ffcv;
    try (InputStream in = new GZIPInputStream(Files.newInputStream(
        Notebooks.MODULE.resolveSibling("beton-core/src/test/resources/golden/jpg_labels.beton.gz")))) {
      ffcv = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] ours = read(WORK.resolve("jpg_labels.ours.beton"));
    assertThat(Arrays.mismatch(ours, ffcv)).as("first byte where our rewrite differs from FFCV's file").isEqualTo(-1);
    assertThat(group(out, "ours: +[\\d,]+ bytes, sha256 (\\w+)", 1)).isEqualTo(Notebook.sha256(ffcv));
    assertThat(group(out, "(\\d+ of \\d+) samples equal FFCV's values", 1)).isEqualTo("40 of 40");
    try (BetonReader r = BetonReader.open(WORK.resolve("photos.beton"))) {
      assertThat(BetonVerifier.verify(r).problems()).as("verifier on photos.beton").isEmpty();
      assertThat(r.numSamples()).isEqualTo(24);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(read(WORK.resolve("open_in_ffcv.py"))).asString().contains("Loader('photos.beton'");
  }

  /**
   * The photos file holds what the notebook printed; each of the three runs names the bound it was set up for; the
   * bench ran its 4 epochs of 384 images.
   */
  private static void bottleneckDoctor(String out) {
    try (BetonReader r = BetonReader.open(WORK.resolve("doctor-photos.beton"))) {
      assertThat(group(out, "doctor-photos.beton: (\\d+) samples", 1)).isEqualTo(String.valueOf(r.numSamples()));
      assertThat(r.numSamples()).isEqualTo(400);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(group(out, "(?m)^bound: (\\w+)$", 1)).isEqualTo("DECODE");
    assertThat(group(out, "(?m)^diagnosis\\n  (.*)$", 1)).startsWith("JPEG decode bounds training: 1 thread delivers");
    assertThat(out).contains("the consumer (your training step) bounds training: it takes 128 img/s")
        .contains("  - the loader is not your bottleneck: it delivers ")
        .contains("storage bounds training: it feeds ")
        .contains("  QUASI_RANDOM with a ");
    assertThat(group(out, "(?m)^\\| epochs 2-4, median \\| ([\\d,]+) \\|", 1)).isNotEmpty();
  }

  /**
   * The class counts printed are the labels in the files written (read here); the DJL batch is the loader's slot and
   * a slot is held until its batch is closed; the batches follow the size schedule; with the fixed seeds the loss
   * falls and held-out accuracy clears chance (20%) by a wide margin.
   */
  private static void trainingWithDjl(String out) {
    assertThat(group(out, "train\\.beton per class: (\\{.*})", 1))
        .isEqualTo(labelsPerSource(WORK.resolve("djl/train.beton")));
    assertThat(group(out, "held-out\\.beton per class: (\\{.*})", 1))
        .isEqualTo(labelsPerSource(WORK.resolve("djl/held-out.beton")));
    assertThat(out).contains("the NDArray reads 12345.5", "[ok] a float written into the loader's slot 0 shows in"
        + " batch 0's NDArray", "Batch 3 of epoch 0 needs slot 0, which batch 0 still holds",
        "IllegalStateException: Native resource has been release");

    long trainSamples;
    try (BetonReader r = BetonReader.open(WORK.resolve("djl/train.beton"))) {
      trainSamples = r.numSamples();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long steps = trainSamples / 16;
    assertThat(group(out, "batches of 16: (\\d+) steps an epoch", 1)).isEqualTo(String.valueOf(steps));
    assertThat(group(out, "(?m)^training batches per epoch: (.*)$", 1)).isEqualTo("[float32[16, 3, 16, 16],"
        + " float32[16, 3, 20, 20], float32[16, 3, 24, 24], float32[16, 3, 28, 28]]");
    List<double[]> epochs = Pattern.compile("(?m)^epoch (\\d) +(\\d+)px +loss ([\\d.]+) +train acc +([\\d.]+)%"
        + " +held-out acc +([\\d.]+)%").matcher(out).results().map(m -> new double[] {
            Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)), Double.parseDouble(m.group(5))}).toList();
    assertThat(epochs.stream().map(e -> (int) e[0]).toList()).as("sides per epoch").containsExactly(16, 20, 24, 28);
    double firstLoss = epochs.get(0)[1];
    double lastLoss = epochs.get(epochs.size() - 1)[1];
    assertThat(lastLoss).as("last epoch's loss against half the first's (" + firstLoss + ")")
        .isLessThan(firstLoss / 2);
    assertThat(epochs.get(epochs.size() - 1)[2]).as("held-out accuracy (%) after the last epoch; chance 20")
        .isGreaterThan(80.0);
  }

  /** {photograph=count, ...} in name order, from the labels stored in {@code file}. */
  private static String labelsPerSource(Path file) {
    Map<String, Long> counts = new TreeMap<>();
    try (BetonReader r = BetonReader.open(file)) {
      int label = r.fieldIndex("label");
      for (long s = 0; s < r.numSamples(); s++) {
        counts.merge(TestPhotos.SOURCES.get((int) r.intValue(s, label)), 1L, Long::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counts.toString();
  }

  private static DatasetManifest manifest() {
    try {
      return DatasetManifest.parse(Files.readString(WORK.resolve("photos-beton/_manifest.json")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Long> jpegsPerFolder(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".jpg")).collect(Collectors.groupingBy(
          p -> p.getParent().getFileName().toString(), TreeMap::new, Collectors.counting()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String group(String out, String regex, int group) {
    Matcher m = Pattern.compile(regex).matcher(out);
    if (!m.find()) {
      fail("No line matching /" + regex + "/ in the notebook's output:\n" + out);
    }
    return m.group(group);
  }
}
