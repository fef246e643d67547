package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;

/** The loader's choices, each in a fresh JVM since the library loads once per JVM. */
class NativeLibraryTest {
  /** Child JVM entry: prints which codec {@link JpegCodecs#fastest()} gives. */
  public static void main(String[] args) {
    try (JpegCodec c = JpegCodecs.fastest()) {
      System.out.println("codec=" + c.getClass().getSimpleName() + " reason=" + NativeLibrary.unavailableReason());
    }
  }

  static String runChild(String... props) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of(props));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(NativeLibraryTest.class.getName());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out;
  }

  @Test
  void disabledByPropertyGivesTheJavaPathWithOneInfoLine() throws Exception {
    String out = runChild("-Dbeton.native=false");
    assertThat(out).contains("codec=JavaJpegCodec reason=disabled by -Dbeton.native=false");
    assertThat(out).containsOnlyOnce("beton-codec: pure-Java (ImageIO) path active: disabled by -Dbeton.native=false");
  }

  @Test
  void brokenOverrideFallsBackToJava() throws Exception {
    String out = runChild("-Dbeton.native.lib=/nonexistent/libbetoncodec.so");
    assertThat(out).contains("codec=JavaJpegCodec reason=native load failed: java.lang.UnsatisfiedLinkError");
  }

  @Test
  void bundledLibraryIsExtractedAndLoaded() throws Exception {
    assumeTrue(NativeLibrary.class.getResource(NativeLibrary.RESOURCE) != null, "built without the native library");
    String out = runChild();
    assertThat(out).contains("codec=NativeJpegCodec reason=null");
    assertThat(out).containsOnlyOnce("beton-codec: native libjpeg-turbo path active");
  }
}
