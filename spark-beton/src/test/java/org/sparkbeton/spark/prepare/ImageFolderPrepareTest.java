package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.TestPhotos;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ShardEntry;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.verify.BetonVerifier;
import org.sparkbeton.spark.write.BadImageException;

class ImageFolderPrepareTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final Map<String, String> SMALL = Map.of("writeMode", "jpg", "maxResolution", "128", "pageSize", "2M");

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("ImageFolderPrepareTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** 20 photos in 4 classes, plus a JPEG cut short and one whose header claims 65500x65500 in class_01. */
  static Path photosWithTwoBad(String name) throws Exception {
    Path input = tmp.resolve(name);
    TestPhotos.writeImageFolder(input, 20, 4, 23);
    byte[] photo = TestPhotos.photo(23, 77);
    Files.write(input.resolve("class_01").resolve("cut.jpg"), Arrays.copyOf(photo, photo.length / 2));
    Files.write(input.resolve("class_01").resolve("huge.jpg"), CorruptionCorpus.withSofSize(photo, 65500, 65500));
    return input;
  }

  @Test
  void preparesAnImageFolderWithTorchvisionLabels() throws Exception {
    Path input = tmp.resolve("photos");
    TestPhotos.writeImageFolder(input, 24, 3, 7);
    Files.writeString(input.resolve("class_00").resolve("notes.txt"), "not an image"); // filtered by extension
    Path out = tmp.resolve("dataset");
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, input.toString(), out.toString(), SMALL, 0, false);
    assertThat(r.classes()).containsExactly("class_00", "class_01", "class_02");
    assertThat(r.samples()).isEqualTo(24);
    assertThat(r.samplesPerClass()).containsEntry("class_00", 8L).containsEntry("class_02", 8L);
    DatasetManifest m = DatasetManifest.parse(Files.readString(out.resolve(DatasetManifest.FILE_NAME)));
    int label2 = 0;
    for (ShardEntry s : m.shards()) {
      try (BetonReader reader = BetonReader.open(out.resolve(s.path()))) {
        assertThat(BetonVerifier.verify(reader).problems()).isEmpty();
        for (long k = 0; k < reader.numSamples(); k++) {
          RgbImage img = (RgbImage) reader.value(k, 0);
          assertThat(img.mode()).isEqualTo(ImageMode.JPG);
          assertThat(Math.max(img.width(), img.height())).isLessThanOrEqualTo(128);
          label2 += reader.intValue(k, 1) == 2 ? 1 : 0;
        }
      }
    }
    assertThat(label2).isEqualTo(8);
    Row count = spark.read().format("beton").load(out.toString()).where("label = 0").selectExpr("count(*)").first();
    assertThat(count.getLong(0)).isEqualTo(8);
  }

  /**
   * Names in any script, in the input and the output: class folders numbered in code-point order as Python's
   * {@code sorted()} numbers them for torchvision ("Ｚ" U+FF3A before "😀" U+1F600, which UTF-16 order reverses), and
   * a dataset directory named in non-ASCII characters read back.
   */
  /**
   * The manifest records the class names, and an append takes them: a folder keeps its class's label whichever
   * folders the new input holds (by its own sorted index, class_02 alone would be labelled 0, class_00's label). An
   * input with a new class, or a dataset without recorded names, is refused before anything is written.
   */
  @Test
  void anAppendLabelsEachFolderAsTheDatasetDoes() throws Exception {
    Path first = tmp.resolve("append-first");
    TestPhotos.writeImageFolder(first, 9, 3, 11);
    Path out = tmp.resolve("append-dataset");
    ImageFolderPrepare.run(spark, first.toString(), out.toString(), SMALL, 0, false);
    assertThat(DatasetManifest.parse(Files.readString(out.resolve(DatasetManifest.FILE_NAME))).recipe())
        .containsEntry("class_names", "[\"class_00\",\"class_01\",\"class_02\"]");

    Path more = tmp.resolve("append-more");
    Files.createDirectories(more.resolve("class_02"));
    Files.write(more.resolve("class_02").resolve("new.jpg"), TestPhotos.photo(11, 40));
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, more.toString(), out.toString(), SMALL, 0,
        SaveMode.Append, null);
    assertThat(r.classes()).containsExactly("class_00", "class_01", "class_02");
    assertThat(r.samplesPerClass()).containsExactly(Map.entry("class_00", 3L), Map.entry("class_01", 3L),
        Map.entry("class_02", 4L));
    assertThat(spark.read().format("beton").load(out.toString()).groupBy("label").count().orderBy("label")
        .collectAsList()).extracting(Row::toString).containsExactly("[0,3]", "[1,3]", "[2,4]");

    Files.createDirectories(more.resolve("class_03"));
    Files.write(more.resolve("class_03").resolve("other.jpg"), TestPhotos.photo(11, 41));
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, more.toString(), out.toString(), SMALL, 0, SaveMode.Append,
        null)).hasMessageStartingWith("Cannot --append to " + out + ": the input has class folders the dataset has not"
        + " (class_03; its classes: class_00, class_01, class_02)");
    Path foreign = tmp.resolve("append-foreign");
    spark.range(2).selectExpr("id as label").write().format("beton").save(foreign.toString());
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, first.toString(), foreign.toString(), SMALL, 0,
        SaveMode.Append, null)).hasMessageContaining("its manifest records no class names");
    assertThat(spark.read().format("beton").load(out.toString()).count()).isEqualTo(10);
    assertThat(spark.read().format("beton").load(foreign.toString()).count()).isEqualTo(2);
  }

  @Test
  void nonAsciiNamesGetTorchvisionsLabelsAndReadBack() throws Exception {
    Path input = tmp.resolve("photos (ç)");
    List<String> pythonOrder = List.of("Zebra", "café", "ñandú", "Ｚ", "😀");
    for (int c = 0; c < pythonOrder.size(); c++) {
      Path folder = Files.createDirectories(input.resolve(pythonOrder.get(c)));
      for (int i = 0; i <= c; i++) { // class c holds c + 1 photos: the count says which label it got
        Files.write(folder.resolve("фото_" + i + ".jpg"), TestPhotos.photo(31, c * 10 + i));
      }
    }
    Path out = tmp.resolve("données é");
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, input.toString(), out.toString(), SMALL, 0, false);

    assertThat(r.classes()).containsExactlyElementsOf(pythonOrder);
    List<Row> perLabel = spark.read().format("beton").load(out.toString()).groupBy("label").count().orderBy("label")
        .collectAsList();
    assertThat(perLabel).extracting(row -> row.getInt(0) + ":" + row.getLong(1))
        .containsExactly("0:1", "1:2", "2:3", "3:4", "4:5");
  }

  /** The summary counts every listed image, from the tasks' metrics, and agrees with the manifest. */
  @Test
  void theSummaryCountsEverything() throws Exception {
    Path input = photosWithTwoBad("quarantine-input");
    Path out = tmp.resolve("quarantined");
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    PrepareArgs args = PrepareArgs.parse(new String[] {"--input", input.toString(), "--output", out.toString(),
        "--bad-images", "quarantine", "--page-size", "2M", "--max-resolution", "128"});
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, args.input(), args.output(), args.newDatasetOptions(), 0,
        args.saveMode(), new ImageFolderPrepare.Progress(new PrintStream(progress, true, StandardCharsets.UTF_8),
            false, 0));

    DatasetManifest m = DatasetManifest.parse(Files.readString(out.resolve(DatasetManifest.FILE_NAME)));
    assertThat(r.listed()).isEqualTo(22);
    assertThat(r.countsFinal()).isTrue();
    assertThat(r.written()).isEqualTo(new WriteCounts(20, 2, 2, 2, m.shards().size(),
        m.shards().stream().mapToLong(ShardEntry::bytes).sum()));
    assertThat(r.samples()).isEqualTo(20);
    Path quarantineDir = out.resolve("_quarantine");
    List<Path> records;
    try (var files = Files.list(quarantineDir)) {
      records = files.filter(f -> f.toString().endsWith(".jsonl")).toList();
    }
    assertThat(records).hasSize(1); // both bad images are in class_01: one task
    List<String> lines = Files.readAllLines(records.get(0));
    assertThat(lines).hasSize(2);
    assertThat(String.join("\n", lines)).contains("cut.jpg").contains("huge.jpg")
        .contains("image is too large to decode: 65500x65500 = 4.3 gigapixels");
    assertThat(r.quarantine()).isEqualTo(records.get(0).toUri().toString().replace("file:///", "file:/"));

    String summary = PrepareSummary.format(r);
    assertThat(summary).startsWith("dataset           " + out.toUri().toString().replace("file:///", "file:/")
        .replaceFirst("/$", "") + "\n"
        + "images listed     22\n"
        + "left out          nothing\n"
        + "samples written   20\n"
        + "rows skipped      0\n"
        + "rows quarantined  2, listed in " + r.quarantine() + "\n"
        + "shards            " + m.shards().size() + ", ");
    assertThat(summary).contains("\ncodec             " + m.recipe().get("jpeg_codec") + "\n")
        .contains("\n1      class_01                          5\n");
    // no timer (interval 0): only the final line
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .matches("progress: 22/22 images \\(100%\\), [\\d,]+ images/s, ETA 0:00, 2 bad\n");
  }

  @Test
  void skippedRowsAreCounted() throws Exception {
    Path input = photosWithTwoBad("skip-input");
    PrepareArgs args = PrepareArgs.parse(new String[] {"--input", input.toString(), "--output",
        tmp.resolve("skipped").toString(), "--bad-images", "skip", "--page-size", "2M", "--max-resolution", "128"});
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, args.input(), args.output(), args.newDatasetOptions(), 0,
        args.saveMode(), null);
    assertThat(r.written().written()).isEqualTo(20);
    assertThat(r.written().skippedOnly()).isEqualTo(2);
    assertThat(r.written().quarantined()).isZero();
    assertThat(r.quarantine()).isNull();
    assertThat(PrepareSummary.format(r)).contains("\nrows skipped      2 (bad images, --bad-images skip)\n"
        + "rows quarantined  0\n");
  }

  @Test
  void aBadImageFailsTheRunNamingIt() throws Exception {
    Path input = photosWithTwoBad("strict-input");
    Files.delete(input.resolve("class_01").resolve("huge.jpg"));
    Path out = tmp.resolve("strict");
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, input.toString(), out.toString(), SMALL, 0,
        SaveMode.ErrorIfExists, null))
        .isInstanceOf(BadImageException.class)
        .hasMessageContaining("column 'image', row ")
        .hasMessageContaining("cut.jpg): ")
        .hasMessageContaining("Premature end of JPEG file");
    assertThat(out.resolve(DatasetManifest.FILE_NAME)).doesNotExist();
  }

  /**
   * torchvision's ImageFolder takes every image under a class folder, nested folders included, names starting with
   * {@code _} included, and any case of extension; an empty file is bad input with its reason (Spark's binaryFile
   * source dropped all of these silently).
   */
  @Test
  void nestedFoldersAndEmptyFilesAreListedAsTorchvisionDoes() throws Exception {
    Path input = tmp.resolve("nested");
    TestPhotos.writeImageFolder(input, 12, 3, 29);
    Path deep = Files.createDirectories(input.resolve("class_01").resolve("a").resolve("b"));
    Files.write(input.resolve("class_00").resolve("upper.JPG"), TestPhotos.photo(29, 50));
    Files.write(Files.createDirectories(input.resolve("class_00").resolve("sub")).resolve("x.Jpeg"),
        TestPhotos.photo(29, 51));
    Files.write(deep.resolve("y.jpg"), TestPhotos.photo(29, 52));
    Files.write(input.resolve("class_02").resolve("empty.jpg"), new byte[0]);
    // hidden names are skipped, at any level; underscore names are not
    Files.write(input.resolve("class_02").resolve(".hidden.jpg"), TestPhotos.photo(29, 53));
    Files.write(Files.createDirectories(input.resolve("class_02").resolve("_tmp")).resolve("z.jpg"),
        TestPhotos.photo(29, 54));
    Files.write(input.resolve("class_01").resolve("_DSC0001.JPG"), TestPhotos.photo(29, 56));
    Files.write(input.resolve("loose.jpg"), TestPhotos.photo(29, 55)); // in no class folder: no label

    Path out = tmp.resolve("nested-out");
    Map<String, String> options = new java.util.HashMap<>(SMALL);
    options.put("badImagePolicy", "quarantine");
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, input.toString(), out.toString(), options, 0, false);
    assertThat(r.listed()).isEqualTo(18);
    assertThat(r.samples()).isEqualTo(17);
    assertThat(r.samplesPerClass()).containsEntry("class_00", 6L).containsEntry("class_01", 6L)
        .containsEntry("class_02", 5L);
    assertThat(r.listing().leftOut().describe()).isEqualTo("1 image directly under the input, in no class folder,"
        + " 1 hidden file (names starting with .)");
    List<String> records;
    try (var files = Files.list(out.resolve("_quarantine"))) {
      records = Files.readAllLines(files.filter(f -> f.toString().endsWith(".jsonl")).findFirst().orElseThrow());
    }
    assertThat(records).hasSize(1);
    assertThat(records.get(0)).contains("class_02/empty.jpg\"").contains("\"reason\":\"image file ")
        .endsWith("empty.jpg is an empty file (0 bytes)\"}");

    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, input.toString(), tmp.resolve("nested-fail").toString(),
        SMALL, 0, false)).isInstanceOf(BadImageException.class).hasMessageContaining("empty.jpg): image file ")
        .hasMessageContaining("empty.jpg is an empty file (0 bytes)");
  }

  /**
   * Class folders, nested folders and files whose names hold {@code :} (which a URI parse takes for a scheme's end:
   * "Relative path in absolute URI" stopped the job), {@code %}, {@code #} or {@code ?}: listed by the driver and by
   * tasks, and prepared.
   */
  @Test
  void namesWithAColonArePreparedWhetherTheDriverOrTasksListThem() throws Exception {
    Path input = tmp.resolve("colons");
    List<String> classes = List.of("12:30 photos", "a:b", "p%41t#1?");
    for (int c = 0; c < classes.size(); c++) {
      Path folder = Files.createDirectories(input.resolve(classes.get(c)));
      Files.write(folder.resolve("1.jpg"), TestPhotos.photo(31, c));
      Files.write(Files.createDirectories(folder.resolve("sub:dir")).resolve("x:y.jpg"), TestPhotos.photo(31, 10 + c));
    }
    Map<String, Long> twoEach = Map.of("12:30 photos", 2L, "a:b", 2L, "p%41t#1?", 2L);
    ImageFolderPrepare.Result here = ImageFolderPrepare.run(spark, input.toString(), tmp.resolve("colons-here")
        .toString(), SMALL, 0, false);
    assertThat(here.classes()).containsExactlyElementsOf(classes);
    assertThat(here.samplesPerClass()).isEqualTo(twoEach);
    spark.conf().set(ImageFolderListing.PARALLEL_LISTING_THRESHOLD, "0");
    try {
      ImageFolderPrepare.Result byTasks = ImageFolderPrepare.run(spark, input.toString(), tmp.resolve("colons-tasks")
          .toString(), SMALL, 0, false);
      assertThat(byTasks.samplesPerClass()).isEqualTo(twoEach);
      assertThat(byTasks.written().written()).isEqualTo(6);
    } finally {
      spark.conf().unset(ImageFolderListing.PARALLEL_LISTING_THRESHOLD);
    }
    assertThat(labelledImages(tmp.resolve("colons-tasks"))).isEqualTo(labelledImages(tmp.resolve("colons-here")))
        .hasSize(6);
  }

  /**
   * What the listing leaves out is counted per extension, whether the driver or tasks list the folders, with the
   * files beside the class folders; a class folder of files that are all left out (HEIC photos) and images in no
   * class folder are named in warnings.
   */
  @Test
  void whatTheListingLeavesOutIsCountedBothWays() throws Exception {
    Path input = tmp.resolve("left-out");
    Path cat = Files.createDirectories(input.resolve("cat"));
    Files.write(cat.resolve("1.jpg"), TestPhotos.photo(31, 1));
    Files.write(cat.resolve("_DSC0002.JPG"), TestPhotos.photo(31, 2));
    for (String f : List.of("README.txt", "notes.txt", "Thumbs.db", ".DS_Store", "a.ppm", "sub/b.jfif")) {
      Files.createDirectories(cat.resolve(f).getParent());
      Files.writeString(cat.resolve(f), "x");
    }
    Path heic = Files.createDirectories(input.resolve("heic"));
    for (int i = 1; i <= 3; i++) {
      Files.writeString(heic.resolve("IMG_000" + i + ".HEIC"), "x");
    }
    Files.write(Files.createDirectories(input.resolve("dog")).resolve("d.png"), TestPhotos.photo(31, 3));
    Files.write(input.resolve("stray.jpg"), TestPhotos.photo(31, 4));
    Files.writeString(input.resolve("LICENSE"), "x");
    Files.writeString(input.resolve(".DS_Store"), "x");
    ImageFolderRoot root = ImageFolderRoot.of(spark.sparkContext().hadoopConfiguration(), input.toString());

    ImageFolderPrepare.ListedImages here = ImageFolderPrepare.list(spark, input.toString(), root, 0, 16);
    ImageFolderPrepare.ListedImages byTasks = ImageFolderPrepare.list(spark, input.toString(), root, 0, 0);
    try {
      for (ImageFolderPrepare.ListedImages listed : List.of(here, byTasks)) {
        assertThat(listed.report().images()).isEqualTo(3);
        assertThat(listed.rows().count()).isEqualTo(3);
        assertThat(listed.report().images()).isEqualTo(3);
        assertThat(listed.report().leftOut().describe()).isEqualTo("1 image directly under the input, in no class"
            + " folder, 9 files that are not images by their extension (3 .heic, 2 .txt, 1 without an extension,"
            + " 1 .db, 2 of other extensions), 2 hidden files (names starting with .)");
        assertThat(listed.report().warnings()).containsExactly("1 image lies directly under the input, in no class"
            + " folder, and was left out: a sample's class is its image's folder, so move it into one",
            "class folder 'heic' has no images, so its class gets 0 samples: left out 3 files that are not images by"
            + " their extension (3 .heic)");
      }
    } finally {
      byTasks.release();
    }
    assertThat(byTasks.persisted()).isNotNull();
  }

  /** A name whose bytes are not UTF-8 is bad input with its fix, also where a task met it. */
  @Test
  void aNameNotInUtf8IsBadInputWhetherTheDriverOrATaskMeetsIt() throws Exception {
    Path input = tmp.resolve("latin1-input");
    Path folder = Files.createDirectories(input.resolve("class_00"));
    Files.write(folder.resolve("ok.jpg"), TestPhotos.photo(31, 1));
    ImageFolderListingTest.writeLatin1Name(folder);
    ImageFolderRoot root = ImageFolderRoot.of(spark.sparkContext().hadoopConfiguration(), input.toString());
    String message = "Cannot read the name of an entry of folder file:" + folder + " (it reads as"
        + " 'photo_\ufffdt\ufffd.jpg'): its bytes are not UTF-8; rename it in UTF-8, e.g. with convmv -f latin1 -t"
        + " utf8 -r --notest " + folder + " where names were written in Latin-1 (without --notest convmv only"
        + " shows what it would rename)";
    assertThatThrownBy(() -> ImageFolderPrepare.list(spark, input.toString(), root, 0, 16))
        .isInstanceOf(UnreadableNameException.class).hasMessage(message);
    spark.conf().set(ImageFolderListing.PARALLEL_LISTING_THRESHOLD, "0");
    try {
      assertThatThrownBy(() -> ImageFolderPrepare.list(spark, input.toString(), root, 0, 16))
          .isInstanceOf(UnreadableNameException.class).hasMessage(message)
          .hasCauseInstanceOf(org.apache.spark.SparkException.class);
    } finally {
      spark.conf().unset(ImageFolderListing.PARALLEL_LISTING_THRESHOLD);
    }
  }

  /** Hadoop's listing of the input dropped a class folder named in Latin-1: its whole class, without a word. */
  @Test
  void aClassFolderNamedNotInUtf8IsBadInputNotALostClass() throws Exception {
    Path input = tmp.resolve("latin1-classes");
    Files.createDirectories(input.resolve("good"));
    ImageFolderListingTest.writeLatin1Name(input); // assumes a UTF-8 JVM and a file system that takes the name
    Process mkdir = new ProcessBuilder("/bin/sh", "-c", "mkdir \"$(printf 'caf\\351')\"").directory(input.toFile())
        .inheritIO().start();
    assertThat(mkdir.waitFor()).isZero();
    assertThatThrownBy(() -> ImageFolderPrepare.classes(spark, input.toString()))
        .isInstanceOf(UnreadableNameException.class)
        .hasMessageStartingWith("Cannot read the name of an entry of folder " + input + " (it reads as")
        .hasMessageContaining("rename it in UTF-8, e.g. with convmv -f latin1 -t utf8 -r --notest " + input);
  }

  @Test
  void anOutputInsideTheInputIsRefusedBeforeAnythingIsWritten() throws Exception {
    Path input = tmp.resolve("photos-with-output-inside");
    TestPhotos.writeImageFolder(input, 4, 2, 3);
    for (String output : new String[] {input.resolve("dataset").toString(), input.toString(), input.toUri().toString()
        + "zz/dataset"}) {
      assertThatThrownBy(() -> ImageFolderPrepare.run(spark, input.toString(), output, SMALL, 0, false))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Output " + output + " is inside the input " + input + ": it would be a class folder of the"
              + " ImageFolder (a class of its own, shifting the labels of the classes after it); write the dataset"
              + " outside " + input);
    }
    try (var names = Files.list(input)) {
      assertThat(names.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("class_00", "class_01");
    }
    // a sibling whose name starts with the input's is outside it
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, input.toString(), input + "-dataset", SMALL, 0, false);
    assertThat(r.samples()).isEqualTo(4);
  }

  /**
   * A link to the input is the input: an output below it is refused (it wrote a class folder into the input tree).
   * An input inside the output is refused too.
   */
  @Test
  void anOutputInsideTheInputThroughALinkAndAnInputInsideTheOutputAreRefused() throws Exception {
    Path input = tmp.resolve("photos-behind-a-link");
    TestPhotos.writeImageFolder(input, 4, 2, 5);
    Path link = Files.createSymbolicLink(tmp.resolve("photos-link"), input);
    for (String output : new String[] {link.resolve("ds").toString(), link.toUri() + "new/ds", link.toString()}) {
      assertThatThrownBy(() -> ImageFolderPrepare.run(spark, input.toString(), output, SMALL, 0, false))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Output " + output + " is inside the input " + input + ": it would be a class folder of the"
              + " ImageFolder (a class of its own, shifting the labels of the classes after it); write the dataset"
              + " outside " + input);
    }
    try (var names = Files.list(input)) {
      assertThat(names.map(p -> p.getFileName().toString()).sorted().toList()).containsExactly("class_00", "class_01");
    }

    Path nested = tmp.resolve("holds-its-input");
    Path inner = nested.resolve("photos");
    TestPhotos.writeImageFolder(inner, 2, 1, 5);
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, inner.toString(), nested.toString(), SMALL, 0, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Input " + inner + " is inside the output " + nested + ": the dataset's folder would hold its own"
            + " images; write the dataset outside " + inner + " and the folders above it");
    assertThat(nested.resolve(DatasetManifest.FILE_NAME)).doesNotExist();
  }

  @Test
  void inputProblemsAreClear() throws Exception {
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, tmp.resolve("missing").toString(), tmp.resolve("o").toString(),
        Map.of(), 0, false)).hasMessageEndingWith("missing does not exist");
    // quoted, a shell leaves ~ to Hadoop, which takes it as a name
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, "~/no-such-photos", tmp.resolve("o").toString(),
        Map.of(), 0, false)).hasMessage("Input ~/no-such-photos does not exist (~ is a file name to Hadoop, not the"
            + " home directory: write " + System.getProperty("user.home") + "/no-such-photos)");
    Path empty = Files.createDirectories(tmp.resolve("no-images").resolve("cats"));
    Files.writeString(empty.resolve("readme.txt"), "no images here");
    assertThatThrownBy(() -> ImageFolderPrepare.run(spark, empty.getParent().toString(), tmp.resolve("o").toString(),
        Map.of(), 0, false)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Input " + empty.getParent() + " has no images in its class folders (*.{jpg,")
        .hasMessageEndingWith(" (any case)); left out 1 file that is not an image by its extension (1 .txt)");
  }

  /**
   * {@code --append} to a folder that holds no dataset writes a new one (beside the files there, which stay): the
   * result says it appended to nothing, and the summary says "new dataset", not "appended to".
   */
  @Test
  void anAppendToAFolderWithoutADatasetWritesANewOne() throws Exception {
    Path input = tmp.resolve("photos-appended-to-nothing");
    TestPhotos.writeImageFolder(input, 4, 2, 7);
    Path folder = Files.createDirectories(tmp.resolve("not-a-dataset"));
    Files.writeString(folder.resolve("readme.txt"), "x");
    ImageFolderPrepare.Result r = ImageFolderPrepare.run(spark, input.toString(), folder.toString(), SMALL, 0,
        SaveMode.Append, null);
    assertThat(r.appended()).isFalse();
    assertThat(r.samples()).isEqualTo(4);
    String summary = PrepareSummary.format(r);
    assertThat(summary).startsWith("dataset           " + r.output() + " (new dataset: --append found none there to"
        + " add to)\n").doesNotContain("appended to").doesNotContain("dataset now");
    assertThat(folder.resolve("readme.txt")).hasContent("x");

    ImageFolderPrepare.Result again = ImageFolderPrepare.run(spark, input.toString(), folder.toString(), SMALL, 0,
        SaveMode.Append, null);
    assertThat(again.appended()).isTrue();
    assertThat(PrepareSummary.format(again)).startsWith("dataset           " + r.output() + " (appended to)\n")
        .contains("dataset now       8 samples in ");
  }

  /** Every sample of a dataset as "label SHA-256 of its stored image", sorted. */
  static List<String> labelledImages(Path dataset) throws Exception {
    DatasetManifest m = DatasetManifest.parse(Files.readString(dataset.resolve(DatasetManifest.FILE_NAME)));
    List<String> samples = new ArrayList<>();
    for (ShardEntry s : m.shards()) {
      try (BetonReader reader = BetonReader.open(dataset.resolve(s.path()))) {
        for (long k = 0; k < reader.numSamples(); k++) {
          byte[] image = ((RgbImage) reader.value(k, 0)).payloadBytes();
          samples.add(reader.intValue(k, 1) + " "
              + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(image)));
        }
      }
    }
    samples.sort(null);
    return samples;
  }
}
