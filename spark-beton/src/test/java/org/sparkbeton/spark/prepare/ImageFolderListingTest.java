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
    for (String f : List.of("b.jpg", "a.JPG", "a b.jpeg", "z.png", "readme.txt", ".hidden.jpg", "._b.jpg",
        "_DSC0001.JPG")) {
      Files.write(cls.resolve(f), new byte[] {1});
    }
    Path deep = Files.createDirectories(cls.resolve("sub").resolve("deeper"));
    Files.write(deep.resolve("y.webp"), new byte[0]); // empty files are listed (bad input for the write)
    Files.write(Files.createDirectories(cls.resolve("_rejects")).resolve("r.jpg"), new byte[] {1});
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

  /**
   * Names starting with {@code _} are listed, files and folders, as torchvision lists them (a Nikon names every
   * Adobe RGB shot {@code _DSC0001.JPG}); names starting with {@code .} are not, and are counted apart from the
   * files that are not images. Hadoop's walk cannot tell a link to nothing from a file that vanished.
   */
  @ParameterizedTest(name = "nio {0}")
  @ValueSource(booleans = {true, false})
  void imagesAtAnyDepthSortedHiddenNamesSkippedAndCounted(boolean nio) throws IOException {
    String base = "file:" + cls + "/";
    ImageFolderListing.ClassFolder listed = ImageFolderListing.classFolder(fs, hadoop(cls), nio);
    assertThat(listed.images()).containsExactly(base + "_DSC0001.JPG", base + "_rejects/r.jpg", base + "a b.jpeg",
        base + "a.JPG", base + "b.jpg", base + "folder.jpg/inner.gif", base + "link/linked.tif",
        base + "sub/deeper/y.webp", base + "z.png");
    assertThat(listed.leftOut().describe()).isEqualTo("1 file that is not an image by its extension (1 .txt),"
        + " 2 hidden files (names starting with .), 1 hidden folder (not looked into)"
        + (nio ? ", 1 image name linking to nothing" : ""));
  }

  @Test
  void bothWalksGiveTheSameStringsAndTheLocalOneIsTheDefault() throws IOException {
    List<String> viaHadoop = ImageFolderListing.classFolder(fs, hadoop(cls), false).images();
    assertThat(ImageFolderListing.classFolder(fs, hadoop(cls), true).images()).isEqualTo(viaHadoop);
    assertThat(ImageFolderListing.images(fs, hadoop(cls))).isEqualTo(viaHadoop).hasSize(9);
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
    List<String> viaHadoop = ImageFolderListing.classFolder(fs, hadoop(big), false).images();
    assertThat(viaHadoop).hasSize(odd.size() + ImageFolderListing.PARALLEL_STATS + 100 + 20)
        .contains("file:" + big + "/a b.jpg", "file:" + big + "/nested-7.jpg/inner.png");
    assertThat(ImageFolderListing.classFolder(fs, hadoop(big), true).images()).isEqualTo(viaHadoop);
  }

  /**
   * Names holding {@code :} (a scheme's mark in a URI), {@code %}, {@code #} or {@code ?}, of nested folders and of
   * files: both walks give the same strings, and each string names its file again, as the write opens it
   * ({@code new Path(String)}).
   */
  @Test
  void namesThatLookLikeUriSyntaxAreNames() throws IOException {
    Path folder = Files.createDirectories(tmp.resolve("uri-syntax").resolve("12:30 photos"));
    List<String> names = List.of("a:b.jpg", "x%20y.jpg", "g#h.jpg", "i?j.jpg");
    for (String dir : List.of("", "sub:dir/", "p%41t/", "h#s?q/")) {
      Path d = Files.createDirectories(folder.resolve(dir.isEmpty() ? "." : dir));
      for (String f : names) {
        Files.write(d.resolve(f), new byte[] {1});
      }
    }
    List<String> viaHadoop = ImageFolderListing.classFolder(fs, hadoop(folder), false).images();
    assertThat(ImageFolderListing.classFolder(fs, hadoop(folder), true).images()).isEqualTo(viaHadoop);
    assertThat(viaHadoop).hasSize(16).contains("file:" + folder + "/sub:dir/a:b.jpg", "file:" + folder + "/p%41t/x%20y.jpg",
        "file:" + folder + "/h#s?q/i?j.jpg");
    for (String p : viaHadoop) {
      assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path(p)).getLen()).as(p).isEqualTo(1);
    }
  }

  /** The counts a listing leaves out: an extension is a short word after the last dot, any case. */
  @Test
  void leftOutFilesAreCountedByExtension() {
    assertThat(LeftOutFiles.extension("IMG_1.HEIC")).isEqualTo(".heic");
    assertThat(LeftOutFiles.extension("Thumbs.db")).isEqualTo(".db");
    assertThat(LeftOutFiles.extension("a.tar.gz")).isEqualTo(".gz");
    for (String none : List.of("README", "notes.", "photo.backup from 2019", "x.averyverylongword")) {
      assertThat(LeftOutFiles.extension(none)).as(none).isEqualTo(LeftOutFiles.NO_EXTENSION);
    }
    LeftOutFiles left = new LeftOutFiles();
    assertThat(left.describe()).isEqualTo("nothing");
    assertThat(left.isEmpty()).isTrue();
    for (String f : List.of("a.heic", "b.HEIC", "c.heic", "README", "x.txt", "y.txt", "Thumbs.db", "z.ppm", "w.pgm",
        "v.jfif")) {
      left.notAnImage(f);
    }
    left.hidden(false);
    LeftOutFiles copy = LeftOutFiles.fromBytes(left.toBytes());
    assertThat(copy.describe()).isEqualTo(left.describe()).isEqualTo("10 files that are not images by their"
        + " extension (3 .heic, 2 .txt, 1 without an extension, 1 .db, 3 of other extensions), 1 hidden file (names starting with .)");
    copy.add(left);
    assertThat(copy.files()).isEqualTo(22);
    assertThat(copy.notImages()).isEqualTo(20);
  }

  /** Past {@link LeftOutFiles#MAX_EXTENSIONS} extensions, files of new ones are counted together. */
  @Test
  void leftOutExtensionsAreBounded() {
    LeftOutFiles left = new LeftOutFiles();
    for (int i = 0; i < LeftOutFiles.MAX_EXTENSIONS + 10; i++) {
      left.notAnImage("log." + i);
    }
    left.notAnImage("log.0");
    assertThat(left.notImages()).isEqualTo(LeftOutFiles.MAX_EXTENSIONS + 11);
    assertThat(left.describe()).isEqualTo((LeftOutFiles.MAX_EXTENSIONS + 11) + " files that are not images by their"
        + " extension (2 .0, 1 .1, 1 .10, 1 .11, " + (LeftOutFiles.MAX_EXTENSIONS + 11 - 5) + " of other extensions)");
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
    assertThatThrownBy(() -> ImageFolderListing.classFolder(fs, missing, nio)).isInstanceOf(FileNotFoundException.class)
        .hasMessage("File " + missing + " does not exist");
  }

  @ParameterizedTest(name = "nio {0}")
  @ValueSource(booleans = {true, false})
  void aSymbolicLinkLoopIsRefused(boolean nio) throws IOException {
    Path loopy = Files.createDirectories(tmp.resolve("loop-" + nio).resolve("class_00"));
    Files.createSymbolicLink(loopy.resolve("again"), loopy);
    assertThatThrownBy(() -> ImageFolderListing.classFolder(fs, hadoop(loopy), nio)).isInstanceOf(UncheckedIOException.class)
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
      assertThatThrownBy(() -> ImageFolderListing.classFolder(fs, hadoop(locked), nio)).isInstanceOf(IOException.class)
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
    } catch (IOException | IllegalArgumentException e) {
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

  /**
   * Writes {@code photo_\351t\351.jpg} into {@code folder}: a name of Latin-1 bytes ("photo_été.jpg" as older
   * Windows tools and cameras write it), which Java cannot write under a UTF-8 locale, so a shell writes it. Skips
   * the test where that cannot be done, or where this JVM does not read names as UTF-8.
   */
  static void writeLatin1Name(Path folder) throws IOException, InterruptedException {
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh");
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.format.io.LocalPaths.nameCharsetHint().isEmpty(),
        "this JVM does not read file names as UTF-8");
    Process touch = new ProcessBuilder("/bin/sh", "-c", "touch \"$(printf 'photo_\\351t\\351.jpg')\"")
        .directory(folder.toFile()).inheritIO().start();
    org.junit.jupiter.api.Assumptions.assumeTrue(touch.waitFor() == 0, "the file system refuses a Latin-1 name");
  }

  /**
   * A name whose bytes are not UTF-8, under a UTF-8 locale: bad input, with the fix (convmv), where it used to fail
   * the job as an I/O error. (Hadoop's walk, for other file systems, never meets such a name: HDFS and S3 keys are
   * UTF-8.)
   */
  @Test
  void aNameNotInUtf8IsBadInputWithTheFix() throws Exception {
    Path folder = Files.createDirectories(tmp.resolve("latin1").resolve("class_00"));
    Files.write(folder.resolve("ok.jpg"), new byte[] {1});
    writeLatin1Name(folder);
    assertThatThrownBy(() -> ImageFolderListing.classFolder(fs, hadoop(folder), true))
        .isInstanceOf(UnreadableNameException.class)
        .hasMessage("Cannot read the name of an entry of folder " + hadoop(folder) + " (it reads as"
            + " 'photo_\ufffdt\ufffd.jpg'): its bytes are not UTF-8; rename it in UTF-8, e.g. with convmv -f latin1 -t"
            + " utf8 -r --notest " + folder + " where names were written in Latin-1 (without --notest convmv only"
            + " shows what it would rename)");
    assertThat(UnreadableNameException.shellWord("/data/my photos/it's")).isEqualTo("'/data/my photos/it'\\''s'");
  }

  private static String listInAChild(Path folder, String locale) throws IOException, InterruptedException {
    return ChildJvm.lineUnderLocale(locale, List.of("images=", "error="), ImageFolderListingTest.class,
        folder.toString());
  }

}
