package org.sparkbeton.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BetonWriteConfTest {

  @Test
  void defaultsMirrorFfcv() {
    BetonWriteConf c = BetonWriteConf.parse(Map.of());
    assertThat(c.writeMode).isEqualTo(WriteMode.RAW);
    assertThat(c.jpegQuality).isEqualTo(90);
    assertThat(c.compressProbability).isEqualTo(0.5);
    assertThat(c.pageSize).isEqualTo(8L << 20);
    assertThat(c.targetShardSize).isEqualTo(1L << 30);
    assertThat(c.resolution).isEqualTo(ResolutionLimit.NONE);
    assertThat(c.stringEncoding).isEqualTo(StringEncoding.JSON);
    assertThat(c.resizeSpace).isEqualTo(JpegResizeSpace.YCBCR);
    assertThat(c.recipe().get("jpeg_resize_space")).startsWith("ycbcr");
    assertThat(BetonWriteConf.parse(Map.of("jpegSubsampling", "444")).recipe()).containsEntry("jpeg_resize_space", "rgb");
  }

  @Test
  void namesAreCaseInsensitiveAndSizesTakeUnits() {
    BetonWriteConf c = BetonWriteConf.parse(Map.of("WRITEMODE", "Jpg", "maxresolution", "256", "PageSize", "4MiB",
        "targetShardSize", "512m", "imageColumns", "Image, thumb", "arrayShapes", "emb:3x4;mask:16"));
    assertThat(c.writeMode).isEqualTo(WriteMode.JPG);
    assertThat(c.resolution).isEqualTo(new ResolutionLimit(ResolutionLimit.Side.LONGER, 256));
    assertThat(c.pageSize).isEqualTo(4L << 20);
    assertThat(c.targetShardSize).isEqualTo(512L << 20);
    assertThat(c.isImageColumn("IMAGE")).isTrue();
    assertThat(c.isImageColumn("thumb")).isTrue();
    assertThat(c.arrayShape("EMB")).containsExactly(3, 4);
    assertThat(BetonWriteConf.parse(Map.of("JPEGRESIZESPACE", " RGB")).resizeSpace).isEqualTo(JpegResizeSpace.RGB);
    assertThat(c.recipe()).containsEntry("write_mode", "jpg").containsEntry("max_resolution", "256");
  }

  @Test
  void badOptionsNameTheOption() {
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("writeMode", "webp")))
        .hasMessage("Option writeMode must be raw, jpg, smart or proportion, got 'webp'");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("writeMode", "smart")))
        .hasMessageStartingWith("writeMode smart needs option smartThreshold");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("maxResolution", "256", "minResolution", "128")))
        .hasMessageContaining("exclusive");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("pageSize", "3M")))
        .hasMessageContaining("power of two");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("jpegQuality", "101")))
        .hasMessage("Option jpegQuality must be 1..100, got 101");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("jpegResizeSpace", "yuv")))
        .hasMessage("Option jpegResizeSpace must be ycbcr or rgb, got 'yuv'");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("compressProbability", "1.5")))
        .hasMessage("Option compressProbability must be a number in [0, 1], got '1.5'");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("badImagePolicy", "ignore")))
        .hasMessage("Option badImagePolicy must be fail, skip or quarantine, got 'ignore'");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("arrayShapes", "emb:3xq")))
        .hasMessage("Option arrayShapes: dimension 'q' of column 'emb' is not a positive integer");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("arrayShapes", "emb:2x"))) // was taken as emb:2
        .hasMessage("Option arrayShapes: dimension '' of column 'emb' is not a positive integer");
    // the last of two used to win, whichever the user meant
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("arrayShapes", "a:3; A:2")))
        .hasMessage("Option arrayShapes gives column 'A' two shapes ('a:3' and 'A:2'): give each column once");
  }

  @Test
  void badImagePolicySourceColumnAndLockTimeout() {
    BetonWriteConf c = BetonWriteConf.parse(Map.of("BADIMAGEPOLICY", "Quarantine", "sourceIdColumn", " path ",
        "manifestLockTimeout", "5"));
    assertThat(c.badImages).isEqualTo(BetonWriteConf.BadImagePolicy.QUARANTINE);
    assertThat(c.sourceIdColumn).isEqualTo("path");
    assertThat(c.manifestLockTimeoutMillis).isEqualTo(5000);
    assertThat(c.recipe()).containsEntry("bad_image_policy", "quarantine");
    BetonWriteConf d = BetonWriteConf.parse(Map.of());
    assertThat(d.badImages).isEqualTo(BetonWriteConf.BadImagePolicy.FAIL);
    assertThat(d.sourceIdColumn).isNull();
    assertThat(d.manifestLockTimeoutMillis).isEqualTo(120_000);
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("manifestLockTimeout", "0")))
        .hasMessageContaining("manifestLockTimeout must be a positive integer");
  }

  @Test
  void unknownOptionsAreRefusedWithTheNearestName() {
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("imageColums", "image", "writeMode", "jpg")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown option 'imageColums' for format(\"beton\") writes; did you mean"
            + " 'imageColumns'? Valid options (any case): imageColumns, maxResolution, minResolution, writeMode,")
        .hasMessageEndingWith(", spoolDir, spoolMemory, imageReadAhead, classNames, compactEvery, keepReplacedFor;"
            + " names with a dot pass as file system settings (e.g. fs.s3a.endpoint)");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("max_resolution", "256", "jpeg_quality", "80")))
        .hasMessageStartingWith("Unknown options for format(\"beton\") writes: 'jpeg_quality' (did you mean"
            + " 'jpegQuality'?), 'max_resolution' (did you mean 'maxResolution'?). Valid options");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("imageMode", "raw"))) // a read option: nearest by its start
        .hasMessageStartingWith("Unknown option 'imageMode' for format(\"beton\") writes; did you mean 'imageColumns'?");
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("zstdLevel", "3")))
        .hasMessageStartingWith("Unknown option 'zstdLevel' for format(\"beton\") writes. Valid options");
    // Spark's own path, and Hadoop settings, which the data source copies into the write's configuration
    BetonWriteConf c = BetonWriteConf.parse(Map.of("PATH", "/data/x", "fs.s3a.endpoint", "http://minio:9000",
        "ImageColumns", "image"));
    assertThat(c.isImageColumn("image")).isTrue();
  }

  @Test
  void spoolMemoryIsASizeOf32MiBByDefault() {
    assertThat(BetonWriteConf.parse(Map.of()).spoolMemory).isEqualTo(32L << 20);
    assertThat(BetonWriteConf.parse(Map.of("spoolMemory", "0")).spoolMemory).isZero();
    assertThat(BetonWriteConf.parse(Map.of("SPOOLMEMORY", "64M")).spoolMemory).isEqualTo(64L << 20);
    assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("spoolMemory", "lots")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Option spoolMemory: 'lots' is not a size; use bytes or a binary unit, e.g. 8M, 2MiB, 1G");
  }

  @Test
  void imageReadAheadIsZeroToItsMaximum() {
    assertThat(BetonWriteConf.parse(Map.of()).imageReadAhead).isEqualTo(16);
    assertThat(BetonWriteConf.parse(Map.of("imageReadAhead", " 0")).imageReadAhead).isZero();
    assertThat(BetonWriteConf.parse(Map.of("imagereadahead", "256")).imageReadAhead).isEqualTo(256);
    for (String bad : List.of("-1", "257", "lots", "")) {
      assertThatThrownBy(() -> BetonWriteConf.parse(Map.of("imageReadAhead", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Option imageReadAhead must be 0..256 (image files a task reads ahead from a remote file system;"
              + " 0 reads each as its row comes), got '" + bad + "'");
    }
  }

  @Test
  void allListsEveryOptionConstant() throws IllegalAccessException {
    List<String> constants = new ArrayList<>();
    for (Field f : BetonWriteOptions.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        constants.add((String) f.get(null));
      }
    }
    assertThat(constants).hasSize(27);
    assertThat(BetonWriteOptions.ALL).containsExactlyInAnyOrderElementsOf(constants);
    assertThat(BetonWriteOptions.ALL).containsAll(BetonWriteOptions.IMAGE_ONLY);
  }

  @Test
  void recordsWhichImageOptionsWereGiven() {
    assertThat(BetonWriteConf.parse(Map.of()).imageOptionsGiven).isEmpty();
    assertThat(BetonWriteConf.parse(Map.of("writeMode", "RAW", "pageSize", "8M", "nullPolicy", "skip"))
        .imageOptionsGiven).isEmpty();
    assertThat(BetonWriteConf.parse(Map.of("SEED", "3", "writeMode", "proportion", "jpegquality", "80",
        "imageColumns", "image")).imageOptionsGiven).containsExactly("writeMode", "jpegQuality", "seed");
  }
}
