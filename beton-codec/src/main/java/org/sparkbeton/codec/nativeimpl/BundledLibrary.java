package org.sparkbeton.codec.nativeimpl;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The JNI library this jar bundles, as the build recorded it in {@link #PROPERTIES} (beton-codec/pom.xml
 * filters it): the file name, versioned ({@code libbetoncodec-<version>.so}), and the platforms it was built
 * for. The library of platform {@code p} is at {@code /native/p/<library>}.
 */
record BundledLibrary(String library, List<String> platforms) {
  static final String PROPERTIES = "/native/betoncodec.properties";

  static BundledLibrary read() throws IOException {
    Properties p = new Properties();
    try (InputStream in = BundledLibrary.class.getResourceAsStream(PROPERTIES)) {
      if (in == null) {
        throw new IOException("no " + PROPERTIES + " next to " + BundledLibrary.class.getName());
      }
      p.load(in);
    }
    String library = p.getProperty("library", "").trim();
    if (!library.matches("libbetoncodec-[A-Za-z0-9._-]+\\.so")) {
      throw new IOException(PROPERTIES + " names no library file: library=" + library);
    }
    List<String> platforms = Arrays.stream(p.getProperty("platforms", "").split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .toList();
    return new BundledLibrary(library, platforms);
  }

  /** The resource path of the library for {@code platform}. */
  String resource(String platform) {
    return "/native/" + platform + "/" + library;
  }

  /** This JVM's platform as the jar's directories name it: linux-x86_64, linux-aarch64, else os-arch. */
  static String currentPlatform() {
    String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replace(' ', '_');
    String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
    return (os.startsWith("linux") ? "linux" : os) + "-" + switch (arch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch64";
      default -> arch;
    };
  }
}
