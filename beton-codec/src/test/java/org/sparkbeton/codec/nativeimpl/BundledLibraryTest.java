package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The library the build bundles: its versioned name, and that it needs nothing but glibc. */
class BundledLibraryTest {
  /** What a library may need: glibc's own libraries, present on every Linux with a JVM. */
  private static final List<String> GLIBC = List.of("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
      "ld-linux-x86-64.so.2");

  private static BundledLibrary bundled;
  private static byte[] library;

  @BeforeAll
  static void read() throws IOException {
    bundled = BundledLibrary.read();
    String resource = bundled.resource("linux-x86_64");
    try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
      library = in == null ? null : in.readAllBytes();
    }
    if (Boolean.getBoolean("beton.native.required")) {
      assertThat(library).as(resource + " in the jar (built with the native profile)").isNotNull();
    }
  }

  @Test
  void propertiesNameTheVersionedLibraryOfThisBuild() {
    // surefire passes the pom's name; the loader reads only the filtered properties
    assertThat(bundled.library()).isEqualTo(System.getProperty("beton.native.library"))
        .matches("libbetoncodec-[0-9][A-Za-z0-9._-]*\\.so");
    assertThat(bundled.resource("linux-x86_64")).isEqualTo("/native/linux-x86_64/" + bundled.library());
  }

  @Test
  void needsOnlyGlibcAndNoLibjpeg() {
    assumeTrue(library != null, "built with -Pno-native");
    ElfDynamic elf = ElfDynamic.parse(library);
    assertThat(elf.needed()).isNotEmpty().allMatch(GLIBC::contains, "a glibc library: " + GLIBC);
    assertThat(elf.needed()).noneMatch(n -> n.contains("jpeg"));
    assertThat(elf.textRelocations()).as("text relocations (non-PIC code linked in)").isFalse();
  }

  @Test
  void exportsOnlyTheJniEntryPoints() {
    assumeTrue(library != null, "built with -Pno-native");
    List<String> exported = ElfDynamic.parse(library).exported();
    // libjpeg-turbo's jpeg_* functions are linked in, but local: only our Java_* names are visible
    assertThat(exported).contains("Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decode0")
        .allMatch(s -> s.startsWith("Java_"), "a JNI entry point");
  }

  @Test
  void currentPlatformNamesTheJarDirectory() {
    String arch = System.getProperty("os.arch");
    assumeTrue(System.getProperty("os.name").startsWith("Linux") && (arch.equals("amd64") || arch.equals("x86_64")),
        "not Linux x86-64");
    assertThat(BundledLibrary.currentPlatform()).isEqualTo("linux-x86_64");
  }
}
