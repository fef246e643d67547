package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.TestPhotos;

/**
 * How {@code beton prepare} cuts an ImageFolder into write tasks: listed by the driver into tasks of equal image
 * counts, or by tasks a partition per few folders, both giving the same rows and the same dataset.
 */
class ImageFolderTaskListingTest {
  @TempDir static Path tmp;
  static SparkSession spark;
  static final Map<String, String> SMALL = ImageFolderPrepareTest.SMALL;

  @BeforeAll
  static void setUp() {
    spark = SparkSession.builder().master("local[2]").appName("ImageFolderTaskListingTest")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate();
  }

  @AfterAll
  static void tearDown() {
    spark.stop();
  }

  /** Classes of 3, 12 and 1 photos: uneven folders, as real ones are. */
  static Path unevenClasses(String name) throws IOException {
    Path input = tmp.resolve(name);
    int[] sizes = {3, 12, 1};
    int k = 0;
    for (int c = 0; c < sizes.length; c++) {
      Path dir = Files.createDirectories(input.resolve("class_" + c));
      for (int i = 0; i < sizes[c]; i++) {
        Files.write(dir.resolve(String.format("p%02d.jpg", i)), TestPhotos.photo(31, k++));
      }
    }
    return input;
  }

  /** Each partition's rows, as "label path-name" strings. */
  static List<List<String>> partitions(ImageFolderPrepare.ListedImages images) {
    return images.rows().javaRDD().glom().collect().stream()
        .map(part -> part.stream().map(r -> r.getInt(1) + " " + Path.of(URI.create(r.getString(0))).getFileName())
            .toList()).toList();
  }

  /**
   * A few class folders are listed by the driver and cut into tasks of equal image counts, in label and path order;
   * many, or more images than the driver lists, are listed by tasks, a partition per few folders. Both list the
   * same rows.
   */
  @Test
  void aFewClassFoldersAreListedByTheDriverIntoEqualTasks() throws Exception {
    Path input = unevenClasses("uneven");
    ImageFolderRoot root = ImageFolderRoot.of(spark.sparkContext().hadoopConfiguration(), input.toString());
    List<String> expected = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      expected.add("0 p0" + p + ".jpg");
    }
    for (int p = 0; p < 12; p++) {
      expected.add(String.format("1 p%02d.jpg", p));
    }
    expected.add("2 p00.jpg");

    ImageFolderPrepare.ListedImages here = ImageFolderPrepare.list(spark, input.toString(), root, 3, 16);
    assertThat(here.report().images()).isEqualTo(16);
    List<List<String>> parts = partitions(here);
    assertThat(parts).extracting(List::size).containsExactly(5, 5, 6);
    assertThat(parts.stream().flatMap(List::stream).toList()).isEqualTo(expected);
    assertThat(partitions(ImageFolderPrepare.list(spark, input.toString(), root, 0, 16)))
        .extracting(List::size).containsExactly(8, 8); // writeTasks(16, 2 cores)

    // more images than the driver lists: tasks list them
    assertListedByTasks(ImageFolderPrepare.list(spark, input.toString(), root, 0, 15), expected);
    // more class folders than the driver lists: tasks list them
    spark.conf().set(ImageFolderListing.PARALLEL_LISTING_THRESHOLD, "2");
    try {
      assertListedByTasks(ImageFolderPrepare.list(spark, input.toString(), root, 0, 16), expected);
    } finally {
      spark.conf().unset(ImageFolderListing.PARALLEL_LISTING_THRESHOLD);
    }
  }

  /**
   * More shards asked than images: one task per image, whether the driver or tasks list them (100,000 asked of 40
   * images scheduled 100,000 tasks).
   */
  @Test
  void moreShardsThanImagesAreOnePerImage() throws Exception {
    Path input = unevenClasses("uneven-many-shards");
    ImageFolderRoot root = ImageFolderRoot.of(spark.sparkContext().hadoopConfiguration(), input.toString());
    ImageFolderPrepare.ListedImages here = ImageFolderPrepare.list(spark, input.toString(), root, 100_000, 16);
    assertThat(partitions(here)).hasSize(16).allSatisfy(part -> assertThat(part).hasSize(1));
    ImageFolderPrepare.ListedImages byTasks = ImageFolderPrepare.list(spark, input.toString(), root, 100_000, 15);
    try {
      assertThat(byTasks.rows().rdd().getNumPartitions()).isEqualTo(16);
    } finally {
      byTasks.release();
    }
  }

  /** Listed by tasks: every expected row, in 2 write tasks (16 images, 2 cores) of whole class folders. */
  static void assertListedByTasks(ImageFolderPrepare.ListedImages byTasks, List<String> expected) {
    try {
      assertThat(byTasks.report().images()).isEqualTo(16);
      List<List<String>> taskParts = partitions(byTasks);
      assertThat(taskParts).hasSize(2);
      assertThat(taskParts.stream().flatMap(List::stream).sorted().toList()).isEqualTo(expected);
      for (char label = '0'; label <= '2'; label++) { // whole folders: each class's rows in one partition
        char l = label;
        assertThat(taskParts.stream().filter(part -> part.stream().anyMatch(row -> row.charAt(0) == l)).count())
            .isEqualTo(1);
      }
    } finally {
      byTasks.release();
    }
  }

  /** The same ImageFolder prepared with its folders listed by tasks: the same samples, labels and counts. */
  @Test
  void foldersListedByTasksPrepareTheSameDataset() throws Exception {
    Path input = unevenClasses("uneven-prepared");
    ImageFolderPrepare.Result here = ImageFolderPrepare.run(spark, input.toString(),
        tmp.resolve("uneven-here").toString(), SMALL, 0, false);
    spark.conf().set(ImageFolderListing.PARALLEL_LISTING_THRESHOLD, "0");
    ImageFolderPrepare.Result byTasks;
    try {
      byTasks = ImageFolderPrepare.run(spark, input.toString(), tmp.resolve("uneven-tasks").toString(), SMALL, 0,
          false);
    } finally {
      spark.conf().unset(ImageFolderListing.PARALLEL_LISTING_THRESHOLD);
    }
    assertThat(here.listed()).isEqualTo(16);
    assertThat(byTasks.listed()).isEqualTo(16);
    assertThat(byTasks.samplesPerClass()).isEqualTo(here.samplesPerClass())
        .isEqualTo(Map.of("class_0", 3L, "class_1", 12L, "class_2", 1L));
    List<String> samples = ImageFolderPrepareTest.labelledImages(tmp.resolve("uneven-here"));
    assertThat(samples).hasSize(16).doesNotHaveDuplicates();
    assertThat(ImageFolderPrepareTest.labelledImages(tmp.resolve("uneven-tasks"))).isEqualTo(samples);
  }

  /** Up to 4 tasks a core, of 256 images or more each, never fewer tasks than cores. */
  @Test
  void writeTasksBalanceTheCores() {
    assertThat(ImageFolderPrepare.writeTasks(5000, 2)).isEqualTo(8);
    assertThat(ImageFolderPrepare.writeTasks(2000, 2)).isEqualTo(7);
    assertThat(ImageFolderPrepare.writeTasks(22, 2)).isEqualTo(2);
    assertThat(ImageFolderPrepare.writeTasks(0, 3)).isEqualTo(3);
    assertThat(ImageFolderPrepare.writeTasks(1_281_167, 64)).isEqualTo(256);
    assertThat(ImageFolderPrepare.writeTasks(10_000_000_000L, 1)).isEqualTo(4);
  }
}
