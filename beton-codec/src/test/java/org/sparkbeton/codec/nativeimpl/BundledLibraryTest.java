package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The libraries the build bundles, one per platform: the versioned name, each built for its platform's machine,
 * needing nothing but glibc and exporting only JNI entry points.
 */
class BundledLibraryTest {
  /** What a library may need: glibc's own libraries, present on every Linux with a JVM. */
  private static final List<String> GLIBC = List.of("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2");
  /** Each platform the build knows: its ELF machine and its glibc's dynamic loader. */
  private static final Map<String, Platform> PLATFORMS = Map.of(
      "linux-x86_64", new Platform(ElfDynamic.X86_64, "ld-linux-x86-64.so.2"),
      "linux-aarch64", new Platform(ElfDynamic.AARCH64, "ld-linux-aarch64.so.1"));

  private record Platform(int machine, String loader) {}

  private static BundledLibrary bundled;
  /** Each bundled platform's library file, in the order of the properties. */
  private static final Map<String, byte[]> libraries = new LinkedHashMap<>();

  @BeforeAll
  static void read() throws IOException {
    bundled = BundledLibrary.read();
    for (String platform : bundled.platforms()) {
      try (InputStream in = NativeLibrary.class.getResourceAsStream(bundled.resource(platform))) {
        assertThat(in).as(bundled.resource(platform) + ", listed in " + BundledLibrary.PROPERTIES).isNotNull();
        libraries.put(platform, in.readAllBytes());
      }
    }
  }

  @Test
  void propertiesNameTheVersionedLibraryAndThePlatformsOfThisBuild() {
    // surefire passes the pom's values; the loader reads only the filtered properties
    assertThat(bundled.library()).isEqualTo(System.getProperty("beton.native.library"))
        .matches("libbetoncodec-[0-9][A-Za-z0-9._-]*\\.so");
    assertThat(bundled.resource("linux-x86_64")).isEqualTo("/native/linux-x86_64/" + bundled.library());
    List<String> built = Arrays.stream(System.getProperty("beton.native.platforms", "").split(","))
        .map(String::trim).filter(p -> !p.isEmpty()).toList();
    assertThat(bundled.platforms()).isEqualTo(built);
    if (Boolean.getBoolean("beton.native.required")) {
      assertThat(bundled.platforms()).contains("linux-x86_64");
    }
  }

  @Test
  void eachLibraryIsBuiltForItsPlatformsMachine() {
    assumeTrue(!libraries.isEmpty(), "built with -Pno-native");
    libraries.forEach((platform, file) -> {
      assertThat(PLATFORMS).as("platforms the build knows").containsKey(platform);
      assertThat(ElfDynamic.parse(file).machine()).as(platform + " ELF machine").isEqualTo(PLATFORMS.get(platform).machine());
    });
  }

  @Test
  void needsOnlyGlibcAndNoLibjpeg() {
    assumeTrue(!libraries.isEmpty(), "built with -Pno-native");
    libraries.forEach((platform, file) -> {
      ElfDynamic elf = ElfDynamic.parse(file);
      List<String> allowed = new java.util.ArrayList<>(GLIBC);
      allowed.add(PLATFORMS.get(platform).loader());
      assertThat(elf.needed()).as(platform).isNotEmpty().allMatch(allowed::contains, "a glibc library: " + allowed);
      assertThat(elf.needed()).as(platform).noneMatch(n -> n.contains("jpeg"));
      assertThat(elf.textRelocations()).as(platform + " text relocations (non-PIC code linked in)").isFalse();
    });
  }

  /**
   * Every glibc symbol version a library needs is 2.17 or older, so it loads on every Linux a Spark 3.5 cluster
   * runs: CentOS 7 and Amazon Linux 2 (glibc 2.17 and 2.26) included. 2.17 is also aarch64's first glibc.
   */
  @Test
  void needsNoGlibcNewerThan217() {
    assumeTrue(!libraries.isEmpty(), "built with -Pno-native");
    libraries.forEach((platform, file) -> {
      List<String> glibc = ElfDynamic.parse(file).versionsNeeded().stream().filter(v -> v.startsWith("GLIBC_2.")).toList();
      assertThat(glibc).as(platform + " glibc versions needed").isNotEmpty()
          .allMatch(v -> Integer.parseInt(v.substring("GLIBC_2.".length()).split("\\.")[0]) <= 17, "GLIBC_2.17 or older");
    });
  }

  @Test
  void exportsOnlyTheJniEntryPoints() {
    assumeTrue(!libraries.isEmpty(), "built with -Pno-native");
    libraries.forEach((platform, file) -> {
      List<String> exported = ElfDynamic.parse(file).exported();
      // libjpeg-turbo's jpeg_* functions are linked in, but local: only our Java_* names are visible
      assertThat(exported).as(platform).contains("Java_org_sparkbeton_codec_jpeg_NativeJpegCodec_decode0")
          .allMatch(s -> s.startsWith("Java_"), "a JNI entry point");
    });
  }

  /**
   * The platform this JVM reports names a jar directory, and where the build requires the native library, this
   * JVM loaded that platform's: {@code beton.test.platform} is the platform the run is for (the linux-aarch64
   * run under qemu-user sets it), else this host's, Linux x86-64.
   */
  @Test
  void thisJvmLoadsItsOwnPlatformsLibrary() {
    String expected = System.getProperty("beton.test.platform", "");
    if (expected.isEmpty()) {
      String arch = System.getProperty("os.arch");
      assumeTrue(System.getProperty("os.name").startsWith("Linux") && (arch.equals("amd64") || arch.equals("x86_64")),
          "not Linux x86-64");
      expected = "linux-x86_64";
    }
    assertThat(BundledLibrary.currentPlatform()).isEqualTo(expected);
    if (Boolean.getBoolean("beton.native.required")) {
      assertThat(NativeLibrary.loadedFrom()).contains(bundled.resource(expected));
    }
  }
}
