package org.sparkbeton.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;

/**
 * Runs every notebook of {@code src/main/jshell} in a {@code jshell} subprocess, in name order (02 reads
 * what 01 writes), as {@code bin/beton-notebook} does, and checks: exit status 0, no JShell error report,
 * and the values each notebook printed against what it wrote to disk, read here independently.
 */
class NotebooksTest {
  private static final Path SCRIPTS = JShellRun.MODULE.resolve("src/main/jshell");
  private static final Path WORK = JShellRun.MODULE.resolve("target/test-work");

  /** What each notebook's output must show; a new notebook needs an entry here. */
  private static final Map<String, Consumer<String>> VALUES = Map.of(
      "01-prepare-and-read.jsh", NotebooksTest::prepareAndRead,
      "02-training-loader.jsh", NotebooksTest::trainingLoader,
      "03-ffcv-compatibility.jsh", NotebooksTest::ffcvCompatibility);

  @TestFactory
  Stream<DynamicTest> everyNotebookRunsAndShowsWhatItWrote() throws IOException {
    List<Path> scripts;
    try (Stream<Path> files = Files.list(SCRIPTS)) {
      scripts = files.filter(p -> p.toString().endsWith(".jsh")).sorted().toList();
    }
    assertThat(scripts).as("notebooks in " + SCRIPTS).isNotEmpty();
    deleteRecursively(WORK); // from scratch: nothing a previous run left may satisfy a check
    return scripts.stream().map(script -> DynamicTest.dynamicTest(script.getFileName().toString(), () -> {
      String name = script.getFileName().toString();
      assertThat(VALUES).as("value checks for " + name).containsKey(name);
      JShellRun run = JShellRun.notebook(script, WORK);
      run.assertClean();
      VALUES.get(name).accept(run.output());
    }));
  }

  /** The drawn folder, the manifest and the histogram all agree; the plan reads no shard. */
  private static void prepareAndRead(String out) {
    long drawn = Long.parseLong(group(out, "image folder: \\S+, (\\d+) JPEGs", 1));
    Map<String, Long> perFolder = jpegsPerFolder(WORK.resolve("shapes"));
    assertThat(perFolder.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(drawn);

    DatasetManifest manifest = manifest();
    assertThat(manifest.totalSamples()).as("manifest total_samples").isEqualTo(drawn);
    assertThat(manifest.shards()).as("one shard per write task").hasSize(2);

    Matcher bins = Pattern.compile("(?m)^  label (\\d+) (\\S+) +(\\d+)$").matcher(out);
    Map<String, Long> histogram = new TreeMap<>();
    while (bins.find()) {
      histogram.put(bins.group(2), Long.parseLong(bins.group(3)));
    }
    assertThat(histogram).as("the printed histogram, per class").isEqualTo(perFolder);
    assertThat(section(out, "== Physical Plan ==")).contains("LocalTableScan").doesNotContain("BatchScan");

    Matcher img = find(out, "a (\\w+), (\\d+)x(\\d+), ([\\d,]+) RGB bytes");
    int w = Integer.parseInt(img.group(2));
    int h = Integer.parseInt(img.group(3));
    assertThat(Long.parseLong(img.group(4).replace(",", ""))).isEqualTo(3L * w * h);
    assertThat(Math.max(w, h)).as("longer side after maxResolution 256").isLessThanOrEqualTo(256);
  }

  /** Batch shapes and epoch sizes follow the dataset; the same seed gives the same batch. */
  private static void trainingLoader(String out) {
    long samples = manifest().totalSamples();
    long perEpoch = samples / 64 * 64; // whole batches only
    Matcher shapes = Pattern.compile("(?m)^batch 0: image (\\w+\\[[\\d, ]+\\])").matcher(out);
    List<String> batchShapes = shapes.results().map(m -> m.group(1)).toList();
    assertThat(batchShapes).as("first batch of the crop loader, then of the training loader")
        .containsExactly("uint8[64, 224, 224, 3]", "float16[64, 3, 224, 224]");
    Matcher epochs = Pattern.compile("(?m)^epoch (\\d): (\\d+) images in [\\d.]+ s, (\\d+) images/s$").matcher(out);
    int count = 0;
    while (epochs.find()) {
      count++;
      assertThat(Long.parseLong(epochs.group(2))).as("images in epoch " + epochs.group(1)).isEqualTo(perEpoch);
      assertThat(Long.parseLong(epochs.group(3))).as("images/s").isPositive();
    }
    assertThat(count).as("epochs printed").isEqualTo(2);
    String seed7 = group(out, "seed 7, 2 threads: (\\w+)", 1);
    assertThat(group(out, "seed 7, 1 thread: +(\\w+)", 1)).isEqualTo(seed7);
    assertThat(group(out, "seed 8, 2 threads: (\\w+)", 1)).isNotEqualTo(seed7);
  }

  /** The file the notebook wrote is FFCV's golden file, byte for byte (compared here, not taken from the output). */
  private static void ffcvCompatibility(String out) {
    byte[] ffcv;
    try (InputStream in = new GZIPInputStream(
        Files.newInputStream(JShellRun.ROOT.resolve("beton-core/src/test/resources/golden/jpg_labels.beton.gz")))) {
      ffcv = in.readAllBytes();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    byte[] ours = read(WORK.resolve("jpg_labels.ours.beton"));
    assertThat(Arrays.mismatch(ours, ffcv)).as("first byte where our rewrite differs from FFCV's file").isEqualTo(-1);
    assertThat(group(out, "ours: +[\\d,]+ bytes, sha256 (\\w+)", 1)).isEqualTo(Notebook.sha256(ffcv));
    long n;
    try (BetonReader r = BetonReader.open(WORK.resolve("jpg_labels.beton"))) {
      n = r.numSamples();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThat(group(out, "(\\d+ of \\d+) samples equal FFCV's values", 1)).isEqualTo(n + " of " + n);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static DatasetManifest manifest() {
    try {
      return DatasetManifest.parse(Files.readString(WORK.resolve("shapes-beton/_manifest.json")));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static Map<String, Long> jpegsPerFolder(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".jpg")).collect(Collectors.groupingBy(
          p -> p.getParent().getFileName().toString(), TreeMap::new, Collectors.counting()));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] read(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static Matcher find(String out, String regex) {
    Matcher m = Pattern.compile(regex).matcher(out);
    if (!m.find()) {
      fail("No line matching /" + regex + "/ in the notebook's output:\n" + out);
    }
    return m;
  }

  private static String group(String out, String regex, int group) {
    return find(out, regex).group(group);
  }

  /** The lines from the one starting with {@code header} to the next empty line. */
  private static String section(String out, String header) {
    int at = out.indexOf(header);
    assertThat(at).as("'" + header + "' in the output").isNotNegative();
    int end = out.indexOf("\n\n", at);
    return out.substring(at, end < 0 ? out.length() : end);
  }
}
