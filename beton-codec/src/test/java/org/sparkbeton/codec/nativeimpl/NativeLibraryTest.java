package org.sparkbeton.codec.nativeimpl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.jpeg.JpegCodec;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.resize.Resizer;

/** The loader's choices, each in a fresh JVM since the library loads once per JVM. */
class NativeLibraryTest {
  @TempDir
  Path tmp;

  /** Child JVM entry: uses the codec twice, then prints which one it got and the user-facing warning. */
  public static void main(String[] args) {
    for (int i = 0; i < 2; i++) {
      try (JpegCodec c = JpegCodecs.fastest()) {
        System.out.println("codec=" + c.getClass().getSimpleName() + " reason=" + NativeLibrary.unavailableReason());
        System.out.println("from=" + NativeLibrary.loadedFrom().orElse("none"));
      }
      new Resizer();
    }
    System.out.println("warning=" + JpegCodecs.javaFallbackWarning().orElse("none"));
    System.out.println("once=" + JpegCodecs.javaFallbackWarningOnce().orElse("none"));
    System.out.println("again=" + JpegCodecs.javaFallbackWarningOnce().orElse("none"));
  }

  /** Runs {@link #main} in a new JVM with {@code props}; {@code firstOnClassPath} (or null) goes before the test's. */
  static String runChild(Path firstOnClassPath, String... props) throws IOException, InterruptedException {
    return runChildIn(null, firstOnClassPath, props);
  }

