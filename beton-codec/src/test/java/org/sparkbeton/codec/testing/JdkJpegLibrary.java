package org.sparkbeton.codec.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Which libjpeg decodes behind the JDK's ImageIO (and so behind the pure-Java codec). OpenJDK bundles IJG libjpeg 6b
 * in {@code libjavajpeg} (Temurin, Oracle, macOS builds); Linux distributions build it against the system's libjpeg,
 * which on Debian and Ubuntu is libjpeg-turbo, the library the native codec links. The two agree on every valid
 * JPEG's pixels within the stated tolerance, but not on which damaged scans they notice: libjpeg-turbo's Huffman
 * decoder reads past some codes that 6b reports as "Corrupt JPEG data: bad Huffman code".
 */
public enum JdkJpegLibrary {
  /** IJG libjpeg 6b, compiled into the JDK's own library. */
  BUNDLED_IJG_6B,
  /** The operating system's libjpeg (libjpeg-turbo on Debian and Ubuntu), linked by the JDK's library. */
  SYSTEM;

  /** libjpeg 6b's JVERSION string, present only where the JDK compiled 6b in. */
  private static final byte[] IJG_6B_VERSION = "6b  27-Mar-1998".getBytes(StandardCharsets.US_ASCII);

  /** The running JDK's. */
  public static JdkJpegLibrary ofThisJdk() {
    Path home = Path.of(System.getProperty("java.home"));
    for (Path lib : List.of(home.resolve("lib/libjavajpeg.so"), home.resolve("lib/libjavajpeg.dylib"),
        home.resolve("bin/javajpeg.dll"))) {
      if (Files.isRegularFile(lib)) {
        return contains(read(lib), IJG_6B_VERSION) ? BUNDLED_IJG_6B : SYSTEM;
      }
    }
    throw new IllegalStateException("no libjavajpeg under " + home + ": where does this JDK's ImageIO decode JPEG?");
  }

  private static byte[] read(Path lib) {
    try {
      return Files.readAllBytes(lib);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
