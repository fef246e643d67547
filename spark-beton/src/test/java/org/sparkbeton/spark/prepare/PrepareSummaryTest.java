package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.Test;

/** The final summary: every file listed or left out accounted for, each number in its place. */
class PrepareSummaryTest {
  static Map<String, Long> perClass(long a, long b) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("cat", a);
    m.put("dog", b);
    return m;
  }

  static ListingReport nothingLeftOut(long images) {
    return new ListingReport(images, new LeftOutFiles(), Map.of());
  }

  /** 7 files that are not images and 2 hidden ones, of which the class folder "bird" held all its files. */
  static ListingReport someLeftOut(long images) {
    LeftOutFiles all = new LeftOutFiles();
    LeftOutFiles bird = new LeftOutFiles();
    for (String f : List.of("1.heic", "2.heic", "3.heic")) {
      bird.notAnImage(f);
    }
    all.add(bird);
    for (String f : List.of("README.txt", "notes.txt", "Thumbs.db", "x.ppm")) {
      all.notAnImage(f);
    }
    all.hidden(false);
    all.hidden(false);
    return new ListingReport(images, all, Map.of("bird", bird));
  }

  @Test
  void aNewDatasetWithQuarantinedRows() {
    ImageFolderPrepare.Result r = new ImageFolderPrepare.Result("file:/data/pets", SaveMode.ErrorIfExists, false,
        List.of("cat", "dog"), perClass(4_000, 5_997), 9_997, 2, 187_300_000, 31.2, 24.0,
        someLeftOut(10_000), 0,
        new WriteCounts(9_997, 3, 2, 3, 2, 187_300_000), true,
        "file:/data/pets/_quarantine/part-00001-1a2b3c4d-a5.jsonl", "libjpeg-turbo 2.1.5 (libjpeg API 62) through JNI");
    assertThat(PrepareSummary.format(r)).isEqualTo(String.join("\n",
        "dataset           file:/data/pets",
        "images listed     10,000",
        "left out          7 files that are not images by their extension (3 .heic, 2 .txt, 1 .db, 1 .ppm), 2 hidden"
            + " files (names starting with .)",
        "samples written   9,997",
        "rows skipped      1 (bad images, --bad-images skip)",
        "rows quarantined  2, listed in file:/data/pets/_quarantine/part-00001-1a2b3c4d-a5.jsonl",
        "shards            2, 187.3 MB",
        "time              31.2 s (the write 24.0 s, 417 images/s)",
        "codec             libjpeg-turbo 2.1.5 (libjpeg API 62) through JNI",
        "label  class                       samples",
        "0      cat                           4,000",
        "1      dog                           5,997",
        ""));
  }

  @Test
  void anAppendSaysWhatTheDatasetHoldsNow() {
    ImageFolderPrepare.Result r = new ImageFolderPrepare.Result("file:/data/pets", SaveMode.Append, true,
        List.of("cat", "dog"), perClass(1, 1), 2, 3, 3_000_000, 3.0, 2.0, nothingLeftOut(1), 0,
        new WriteCounts(1, 0, 0, 0, 1, 1_000_000), false, null, "pure Java");
    assertThat(PrepareSummary.format(r)).contains(
        "dataset           file:/data/pets (appended to)\n",
        "samples written   1 (Spark's events of the last tasks were late: counts may be short)\n",
        "rows skipped      0\n",
        "rows quarantined  0\n",
        "left out          nothing\n",
        "shards            1, 1.0 MB\n",
        "dataset now       2 samples in 3 shards, 3.0 MB\n");
    assertThat(org.sparkbeton.format.Counts.of(1, "sample")).isEqualTo("1 sample");
    assertThat(org.sparkbeton.format.Counts.of(1_200, "sample")).isEqualTo("1,200 samples");
  }

  /** An append that found no dataset made a new one, and says so; one image a second is "1 image/s". */
  @Test
  void anAppendThatFoundNoDatasetSaysNewDataset() {
    ImageFolderPrepare.Result r = new ImageFolderPrepare.Result("file:/data/notes", SaveMode.Append, false,
        List.of("cat", "dog"), perClass(1, 1), 2, 1, 1_000_000, 3.0, 2.0, nothingLeftOut(2), 0,
        new WriteCounts(2, 0, 0, 0, 1, 1_000_000), true, null, "pure Java");
    assertThat(PrepareSummary.format(r)).startsWith("dataset           file:/data/notes (new dataset: --append found"
        + " none there to add to)\n").contains("time              3.0 s (the write 2.0 s, 1 image/s)\n")
        .doesNotContain("dataset now");
  }

  /** More shards asked than images: the shards line says one per image was the most. */
  @Test
  void moreShardsAskedThanImagesIsSaid() {
    ImageFolderPrepare.Result r = new ImageFolderPrepare.Result("file:/data/pets", SaveMode.ErrorIfExists, false,
        List.of("cat", "dog"), perClass(20, 20), 40, 40, 400_000, 3.0, 2.0, nothingLeftOut(40), 100_000,
        new WriteCounts(40, 0, 0, 0, 40, 400_000), true, null, "pure Java");
    assertThat(PrepareSummary.format(r)).contains("shards            40, 0.4 MB (--shards 100,000 is more than the"
        + " images: at most one shard per image)\n");
    assertThat(SmallShardsNote.of(r)).hasValue("40 shards of 9.8 KiB on average: small shards slow every open of the"
        + " dataset (reads and the loader open each one); --shards 1 writes shards of about 390.6 KiB, and beton"
        + " compact file:/data/pets merges the shards written");
  }

  /** The warnings that follow the summary name each class folder whose files were all left out. */
  @Test
  void aClassFolderWhoseFilesWereAllLeftOutIsNamed() {
    assertThat(someLeftOut(10).warnings()).containsExactly("class folder 'bird' has no images, so its class gets 0"
        + " samples: left out 3 files that are not images by their extension (3 .heic)");
    assertThat(nothingLeftOut(10).warnings()).isEmpty();
    assertThat(ListingReport.of(List.of("a", "b", "c"), new long[] {0, 2, 0},
        new LeftOutFiles[] {someLeftOut(0).leftOut(), new LeftOutFiles(), new LeftOutFiles()})
        .classesWithNoImage()).containsOnlyKeys("a"); // "c" holds no file: an empty folder, kept as a class of 0 samples
  }
}
