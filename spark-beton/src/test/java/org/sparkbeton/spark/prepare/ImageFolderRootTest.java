package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The top level of an ImageFolder tree: its class folders in label order, and what lies beside them counted. */
class ImageFolderRootTest {
  @TempDir Path tmp;

  @Test
  void classFoldersAreSortedByCodePointAndFilesBesideThemAreLeftOut() throws Exception {
    for (String c : new String[] {"dog", "Cat", "ant", ".git"}) {
      Files.createDirectories(tmp.resolve(c));
    }
    for (String f : new String[] {"stray.JPG", "also.png", "labels.csv", ".DS_Store"}) {
      Files.writeString(tmp.resolve(f), "x");
    }
    ImageFolderRoot root = ImageFolderRoot.of(new Configuration(), tmp.toString());
    assertThat(root.classes()).containsExactly("Cat", "ant", "dog");
    assertThat(root.leftOut().imagesOutsideClassFolders()).isEqualTo(2);
    assertThat(root.leftOut().describe()).isEqualTo("2 images directly under the input, in no class folder, 1 file"
        + " that is not an image by its extension (1 .csv), 1 hidden file (names starting with .), 1 hidden folder"
        + " (not looked into)");
  }

  /**
   * Under a cluster's configuration (fs.defaultFS on HDFS) a local folder given without a scheme was said not to
   * exist, without saying where it was looked for.
   */
  @Test
  void anInputNotFoundOnADefaultFileSystemThatIsNotLocalSaysWhere() {
    org.apache.hadoop.conf.Configuration conf = StoreWaitNoticeTest.withSlowStore();
    conf.set("fs.defaultFS", "slowstore://cluster");
    assertThatThrownBy(() -> ImageFolderRoot.of(conf, "/0/photos/absent"))
        .hasMessage("Input /0/photos/absent does not exist on slowstore://cluster/0/photos/absent (a path without a"
            + " scheme is on the default file system, fs.defaultFS = slowstore://cluster; for a local folder write"
            + " file:///0/photos/absent)");
  }

  @Test
  void aTreeWithoutClassFoldersIsRefusedSayingWhereItsImagesAre() throws Exception {
    Files.writeString(tmp.resolve("a.jpg"), "x");
    Files.writeString(tmp.resolve("b.jpg"), "x");
    assertThatThrownBy(() -> ImageFolderRoot.of(new Configuration(), tmp.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Input " + tmp + " has no class folders; expected <input>/<class>/<image> (it holds 2 images"
            + " directly: an ImageFolder's label is its image's class folder, so put them in one folder per class)");
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertThatThrownBy(() -> ImageFolderRoot.of(new Configuration(), empty.toString()))
        .hasMessage("Input " + empty + " has no class folders; expected <input>/<class>/<image>");
    assertThatThrownBy(() -> ImageFolderRoot.of(new Configuration(), tmp.resolve("nope").toString()))
        .hasMessageStartingWith("Input " + tmp.resolve("nope") + " does not exist");
  }

  /** A photo given as the input: "failed: <path>" before, from the listing's NotDirectoryException. */
  @Test
  void aFileGivenAsTheInputIsRefusedSayingWhatTheInputIs() throws Exception {
    Path photo = Files.writeString(tmp.resolve("photo.jpg"), "x");
    assertThatThrownBy(() -> ImageFolderRoot.of(new Configuration(), photo.toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Input " + photo + " is a file; the input is an ImageFolder, a folder with one folder of images"
            + " per class (<input>/<class>/<image>), whose names become the labels");
  }
}
