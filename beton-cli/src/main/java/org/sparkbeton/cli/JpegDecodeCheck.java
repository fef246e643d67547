package org.sparkbeton.cli;

import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.codec.format.FfcvPixels;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImage;
import org.sparkbeton.format.verify.JpegSof;

/**
 * {@code verify --decode}: decodes every JPEG payload in full, as a loader would, and lists the ones that do
 * not decode (with a strict codec, those libjpeg reports as corrupt). Images whose frame size disagrees with the
 * metadata are skipped: the structural check already reports them. An image over {@link #LARGE} pixels is
 * decoded at 1/8 first, so that a frame header claiming, say, 16000x16000 over a small photo's data is reported
 * without asking for the 768 MB its whole decode would take.
 */
final class JpegDecodeCheck {
  /** Images over this many pixels are checked at 1/8 before their whole decode. */
  static final long LARGE = 16L << 20;

  private JpegDecodeCheck() {}

  /** At most {@code limit} messages; the count of all problems is the list's size when below the limit. */
  static Result run(BetonReader reader, FfcvPixels pixels, int limit) {
    List<String> problems = new ArrayList<>();
    long count = 0;
    long decoded = 0;
    for (int f = 0; f < reader.fields().size(); f++) {
      if (reader.fields().get(f).typeId() != FieldTypes.RGB_IMAGE) {
        continue;
      }
      String name = reader.fields().get(f).name();
      for (long s = 0; s < reader.numSamples(); s++) {
        RgbImage image;
        try {
          image = (RgbImage) reader.value(s, f);
        } catch (BetonFormatException e) {
          continue; // reported by the structural check
        }
        if (image.mode() != ImageMode.JPG || !frameMatches(image)) {
          continue;
        }
        try {
          if ((long) image.width() * image.height() > LARGE) {
            pixels.checkAtOneEighth(image);
          }
          pixels.decodeRgb(image);
          decoded++;
        } catch (IllegalArgumentException e) {
          count++;
          if (problems.size() < limit) {
            problems.add("sample " + s + " field '" + name + "': " + e.getMessage());
          }
        }
      }
    }
    return new Result(decoded, count, problems);
  }

  private static boolean frameMatches(RgbImage image) {
    int[] wh = JpegSof.dimensions(image.payload());
    return wh != null && wh[0] == image.width() && wh[1] == image.height();
  }

  record Result(long decoded, long problemCount, List<String> problems) {}
}
