package org.sparkbeton.format.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionNamesTest {
  static final List<String> WRITE = List.of("imageColumns", "maxResolution", "minResolution", "writeMode",
      "jpegQuality", "seed", "pageSize");
  static final OptionNames NAMES = OptionNames.of("format(\"beton\") writes", WRITE, Set.of("path", "paths"), true);

  @Test
  void acceptsDocumentedHostAndDottedNamesInAnyCase() {
    NAMES.check(List.of("IMAGECOLUMNS", "maxresolution", "Path", "PATHS", "fs.s3a.endpoint", "seed"));
    assertThat(NAMES.accepts("WriteMode")).isTrue();
    assertThat(NAMES.accepts("imageColumn")).isFalse();
    assertThat(OptionNames.of("x", WRITE, Set.of(), false).accepts("fs.s3a.endpoint")).isFalse();
  }

  @Test
  void refusesAnUnknownNameWithTheNearestAndTheValidNames() {
    assertThatThrownBy(() -> NAMES.check(List.of("path", "imageColums")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown option 'imageColums' for format(\"beton\") writes; did you mean 'imageColumns'?"
            + " Valid options (any case): imageColumns, maxResolution, minResolution, writeMode, jpegQuality, seed,"
            + " pageSize; names with a dot pass as file system settings (e.g. fs.s3a.endpoint)");
  }

  @Test
  void namesEveryUnknownOptionAndSaysNothingWhenNoneIsClose() {
    OptionNames strict = OptionNames.of("format(\"beton\") reads", List.of("imageMode", "maxPartitionBytes"),
        Set.of("path"), false);
    assertThatThrownBy(() -> strict.check(List.of("imageMod", "compression", "path")))
        .hasMessage("Unknown options for format(\"beton\") reads: 'compression', 'imageMod' (did you mean"
            + " 'imageMode'?). Valid options (any case): imageMode, maxPartitionBytes");
    assertThatThrownBy(() -> strict.check(List.of("format")))
        .hasMessage("Unknown option 'format' for format(\"beton\") reads. Valid options (any case): imageMode,"
            + " maxPartitionBytes");
  }

  @Test
  void nearestCatchesTyposSwapsSnakeCaseAndPartialNames() {
    assertThat(OptionNames.nearest("maxResolutoin", WRITE)).contains("maxResolution"); // a swap costs 1
    assertThat(OptionNames.nearest("max_resolution", WRITE)).contains("maxResolution");
    assertThat(OptionNames.nearest("IMGCOLUMNS", WRITE)).contains("imageColumns");
    assertThat(OptionNames.nearest("quality", WRITE)).contains("jpegQuality"); // contained
    assertThat(OptionNames.nearest("resolution", WRITE)).contains("maxResolution"); // a tie: the earlier one
    assertThat(OptionNames.nearest("minres", WRITE)).contains("minResolution");
    assertThat(OptionNames.nearest("imageMod", WRITE)).contains("imageColumns"); // starts alike: "image"
    assertThat(OptionNames.nearest("imageryMode", WRITE)).isEmpty(); // "image" is under half of it
    assertThat(OptionNames.nearest("sed", WRITE)).contains("seed");
    assertThat(OptionNames.nearest("id", WRITE)).isEmpty(); // too short to count as contained
    assertThat(OptionNames.nearest("compression", WRITE)).isEmpty();
  }

  @Test
  void distanceCountsInsertDeleteReplaceAndSwap() {
    assertThat(OptionNames.distance("", "abc")).isEqualTo(3);
    assertThat(OptionNames.distance("abc", "abc")).isZero();
    assertThat(OptionNames.distance("abc", "acb")).isEqualTo(1);
    assertThat(OptionNames.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(OptionNames.distance("imagemod", "writemode")).isEqualTo(5);
  }

  @Test
  void needsADocumentedOption() {
    assertThatThrownBy(() -> OptionNames.of("x", List.of(), Set.of(), false))
        .hasMessage("OptionNames of x needs at least one documented option");
  }
}
