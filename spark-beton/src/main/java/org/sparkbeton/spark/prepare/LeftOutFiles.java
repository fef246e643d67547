package org.sparkbeton.spark.prepare;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkbeton.format.Counts;

/**
 * What a listing of class folders left out, counted so that the summary accounts for every file and not only for
 * the images: files that are not images by their extension (per extension: a folder of {@code .heic} photos read as
 * none, without a word, before), hidden names (starting with {@code .}), image names that are symbolic links to
 * nothing, and images directly under the root, in no class folder. Small: it travels from each listing task to the driver.
 */
final class LeftOutFiles implements Serializable {
  private static final long serialVersionUID = 1L;
  /**
   * Extensions counted one by one at most; files of further ones are counted together. A folder of numbered files
   * ({@code log.1}, {@code log.2}, ...) would otherwise make the counts as long as the listing.
   */
  static final int MAX_EXTENSIONS = 64;
  /** Extensions named in {@link #describe()}, the most frequent first. */
  static final int EXTENSIONS_SHOWN = 4;
  /** The longest text after a name's last dot taken as its extension ({@code .heic}, {@code .jfif}, {@code .json}). */
  private static final int MAX_EXTENSION_LENGTH = 10;
  static final String NO_EXTENSION = "";

  private final HashMap<String, Long> notImagesByExtension = new HashMap<>();
  private long notImagesOfOtherExtensions;
  private long hiddenFiles;
  private long hiddenFolders;
  private long danglingLinks;
  private long imagesOutsideClassFolders;

  /** Counts the file {@code name}, which has no image extension. */
  void notAnImage(String name) {
    countNotImages(extension(name), 1);
  }

  private void countNotImages(String extension, long n) {
    if (notImagesByExtension.containsKey(extension) || notImagesByExtension.size() < MAX_EXTENSIONS) {
      notImagesByExtension.merge(extension, n, Long::sum);
    } else {
      notImagesOfOtherExtensions += n;
    }
  }

  /** Counts a file or folder whose name starts with {@code .}; a folder's contents are not looked at. */
  void hidden(boolean folder) {
    if (folder) {
      hiddenFolders++;
    } else {
      hiddenFiles++;
    }
  }

  /** Counts an image name that is a symbolic link to nothing. */
  void danglingLink() {
    danglingLinks++;
  }

  /** Counts an image directly under the root of the tree, in no class folder. */
  void imageOutsideClassFolders() {
    imagesOutsideClassFolders++;
  }

  long imagesOutsideClassFolders() {
    return imagesOutsideClassFolders;
  }

  /** Adds the counts of {@code other} to these. */
  void add(LeftOutFiles other) {
    other.notImagesByExtension.forEach(this::countNotImages);
    notImagesOfOtherExtensions += other.notImagesOfOtherExtensions;
    hiddenFiles += other.hiddenFiles;
    hiddenFolders += other.hiddenFolders;
    danglingLinks += other.danglingLinks;
    imagesOutsideClassFolders += other.imagesOutsideClassFolders;
  }

  long notImages() {
    return notImagesByExtension.values().stream().mapToLong(Long::longValue).sum() + notImagesOfOtherExtensions;
  }

  /**
   * The files left out: not images, hidden files, dangling links and images in no class folder (hidden folders are
   * not looked into).
   */
  long files() {
    return notImages() + hiddenFiles + danglingLinks + imagesOutsideClassFolders;
  }

  boolean isEmpty() {
    return files() == 0 && hiddenFolders == 0;
  }

  /**
   * The counts in words, e.g. {@code 7 files that are not images by their extension (3 .heic, 2 .txt, 1 .db,
   * 1 .ppm), 2 hidden files (names starting with .)}; "nothing" when there are none.
   */
  String describe() {
    List<String> parts = new ArrayList<>();
    if (imagesOutsideClassFolders > 0) {
      parts.add(Counts.of(imagesOutsideClassFolders, "image") + " directly under the input, in no class folder");
    }
    if (notImages() > 0) {
      parts.add(notImages() == 1 ? "1 file that is not an image by its extension (" + extensions() + ")"
          : Counts.of(notImages(), "file") + " that are not images by their extension (" + extensions() + ")");
    }
    if (hiddenFiles > 0) {
      parts.add(Counts.of(hiddenFiles, "hidden file") + " (names starting with .)");
    }
    if (hiddenFolders > 0) {
      parts.add(Counts.of(hiddenFolders, "hidden folder") + " (not looked into)");
    }
    if (danglingLinks > 0) {
      parts.add(Counts.of(danglingLinks, "image name") + " linking to nothing");
    }
    return parts.isEmpty() ? "nothing" : String.join(", ", parts);
  }

  /** The most frequent extensions with their counts, then how many files the rest hold. */
  private String extensions() {
    List<Map.Entry<String, Long>> sorted = new ArrayList<>(notImagesByExtension.entrySet());
    sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    List<String> shown = new ArrayList<>();
    long rest = notImagesOfOtherExtensions;
    for (int i = 0; i < sorted.size(); i++) {
      Map.Entry<String, Long> e = sorted.get(i);
      if (i < EXTENSIONS_SHOWN) {
        shown.add(String.format(Locale.ROOT, "%,d %s", e.getValue(),
            e.getKey().equals(NO_EXTENSION) ? "without an extension" : e.getKey()));
      } else {
        rest += e.getValue();
      }
    }
    if (rest > 0) {
      shown.add(String.format(Locale.ROOT, "%,d of other extensions", rest));
    }
    return String.join(", ", shown);
  }

  /**
   * The extension of {@code name} as counted: the text from its last dot, lower case, where it is a short word
   * ({@code .HEIC} is {@code .heic}); {@link #NO_EXTENSION} for {@code README}, {@code notes.} or
   * {@code photo.backup from 2019}.
   */
  static String extension(String name) {
    int dot = name.lastIndexOf('.');
    if (dot <= 0 || name.length() - dot - 1 < 1 || name.length() - dot - 1 > MAX_EXTENSION_LENGTH) {
      return NO_EXTENSION;
    }
    for (int i = dot + 1; i < name.length(); i++) {
      if (Character.isWhitespace(name.charAt(i))) {
        return NO_EXTENSION;
      }
    }
    return name.substring(dot).toLowerCase(Locale.ROOT);
  }

  /** These counts as bytes, for a column of a listing task's rows ({@link #fromBytes}). */
  byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  static LeftOutFiles fromBytes(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return (LeftOutFiles) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("Cannot read the left-out counts of a listing task", e);
    }
  }
}