  /** {@link #runChild} with {@code workDir} (or null: this JVM's) as the child's working directory. */
  static String runChildIn(Path workDir, Path firstOnClassPath, String... props)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(childJava());
    // as README.md asks of every JVM that loads the codec: Java 24 and later warn on System.load without it
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.addAll(List.of(props));
    cmd.add("-cp");
    String cp = System.getProperty("java.class.path");
    cmd.add(firstOnClassPath == null ? cp : firstOnClassPath + java.io.File.pathSeparator + cp);
    cmd.add(NativeLibraryTest.class.getName());
    Process p = new ProcessBuilder(cmd).directory(workDir == null ? null : workDir.toFile()).redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out;
  }

  /**
   * The java command of a child JVM: this JVM's, or {@code beton.test.java} where this JVM runs under an
   * emulator (the linux-aarch64 tests run under qemu-user, which cannot start an aarch64 program by itself).
   */
  static String childJava() {
    String java = System.getProperty("beton.test.java", "");
    return java.isEmpty() ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : java;
  }

  /** The child fell back to Java for {@code reason}: one WARNING in its log, and the text users are shown. */
  private static void assertJavaFallback(String out, String reason) {
    String warning = NativeLibrary.fallbackWarning(reason);
    assertThat(out).contains("codec=JavaJpegCodec reason=" + reason);
    assertThat(out).containsOnlyOnce("WARNING: " + warning);
    assertThat(out).contains("warning=" + warning, "once=" + warning, "again=none");
    assertThat(out).doesNotContain("native codec loaded").contains("from=none\n");
  }

  private static byte[] bundledLibrary() throws IOException {
    BundledLibrary b = BundledLibrary.read();
    try (InputStream in = NativeLibrary.class.getResourceAsStream(b.resource(BundledLibrary.currentPlatform()))) {
      if (Boolean.getBoolean("beton.native.required")) {
        assertThat(in).as("the bundled library").isNotNull();
      }
      assumeTrue(in != null, "built with -Pno-native");
      return in.readAllBytes();
    }
  }

  @Test
  void loadsWhenTheBuildRequiresIt() {
    // surefire sets beton.native.required unless built with -Pno-native: CI cannot skip the native tests
    assumeTrue(Boolean.getBoolean("beton.native.required"), "built with -Pno-native");
    assertThat(NativeLibrary.unavailableReason()).isNull();
    assertThat(NativeLibrary.isAvailable()).isTrue();
    assertThat(JpegCodecs.description()).isEqualTo("libjpeg-turbo 2.1.5 (libjpeg API 62) through JNI");
    assertThat(JpegCodecs.javaFallbackWarning()).isEmpty();
  }

  @Test
  void warningSaysWhyAndWhatItCosts() {
    assertThat(NativeLibrary.fallbackWarning("disabled by -Dbeton.native=false")).isEqualTo(
        "beton-codec: the native codec (libjpeg-turbo) is not loaded: disabled by -Dbeton.native=false. JPEG"
            + " decoding and encoding and image resizing run on the pure-Java path instead, about 3x slower.");
    assertThat(JpegCodecs.javaFallbackWarning())
        .isEqualTo(NativeLibrary.fallbackWarning().map(w -> w));
    assertThat(JpegCodecs.javaFallbackWarning().isPresent()).isEqualTo(!NativeLibrary.isAvailable());
  }

  @Test
  void disabledByPropertyGivesTheJavaPathWithOneWarning() throws Exception {
    assertJavaFallback(runChild(null, "-Dbeton.native=false"), "disabled by -Dbeton.native=false");
  }

  /** A command line prints the warning itself: the property it sets leaves the log record out, not the warning. */
  @Test
  void aCommandLineCanLeaveTheLogRecordOut() throws Exception {
    String out = runChild(null, "-Dbeton.native=false", "-D" + NativeLibrary.LOG_FALLBACK_PROPERTY + "=false");
    String warning = NativeLibrary.fallbackWarning("disabled by -Dbeton.native=false");
    assertThat(out).contains("codec=JavaJpegCodec", "warning=" + warning).doesNotContain("WARNING: ");
  }

  @Test
  void bundledLibraryIsExtractedToAUniqueFileLoadedAndDeleted() throws Exception {
    bundledLibrary();
    String resource = BundledLibrary.read().resource(BundledLibrary.currentPlatform());
    String out = runChild(null, "-Djava.io.tmpdir=" + tmp);
    assertThat(out).contains("codec=NativeJpegCodec reason=null", "warning=none", "once=none");
    assertThat(out).contains("from=" + resource + "\n").doesNotContain("native codec loaded"); // success is quiet
    assertThat(out).doesNotContain("WARNING");
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).as("extracted copies left behind").isEmpty();
    }
  }

  @Test
  void systemCopyIsUsedOnlyWhenThePropertyNamesIt() throws Exception {
    Path copy = Files.write(tmp.resolve("libbetoncodec.so"), bundledLibrary());
    String out = runChild(null, "-Dbeton.native.lib=" + copy);
    assertThat(out).contains("codec=NativeJpegCodec reason=null");
    assertThat(out).contains("from=-Dbeton.native.lib=" + copy + "\n");
    // the same file on java.library.path is not searched: the bundled copy loads
    out = runChild(null, "-Djava.library.path=" + tmp);
    assertThat(out).contains("from=/native/" + BundledLibrary.currentPlatform() + "/");
  }

  @Test
  void brokenOverrideFallsBackToJava() throws Exception {
    String out = runChild(null, "-Dbeton.native.lib=/nonexistent/libbetoncodec.so");
    String reason = out.replaceAll("(?s).*codec=JavaJpegCodec reason=([^\\n]*)\\n.*", "$1");
    assertThat(reason).startsWith("-Dbeton.native.lib=/nonexistent/libbetoncodec.so does not load (Can't load library");
    assertJavaFallback(out, reason);
  }

  @Test
  void aLibraryThatDoesNotLoadFallsBackToJava() throws Exception {
    // a jar whose library this machine cannot load (here: not an ELF file at all; elsewhere: too old a glibc)
    BundledLibrary b = BundledLibrary.read();
    Path jar = tmp.resolve("classes");
    Path fake = jar.resolve(b.resource(BundledLibrary.currentPlatform()).substring(1));
    Files.createDirectories(fake.getParent());
    Files.writeString(fake, "not a shared library\n".repeat(200));
    Files.writeString(jar.resolve("native/betoncodec.properties"),
        "library=" + b.library() + "\nplatforms=" + BundledLibrary.currentPlatform() + "\n");
    String out = runChild(jar);
    String reason = out.replaceAll("(?s).*codec=JavaJpegCodec reason=([^\\n]*)\\n.*", "$1");
    assertThat(reason).startsWith(b.resource(BundledLibrary.currentPlatform()) + " does not load (").contains("invalid ELF header");
    assertJavaFallback(out, reason);
  }

  @Test
  void aTempDirectoryThatCannotHoldItFallsBackToTheWorkingDirectory() throws Exception {
    bundledLibrary();
    Path work = Files.createDirectories(tmp.resolve("work"));
    String out = runChildIn(work, null, "-Djava.io.tmpdir=" + tmp.resolve("missing"));
    assertThat(out).contains("codec=NativeJpegCodec reason=null", "warning=none")
        .contains("native codec extracted to the working directory " + work + "; not to java.io.tmpdir "
            + tmp.resolve("missing") + " (java.nio.file.NoSuchFileException: ");
    try (Stream<Path> left = Files.list(work)) {
      assertThat(left).as("extracted copies left behind").isEmpty();
    }
  }

  @Test
  void theNamedDirectoryIsTriedFirst() throws Exception {
    bundledLibrary();
    Path named = Files.createDirectories(tmp.resolve("named"));
    String out = runChild(null, "-Dbeton.native.tmpdir=" + named, "-Djava.io.tmpdir=" + tmp.resolve("missing"));
    assertThat(out).contains("codec=NativeJpegCodec reason=null").doesNotContain("extracted to");
  }

  @Test
  void noDirectoryThatCanHoldItFallsBackToJava() throws Exception {
    bundledLibrary();
    String out = runChild(null, "-Dbeton.native.tmpdir=" + tmp.resolve("a"), "-Djava.io.tmpdir=" + tmp.resolve("b"),
        "-Duser.dir=" + tmp.resolve("c"));
    String reason = out.replaceAll("(?s).*codec=JavaJpegCodec reason=([^\\n]*)\\n.*", "$1");
    assertThat(reason).startsWith("no directory could hold it: -Dbeton.native.tmpdir " + tmp.resolve("a")
        + " (java.nio.file.NoSuchFileException: ")
        .contains("; java.io.tmpdir " + tmp.resolve("b") + " (", "; the working directory " + tmp.resolve("c") + " (")
        .endsWith("Name one that is writable and not mounted noexec with -Dbeton.native.tmpdir=DIR");
    assertJavaFallback(out, reason);
  }

  @Test
  void jarWithoutTheLibraryForThisPlatformSaysWhich() throws Exception {
    Path jar = Files.createDirectories(tmp.resolve("classes/native"));
    Files.writeString(jar.resolve("betoncodec.properties"), "library=libbetoncodec-9.9.so\nplatforms=linux-riscv64\n");
    assertJavaFallback(runChild(tmp.resolve("classes")),
        "this jar has none for " + BundledLibrary.currentPlatform() + ", only for linux-riscv64");
    Files.writeString(jar.resolve("betoncodec.properties"), "library=libbetoncodec-9.9.so\nplatforms=\n");
    assertJavaFallback(runChild(tmp.resolve("classes")), "this beton-codec was built without it (-Pno-native)");
  }
}
