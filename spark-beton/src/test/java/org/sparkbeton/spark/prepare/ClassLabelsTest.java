package org.sparkbeton.spark.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.BetonField;
import org.sparkbeton.format.dataset.DatasetFiles;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.dataset.ManifestField;
import org.sparkbeton.format.fields.IntField;

class ClassLabelsTest {
  /** café as typed (NFC, one code point for é) and as macOS stores folder names (NFD, e and a combining accent). */
  private static final String CAFE_NFC = "caf\u00e9";
  private static final String CAFE_NFD = "cafe\u0301";

  private static DatasetManifest recording(String classNames) {
    return new DatasetManifest(List.of(ManifestField.of(new BetonField("label", IntField.INSTANCE))), List.of(),
        Map.of(DatasetFiles.CLASS_NAMES, classNames), "test");
  }

  @Test
  void anAppendTakesTheDatasetsLabelOfEachFolderWhateverFoldersTheInputHolds() {
    ClassLabels labels = ClassLabels.appendedTo(recording("[\"bird\",\"cat\",\"dog\"]"), "out", List.of("bird", "dog"));
    assertThat(labels.labelOfFolder()).containsExactly(0, 2);
    assertThat(labels.name(2)).isEqualTo("dog");
  }

  /** The refusal named "café" as a class the dataset lacked while listing "café" among its classes. */
  @Test
  void aFolderNamedAsTheDatasetsClassInAnotherUnicodeNormalizationIsThatClass() {
    assertThat(CAFE_NFC).isNotEqualTo(CAFE_NFD);
    ClassLabels fromMac = ClassLabels.appendedTo(recording("[\"bar\",\"" + CAFE_NFC + "\"]"), "out", List.of(CAFE_NFD));
    assertThat(fromMac.labelOfFolder()).containsExactly(1);
    ClassLabels onto = ClassLabels.appendedTo(recording("[\"" + CAFE_NFD + "\",\"tea\"]"), "out", List.of(CAFE_NFC, "tea"));
    assertThat(onto.labelOfFolder()).containsExactly(0, 1);
    assertThatThrownBy(() -> ClassLabels.appendedTo(recording("[\"" + CAFE_NFC + "\"]"), "out", List.of("cafe")))
        .hasMessageStartingWith("Cannot --append to out: the input has class folders the dataset has not (cafe;");
  }
}
