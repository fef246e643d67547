package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ImageSettingsChangeTest {
  private static final Map<String, String> DATASET = Map.of("write_mode", "jpg", "max_resolution", "256",
      "min_resolution", "none", "jpeg_quality", "90", "jpeg_subsampling", "420", "job_id", "a1");

  @Test
  void namesEachImageSettingAnAppendChangedInTheRecipesOrder() {
    Map<String, String> append = Map.of("write_mode", "jpg", "max_resolution", "512", "min_resolution", "none",
        "jpeg_quality", "80", "jpeg_subsampling", "420", "job_id", "b2");
    assertThat(ImageSettingsChange.of(DATASET, append)).hasValueSatisfying(warning -> assertThat(warning)
        .startsWith("this append stores its images with other settings than the dataset's: max_resolution 512"
            + " (was 256), jpeg_quality 80 (was 90). The images already there stay as they were stored"));
  }

  @Test
  void theSameSettingsOtherEntriesOrOneSideOnlyChangeNothing() {
    Map<String, String> same = Map.of("write_mode", "jpg", "max_resolution", "256", "min_resolution", "none",
        "jpeg_quality", "90", "jpeg_subsampling", "420", "job_id", "b2", "spark_version", "3.5.9");
    assertThat(ImageSettingsChange.of(DATASET, same)).isEmpty();
    // a dataset without images records no image settings; an older recipe may lack one
    assertThat(ImageSettingsChange.of(Map.of("job_id", "a1"), same)).isEmpty();
    assertThat(ImageSettingsChange.of(DATASET, Map.of("write_mode", "jpg"))).isEmpty();
  }
}
