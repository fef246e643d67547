package org.sparkbeton.spark.prepare;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.JsonText;
import org.sparkbeton.spark.write.BetonWriteOptions;

/**
 * The labels of an ImageFolder's class folders in the dataset they are written to. A new dataset's classes are the
 * folders, sorted (torchvision's rule: a label is its folder's index), and its manifest records their names
 * ({@link BetonWriteOptions#CLASS_NAMES}). An {@code --append} takes the dataset's recorded names: a folder gets the
 * label its class has there, whichever folders the new input holds, where the folders' own sorted index would give
 * images of {@code dog} the label of {@code cat} when the new input lacks {@code cat}.
 *
 * @param names the dataset's class names, label 0's first
 * @param labelOfFolder the label of each folder of the input, in the input's sorted folder order
 */
record ClassLabels(List<String> names, int[] labelOfFolder) {
  /** Labels for a new dataset of {@code folders} (sorted). */
  static ClassLabels of(List<String> folders) {
    int[] identity = new int[folders.size()];
    for (int i = 0; i < identity.length; i++) {
      identity[i] = i;
    }
    return new ClassLabels(List.copyOf(folders), identity);
  }

  /**
   * Labels for {@code folders} (sorted) appended to the dataset {@code existing} at {@code output}: the recorded
   * names'. Throws IllegalArgumentException, before anything is written, when the dataset records no names or the
   * input has a class the dataset has not.
   */
  static ClassLabels appendedTo(DatasetManifest existing, String output, List<String> folders) {
    String recorded = existing.recipe().get(DatasetFiles.CLASS_NAMES);
    if (recorded == null) {
      throw new IllegalArgumentException("Cannot --append to " + output + ": its manifest records no class names (it"
          + " was prepared before beton prepare recorded them, or written by a job of your own), so the labels of the"
          + " input's class folders cannot be matched to its labels; prepare every class into a new dataset, or"
          + " replace this one with --overwrite");
    }
    List<String> names = JsonText.stringList(recorded);
    List<String> unknown = new ArrayList<>();
    int[] labels = new int[folders.size()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = labelOf(folders.get(i), names);
      if (labels[i] < 0) {
        unknown.add(folders.get(i));
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("Cannot --append to " + output + ": the input has class folders the dataset"
          + " has not (" + String.join(", ", unknown) + "; its classes: " + String.join(", ", names) + "). --append"
          + " adds images of the dataset's classes, each with its label there; a new class would shift the sorted"
          + " labels of those after it. Prepare every class into a new dataset, or replace this one with --overwrite");
    }
    return new ClassLabels(List.copyOf(names), labels);
  }

  /**
   * The label of the class named {@code folder} among {@code names}, -1 for none. A name that differs from the
   * dataset's only in its Unicode normalization is that class: macOS file systems store folder names decomposed
   * (NFD: e + combining acute), most others as typed (NFC: é), and the two look the same in every listing.
   */
  static int labelOf(String folder, List<String> names) {
    int exact = names.indexOf(folder);
    if (exact >= 0) {
      return exact;
    }
    String composed = Normalizer.normalize(folder, Normalizer.Form.NFC);
    for (int i = 0; i < names.size(); i++) {
      if (Normalizer.normalize(names.get(i), Normalizer.Form.NFC).equals(composed)) {
        return i;
      }
    }
    return -1;
  }

  /** The label of the rows whose folder index (in the input's sorted folders) is {@code folderIndex}. */
  Column label(Column folderIndex) {
    boolean identity = true;
    Column[] table = new Column[labelOfFolder.length];
    for (int i = 0; i < table.length; i++) {
      identity &= labelOfFolder[i] == i;
      table[i] = functions.lit(labelOfFolder[i]);
    }
    return (identity ? folderIndex : functions.element_at(functions.array(table), folderIndex.plus(1))).as("label");
  }

  /** The class name of {@code label}. */
  String name(long label) {
    return label >= 0 && label < names.size() ? names.get((int) label) : "(label " + label + ")";
  }
}
