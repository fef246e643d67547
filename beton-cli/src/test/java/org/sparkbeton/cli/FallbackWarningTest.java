package org.sparkbeton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.testsupport.ChildJvm;

/**
 * On the Java path (no native library, as on macOS or Windows) a command that decodes says so once, on its own
 * line: the codec's log record, which would say it again in the logger's two-line format, is left out.
 */
class FallbackWarningTest {
  private static final List<String> JAVA_PATH = List.of("-Dbeton.native=false");
  private static final String WARNING = "beton-codec: the native codec (libjpeg-turbo) is not loaded: disabled by"
      + " -Dbeton.native=false. JPEG decoding and encoding and image resizing run on the pure-Java path instead";

  @Test
  void verifyDecodeSaysItOnce() throws Exception {
    ChildJvm.Finished r = ChildJvm.run(JAVA_PATH, BetonCli.class, "verify", "--decode",
        GoldenFiles.path("jpg_labels").toString());
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).containsOnlyOnce(WARNING).doesNotContain("WARNING:").contains(": OK (");
  }

  @Test
  void dumpSaysWhyItsRowsHaveNoPixelHashes() throws Exception {
    ChildJvm.Finished r = ChildJvm.run(JAVA_PATH, BetonCli.class, "dump", GoldenFiles.path("jpg_labels").toString(),
        "--count", "1");
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).startsWith("beton dump: JPEG rows carry no rgb_sha256: the native codec is not loaded"
        + " (disabled by -Dbeton.native=false); --rgb java hashes the pure-Java decoder's pixels\n")
        .doesNotContain("WARNING:", "rgb_sha256\":");
  }
}
