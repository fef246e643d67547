package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.codec.testing.CorruptionCorpus;
import org.sparkbeton.codec.testing.CorruptionCorpus.Kind;
import org.sparkbeton.codec.testing.CorruptionCorpus.Mutant;
import org.sparkbeton.codec.testing.JdkJpegLibrary;

/**
 * The corruption corpus (600 random mutants of real photos and 5 lying frame headers, seed 25) through both codecs:
 * the strict decode flags the same mutants at every scale and as planes, on the native path, on the Java path (a few
 * more where the JDK's ImageIO is IJG libjpeg 6b), and as libjpeg-turbo's own {@code djpeg} does where it is installed; the counts per kind are asserted. The photos are
 * encoded by the native codec, so the counts need it (the relations are checked whatever the path).
 */
class CorruptionCorpusTest {
  static final long SEED = 25;
  static List<Mutant> corpus;
  /** Per mutant: the strict decode's error message, null when it decoded. */
  static List<String> strictVerdicts;

  @BeforeAll
  static void decodeTheCorpus() {
    corpus = new ArrayList<>(CorruptionCorpus.mutants(SEED, 600));
    corpus.addAll(CorruptionCorpus.lyingHeaders(SEED));
    try (JpegCodec strict = JpegCodecs.fastest(Strictness.STRICT)) {
      strictVerdicts = verdicts(strict, 8);
    }
  }

  static List<String> verdicts(JpegCodec codec, int scale) {
    ByteBuffer dst = ByteBuffer.allocateDirect(64 << 20);
    List<String> out = new ArrayList<>();
    for (Mutant m : corpus) {
      out.add(verdict(() -> codec.decode(ByteBuffer.wrap(m.bytes()), scale, Idct.FAST, dst, 0)));
    }
    return out;
  }

  static String verdict(Runnable decode) {
    try {
      decode.run();
      return null;
    } catch (JpegException e) {
      assertThat(e.getMessage()).isNotBlank();
      return e.getMessage();
    }
  }

  @Test
  void strictFlagsEverythingLenientFlagsAndMore() {
    try (JpegCodec lenient = JpegCodecs.fastest(Strictness.LENIENT)) {
      List<String> lenientVerdicts = verdicts(lenient, 8);
      int more = 0;
      for (int i = 0; i < corpus.size(); i++) {
        if (lenientVerdicts.get(i) != null) {
          assertThat(strictVerdicts.get(i)).as(corpus.get(i).name()).isNotNull();
        } else if (strictVerdicts.get(i) != null) {
          more++;
        }
      }
      assertThat(more).isGreaterThan(100);
    }
  }

