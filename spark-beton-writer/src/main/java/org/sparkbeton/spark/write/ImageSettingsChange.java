package org.sparkbeton.spark.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an append changed of the dataset's image settings: an append takes the dataset's settings where its options
 * give none ({@link BetonWriteOptions#withRecipe}), so a difference comes from an option given on purpose. The new
 * images are stored by it while those already there stay as they were, and the manifest's recipe, which records
 * the last write's settings, then describes only the new ones; later appends and {@code INSERT}s take them.
 */
final class ImageSettingsChange {
  private ImageSettingsChange() {}

  /**
   * The warning for an append whose recipe {@code next} stores images unlike the dataset's {@code previous} one, or
   * none: a setting both record (write mode, sizes, JPEG quality and subsampling, the smart mode's settings) with
   * two values.
   */
  static Optional<String> of(Map<String, String> previous, Map<String, String> next) {
    List<String> changed = new ArrayList<>();
    for (String entry : BetonWriteOptions.recipeImageEntries()) {
      String before = previous.get(entry);
      String now = next.get(entry);
      if (before != null && now != null && !before.equals(now)) {
        changed.add(entry + " " + now + " (was " + before + ")");
      }
    }
    if (changed.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("this append stores its images with other settings than the dataset's: "
        + String.join(", ", changed) + ". The images already there stay as they were stored; the manifest's recipe"
        + " now records this write's settings, which later appends and INSERTs take where their options give none");
  }
}
