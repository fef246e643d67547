package org.sparkbeton.spark.prepare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkbeton.format.Counts;

/**
 * What the listing of an ImageFolder tree found besides its images: the files it left out in all class folders, and
 * the class folders where it found files but no image (whose class then has 0 samples: a folder of {@code .heic}
 * photos, say).
 *
 * @param images the images listed
 * @param leftOut the files left out, all class folders together
 * @param classesWithNoImage class folder name to what was left out of it, in label order, for each class folder that
 *     holds files but no image
 */
record ListingReport(long images, LeftOutFiles leftOut, Map<String, LeftOutFiles> classesWithNoImage) {

  /** The report of class folders {@code classes} (label = index), from each one's image count and left-out files. */
  static ListingReport of(List<String> classes, long[] imagesPerClass, LeftOutFiles[] leftOutPerClass) {
    long images = 0;
    LeftOutFiles total = new LeftOutFiles();
    Map<String, LeftOutFiles> noImage = new LinkedHashMap<>();
    for (int label = 0; label < classes.size(); label++) {
      images += imagesPerClass[label];
      total.add(leftOutPerClass[label]);
      if (imagesPerClass[label] == 0 && leftOutPerClass[label].files() > 0) {
        noImage.put(classes.get(label), leftOutPerClass[label]);
      }
    }
    return new ListingReport(images, total, noImage);
  }

  /**
   * This report with {@code root}'s left-out files (those directly under the input, beside the class folders)
   * counted in.
   */
  ListingReport withRoot(LeftOutFiles root) {
    LeftOutFiles total = new LeftOutFiles();
    total.add(leftOut);
    total.add(root);
    return new ListingReport(images, total, classesWithNoImage);
  }

  /**
   * A warning for images directly under the input (they belong to no class, so they are not written), then one per
   * class folder that holds files but no image, naming it and what was left out of it.
   */
  List<String> warnings() {
    List<String> warnings = new ArrayList<>();
    long loose = leftOut.imagesOutsideClassFolders();
    if (loose > 0) {
      warnings.add(Counts.of(loose, "image") + (loose == 1 ? " lies" : " lie") + " directly under the input, in no"
          + " class folder, and " + (loose == 1 ? "was" : "were") + " left out: a sample's class is its image's"
          + " folder, so move " + (loose == 1 ? "it" : "them") + " into one");
    }
    classesWithNoImage.forEach((name, left) -> warnings.add("class folder '" + name + "' has no images, so its"
        + " class gets 0 samples: left out " + left.describe()));
    return warnings;
  }
}