  @Test
  void theNativeStrictDecodeFlagsTheSameMutantsAtEveryScaleAndAsPlanes() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
    ByteBuffer dst = ByteBuffer.allocateDirect(64 << 20);
    try (JpegCodec strict = new NativeJpegCodec(Strictness.STRICT)) {
      List<String> eighth = verdicts(strict, 1);
      for (int i = 0; i < corpus.size(); i++) {
        Mutant m = corpus.get(i);
        assertThat(eighth.get(i) != null).as(m.name()).isEqualTo(strictVerdicts.get(i) != null);
        String planes = verdict(() -> strict.decodePlanes(ByteBuffer.wrap(m.bytes()), 8, Idct.ACCURATE, dst, 0,
            new YccPlanes()));
        // a plane decode also refuses what is not YCbCr (a header flip can turn the colour space)
        if (planes == null || !planes.contains("not a YCbCr JPEG")) {
          assertThat(planes != null).as(m.name()).isEqualTo(strictVerdicts.get(i) != null);
        }
      }
    }
  }

  /**
   * Where the JDK's ImageIO decodes with libjpeg-turbo (Debian's and Ubuntu's OpenJDK), the Java codec flags exactly
   * the mutants the native one flags. Where the JDK bundles IJG libjpeg 6b (Temurin, Oracle, macOS), it flags all of
   * them and a few more (one of these 605 on Temurin 25): scans with a bad Huffman code that libjpeg-turbo's decoder
   * reads past. So the fallback may refuse a damaged image the native codec stores; it never stores one the native
   * codec refuses.
   */
  @Test
  void theJavaCodecFlagsWhatLibjpegTurboFlags() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
    JdkJpegLibrary jdkLibjpeg = JdkJpegLibrary.ofThisJdk();
    try (JpegCodec java = new JavaJpegCodec(Strictness.STRICT)) {
      List<String> javaVerdicts = verdicts(java, 8);
      List<String> onlyJava = new ArrayList<>();
      for (int i = 0; i < corpus.size(); i++) {
        String name = corpus.get(i).name();
        if (strictVerdicts.get(i) != null) {
          assertThat(javaVerdicts.get(i)).as("%s: native says %s", name, strictVerdicts.get(i)).isNotNull();
        } else if (javaVerdicts.get(i) != null) {
          onlyJava.add(name + ": " + javaVerdicts.get(i));
        }
      }
      if (jdkLibjpeg == JdkJpegLibrary.SYSTEM) {
        assertThat(onlyJava).as("flagged by the Java codec only, on a JDK whose ImageIO is libjpeg-turbo").isEmpty();
      } else {
        assertThat(onlyJava).as("flagged by the Java codec (IJG libjpeg 6b) only").hasSizeLessThanOrEqualTo(3)
            .allSatisfy(v -> assertThat(v).contains("Corrupt JPEG data: bad Huffman code"));
      }
    }
  }

  /** Per kind: mutants, flagged by the strict decode, flagged by the lenient one. */
  @Test
  void countsPerKind() {
    assumeTrue(NativeJpegCodec.isAvailable(), "the photos (and so the counts) are the native encoder's");
    Map<Kind, int[]> counts = new EnumMap<>(Kind.class);
    try (JpegCodec lenient = JpegCodecs.fastest(Strictness.LENIENT)) {
      List<String> lenientVerdicts = verdicts(lenient, 8);
      for (int i = 0; i < corpus.size(); i++) {
        int[] c = counts.computeIfAbsent(corpus.get(i).kind(), k -> new int[3]);
        c[0]++;
        c[1] += strictVerdicts.get(i) != null ? 1 : 0;
        c[2] += lenientVerdicts.get(i) != null ? 1 : 0;
      }
    }
    StringBuilder table = new StringBuilder();
    counts.forEach((k, c) -> table.append(String.format("%s %d %d %d%n", k, c[0], c[1], c[2])));
    System.out.print("kind, mutants, flagged strict, flagged lenient\n" + table);
    assertThat(table.toString()).isEqualTo("""
        BIT_FLIPS 100 52 0
        HEADER_FLIPS 100 47 33
        BYTE_RUN 100 82 0
        FF_RUN 100 100 0
        TRUNCATED 100 100 100
        TRUNCATED_EOI 100 100 0
        SOF_LIE 5 4 2
        """);
  }

  /** libjpeg-turbo's djpeg (Debian's libjpeg-turbo-progs) exits non-zero on exactly the mutants we flag. */
  @Test
  void djpegAgreesWhereItIsInstalled(@TempDir Path tmp) throws Exception {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
    assumeTrue(onPath("djpeg"), "djpeg not installed (apt-get install libjpeg-turbo-progs)");
    for (int i = 0; i < corpus.size(); i++) {
      Mutant m = corpus.get(i);
      Path f = tmp.resolve(m.name());
      Files.write(f, m.bytes());
      Process p = new ProcessBuilder("djpeg", "-outfile", "/dev/null", f.toString()).redirectErrorStream(true).start();
      String said = new String(p.getInputStream().readAllBytes()).trim();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue() != 0).as("%s: djpeg exit %d (%s), ours %s", m.name(), p.exitValue(), said,
          strictVerdicts.get(i)).isEqualTo(strictVerdicts.get(i) != null);
      Files.delete(f);
    }
  }

  static boolean onPath(String command) throws IOException {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }
}
