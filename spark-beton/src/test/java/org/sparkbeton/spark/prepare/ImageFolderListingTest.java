package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkbeton.testsupport.ChildJvm;

/**
 * A class folder's images, walked both ways on a local folder (java.nio, the default for local file systems, and
 * Hadoop's {@code listStatus}, what other file systems get): the same paths in the same order, the same errors.
 */
class ImageFolderListingTest {
  @TempDir static Path tmp;
  static FileSystem fs;
  static Path cls;

  @BeforeAll
  static void tree() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    cls = Files.createDirectories(tmp.resolve("tree").resolve("class_00"));
    for (String f : List.of("b.jpg", "a.JPG", "a b.jpeg", "z.png", "readme.txt", ".hidden.jpg", "_tmp.jpg")) {
      Files.write(cls.resolve(f), new byte[] {1});
    }
    Path deep = Files.createDirectories(cls.resolve("sub").resolve("deeper"));
    Files.write(deep.resolve("y.webp"), new byte[0]); // empty files are listed (bad input for the write)
    Files.write(Files.createDirectories(cls.resolve("_skipped")).resolve("s.jpg"), new byte[] {1});
    Files.write(Files.createDirectories(cls.resolve(".git")).resolve("h.jpg"), new byte[] {1});
    Files.write(Files.createDirectories(cls.resolve("folder.jpg")).resolve("inner.gif"), new byte[] {1});
    Files.createSymbolicLink(cls.resolve("gone.jpg"), tmp.resolve("nowhere.jpg")); // a dangling link: left out
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Files.write(elsewhere.resolve("linked.tif"), new byte[] {1});
    Files.createSymbolicLink(cls.resolve("link"), elsewhere); // a linked folder is followed
  }

  static org.apache.hadoop.fs.Path hadoop(Path p) {
    return fs.makeQualified(new org.apache.hadoop.fs.Path(p.toString()));
  }

  @ParameterizedTest(name = "nio {0}")
  @ValueSource(booleans = {true, false})
  void imagesAtAnyDepthSortedHiddenNamesSkipped(boolean nio) throws IOException {
    String base = "file:" + cls + "/";
    assertThat(ImageFolderListing.images(fs, hadoop(cls), nio)).containsExactly(base + "a b.jpeg", base + "a.JPG",
        base + "b.jpg", base + "folder.jpg/inner.gif", base + "link/linked.tif", base + "sub/deeper/y.webp",
        base + "z.png");
  }

  @Test
  void bothWalksGiveTheSameStringsAndTheLocalOneIsTheDefault() throws IOException {
    List<String> viaHadoop = ImageFolderListing.images(fs, hadoop(cls), false);
    assertThat(ImageFolderListing.images(fs, hadoop(cls), true)).isEqualTo(viaHadoop);
    assertThat(ImageFolderListing.images(fs, hadoop(cls))).isEqualTo(viaHadoop).hasSize(7);
  }

  @Test
  void aLargeFolderStatsInParallelAndGivesHadoopsStrings() throws IOException {
    // past PARALLEL_STATS entries, with names Hadoop's Path escapes or normalises beside plain ones
    Path big = Files.createDirectories(tmp.resolve("big").resolve("class_00"));
    List<String> odd = List.of("a b.jpg", "x%20y.jpg", "\u00fc.png", "c:d.jpg", "e+f.jpg", "g#h.jpg", "i?j.jpg", "k~l.JPEG");
    for (String f : odd) {
      Files.write(big.resolve(f), new byte[] {1});
    }
    for (int i = 0; i < ImageFolderListing.PARALLEL_STATS + 100; i++) {
      Files.write(big.resolve(String.format("img_%04d.jpg", i)), new byte[] {1});
    }
    for (int i = 0; i < 20; i++) {
      Files.write(Files.createDirectories(big.resolve("nested-" + i + ".jpg")).resolve("inner.png"), new byte[] {1});
    }
    Files.write(big.resolve("notes.txt"), new byte[] {1});
    List<String> viaHadoop = ImageFolderListing.images(fs, hadoop(big), false);
    assertThat(viaHadoop).hasSize(odd.size() + ImageFolderListing.PARALLEL_STATS + 100 + 20)
        .contains("file:" + big + "/a b.jpg", "file:" + big + "/nested-7.jpg/inner.png");
    assertThat(ImageFolderListing.images(fs, hadoop(big), true)).isEqualTo(viaHadoop);
  }

  @Test
  void plainNamesAreThoseHadoopKeepsAsTheyAre() {
    assertThat(ImageFolderListing.plainName("img_0001.JPG")).isTrue();
    assertThat(ImageFolderListing.plainName("a-b.c.png")).isTrue();
    for (String escaped : List.of("a b.jpg", "x%20.jpg", "\u00fc.jpg", "c:d.jpg", "")) {
      assertThat(ImageFolderListing.plainName(escaped)).as(escaped).isFalse();
    }
  }

  @ParameterizedTest(name = "nio {0}")
  @ValueSource(booleans = {true, false})
  void aMissingFolderIsNamed(boolean nio) {
    org.apache.hadoop.fs.Path missing = hadoop(tmp.resolve("tree").resolve("class_99"));
    assertThatThrownBy(() -> ImageFolderListing.images(fs, missing, nio)).isInstanceOf(FileNotFoundException.class)
        .hasMessage("File " + missing + " does not exist");
  }

  @ParameterizedTest(name = "nio {0}")
  @ValueSource(booleans = {true, false})
  void aSymbolicLinkLoopIsRefused(boolean nio) throws IOException {
    Path loopy = Files.createDirectories(tmp.resolve("loop-" + nio).resolve("class_00"));
    Files.createSymbolicLink(loopy.resolve("again"), loopy);
    assertThatThrownBy(() -> ImageFolderListing.images(fs, hadoop(loopy), nio)).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("is nested 33 levels deep in its class folder, more than 32; is there a symbolic link loop?");
  }

  /** Root reads any folder, so this runs only as another user. */
  @ParameterizedTest(name = "nio {0}")
  @ValueSource(booleans = {true, false})
  void anUnreadableFolderIsNamed(boolean nio) throws IOException {
    Path locked = Files.createDirectories(tmp.resolve("locked-" + nio).resolve("class_00"));
    Path inner = Files.createDirectories(locked.resolve("inner"));
    Files.setPosixFilePermissions(inner, PosixFilePermissions.fromString("---------"));
    try {
      assumeFalse(Files.isReadable(inner), "running as root: every folder is readable");
      assertThatThrownBy(() -> ImageFolderListing.images(fs, hadoop(locked), nio)).isInstanceOf(IOException.class)
          .hasMessageStartingWith("Cannot list folder " + hadoop(inner) + ": ");
    } finally {
      Files.setPosixFilePermissions(inner, PosixFilePermissions.fromString("rwx------"));
    }
  }

  /** Child JVM entry: lists the class folder {@code args[0]} as beton prepare does, prints the images or the error. */
  public static void main(String[] args) throws IOException {
    try {
      System.out.println("images=" + ImageFolderListing.images(FileSystem.getLocal(new Configuration()),
          new org.apache.hadoop.fs.Path(args[0])).size());
    } catch (IOException e) {
      System.out.println("error=" + e.getMessage());
    }
  }

  /**
   * Under the POSIX locale (containers, cron) a JVM reads file names as ASCII: a name holding any other character
   * reads as '?', names no file, and was dropped from the listing as vanished. It fails the listing now, saying why.
   */
  @Test
  void aNameThisJvmCannotReadFailsTheListingInsteadOfVanishing() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.format.io.LocalPaths.nameCharsetHint().isEmpty(),
        "this JVM does not read file names as UTF-8 (a UTF-8 locale makes the folder)");
    Path folder = Files.createDirectories(tmp.resolve("locale").resolve("class_00"));
    Files.write(folder.resolve("plain.jpg"), new byte[] {1});
    Files.write(folder.resolve("gâteau.jpg"), new byte[] {1});
    assertThat(ImageFolderListing.images(fs, hadoop(folder))).hasSize(2);
    assertThat(listInAChild(folder, "C.UTF-8")).isEqualTo("images=2");
    assertThat(listInAChild(folder, "C")).startsWith("error=Cannot read the name of an entry of folder " + folder
        + " (it reads as 'g").endsWith("(this JVM reads file names as ANSI_X3.4-1968, its locale's charset: a name"
        + " holding other characters cannot be read; run it under a UTF-8 locale, e.g. LC_ALL=C.UTF-8)");
  }

  private static String listInAChild(Path folder, String locale) throws IOException, InterruptedException {
    return ChildJvm.lineUnderLocale(locale, List.of("images=", "error="), ImageFolderListingTest.class,
        folder.toString());
  }

}
