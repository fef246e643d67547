package org.sparkbeton.codec.nativeimpl;

import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads libbetoncodec once: {@code -Dbeton.native.lib=/path/libbetoncodec.so} → {@code
 * System.loadLibrary("betoncodec")} → the copy inside the jar at {@link #RESOURCE}, extracted to a uniquely
 * named temp file. {@code -Dbeton.native=false} disables it. {@link #isAvailable()} never throws.
 */
public final class NativeLibrary {
  /** System property: {@code false} forces the pure-Java path. */
  public static final String ENABLED_PROPERTY = "beton.native";
  /** System property: absolute path of a libbetoncodec.so to load instead of the bundled one. */
  public static final String PATH_PROPERTY = "beton.native.lib";
  static final String NAME = "betoncodec";
  static final String RESOURCE = "/native/linux-x86_64/libbetoncodec.so";

  private static final System.Logger LOG = System.getLogger(NativeLibrary.class.getName());
  private static final String UNAVAILABLE_REASON = load();

  private NativeLibrary() {}

  /** True when the JNI library is loaded and usable. */
  public static boolean isAvailable() {
    return UNAVAILABLE_REASON == null;
  }

  /** Why the native path is not active, or null when it is. */
  public static String unavailableReason() {
    return UNAVAILABLE_REASON;
  }

  private static String load() {
    String reason;
    try {
      reason = tryLoad();
    } catch (Throwable t) { // UnsatisfiedLinkError, SecurityException, I/O: all mean "use Java"
      reason = "native load failed: " + t;
    }
    if (reason == null) {
      LOG.log(Level.INFO, "beton-codec: native libjpeg-turbo path active");
    } else {
      LOG.log(Level.INFO, "beton-codec: pure-Java (ImageIO) path active: " + reason);
    }
    return reason;
  }

  private static String tryLoad() throws Exception {
    if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "true"))) {
      return "disabled by -D" + ENABLED_PROPERTY + "=false";
    }
    String override = System.getProperty(PATH_PROPERTY);
    if (override != null) {
      System.load(Path.of(override).toAbsolutePath().toString());
      return null;
    }
    try {
      System.loadLibrary(NAME);
      return null;
    } catch (UnsatisfiedLinkError notOnPath) {
      // fall through to the bundled copy
    }
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
      return "no bundled library for " + os + "/" + arch;
    }
    try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "no " + RESOURCE + " in the jar (built without libjpeg headers)";
      }
      Path tmp = Files.createTempFile("libbetoncodec-", ".so");
      try {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        System.load(tmp.toAbsolutePath().toString());
      } finally {
        // the mapping stays valid after unlink on Linux; nothing is left behind in /tmp
        Files.deleteIfExists(tmp);
      }
    }
    return null;
  }
}
