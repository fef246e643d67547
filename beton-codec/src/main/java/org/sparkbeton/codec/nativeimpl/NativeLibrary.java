package org.sparkbeton.codec.nativeimpl;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Loads libbetoncodec (with libjpeg-turbo linked in) once per JVM, in its static initialiser:
 * <ol>
 *   <li>{@code -Dbeton.native=false} forces the pure-Java path;
 *   <li>{@code -Dbeton.native.lib=/path/libbetoncodec.so} loads that file instead of the bundled copy (a
 *       system copy is used only when this property names it);
 *   <li>otherwise the copy bundled in the jar for this platform ({@link BundledLibrary}) is extracted to a
 *       uniquely named file, loaded and deleted again (the mapping outlives the file on Linux): in
 *       {@code -Dbeton.native.tmpdir} if set, else {@code java.io.tmpdir}, else, where that cannot hold code
 *       (missing, read-only, mounted {@code noexec}), the working directory ({@link ExtractionDirectory}).
 * </ol>
 * Whatever goes wrong, the codec falls back to Java and one WARNING ({@link #fallbackWarning()}) is logged
 * through {@link System.Logger}, which Spark routes to its driver and executor logs. {@link #isAvailable()}
 * never throws.
 */
public final class NativeLibrary {
  /** System property: {@code false} forces the pure-Java path. */
  public static final String ENABLED_PROPERTY = "beton.native";
  /** System property: absolute path of a libbetoncodec .so to load instead of the bundled one. */
  public static final String PATH_PROPERTY = "beton.native.lib";
  /**
   * System property: {@code false} leaves the fallback's WARNING out of the log. The command lines set it, as they
   * print {@link #fallbackWarning()} on the console themselves, where the log record would say it a second time.
   */
  public static final String LOG_FALLBACK_PROPERTY = "beton.native.logFallback";

  private static final System.Logger LOG = System.getLogger(NativeLibrary.class.getName());
  /** Where the library was loaded from (set by {@link #tryLoad} during class initialisation), or null. */
  private static String loadedFrom;
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

  /** Where the library was loaded from: its resource in the jar, or the file {@code -Dbeton.native.lib} named. */
  public static Optional<String> loadedFrom() {
    return Optional.ofNullable(loadedFrom);
  }

  /** The warning logged when the library did not load: why, and what it costs; empty when it loaded. */
  public static Optional<String> fallbackWarning() {
    return isAvailable() ? Optional.empty() : Optional.of(fallbackWarning(UNAVAILABLE_REASON));
  }

  static String fallbackWarning(String reason) {
    return "beton-codec: the native codec (libjpeg-turbo) is not loaded: " + reason + ". JPEG decoding and"
        + " encoding and image resizing run on the pure-Java path instead, about 3x slower.";
  }

  private static String load() {
    String reason;
    try {
      reason = tryLoad();
    } catch (Throwable t) { // SecurityException, a broken jar, anything: all mean "use Java"
      reason = "loading it failed: " + t;
    }
    if (reason != null && !"false".equalsIgnoreCase(System.getProperty(LOG_FALLBACK_PROPERTY, "true"))) {
      LOG.log(Level.WARNING, fallbackWarning(reason));
    }
    return reason;
  }

  private static String tryLoad() throws IOException {
    if ("false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "true"))) {
      return "disabled by -D" + ENABLED_PROPERTY + "=false";
    }
    String override = System.getProperty(PATH_PROPERTY);
    if (override != null) {
      String path = Path.of(override).toAbsolutePath().toString();
      try {
        System.load(path);
      } catch (UnsatisfiedLinkError e) {
        return "-D" + PATH_PROPERTY + "=" + override + " does not load (" + e.getMessage() + ")";
      }
      loadedFrom = "-D" + PATH_PROPERTY + "=" + path;
      LOG.log(Level.DEBUG, "beton-codec: native codec loaded from " + loadedFrom);
      return null;
    }
    BundledLibrary bundled = BundledLibrary.read();
    String platform = BundledLibrary.currentPlatform();
    if (!bundled.platforms().contains(platform)) {
      return bundled.platforms().isEmpty()
          ? "this beton-codec was built without it (-Pno-native)"
          : "this jar has none for " + platform + ", only for " + String.join(", ", bundled.platforms());
    }
    String resource = bundled.resource(platform);
    String stem = bundled.library().substring(0, bundled.library().length() - ".so".length());
    List<String> refused = new ArrayList<>();
    for (ExtractionDirectory where : ExtractionDirectory.candidates()) {
      try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
        if (in == null) {
          return resource + " is missing from the jar";
        }
        Path file;
        try {
          file = Files.createTempFile(where.dir(), stem + "-", ".so");
        } catch (IOException e) {
          refused.add(where + " (" + e + ")");
          continue;
        }
        try {
          Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
          System.load(file.toString());
        } catch (IOException e) {
          refused.add(where + " (" + e + ")");
          continue;
        } catch (UnsatisfiedLinkError e) {
          if (!ExtractionDirectory.refusedHere(e)) {
            return resource + " does not load (" + e.getMessage() + ")"; // the file itself: the same anywhere
          }
          refused.add(where + " (" + e.getMessage() + ")");
          continue;
        } finally {
          Files.deleteIfExists(file);
        }
      }
      if (!refused.isEmpty()) {
        LOG.log(Level.INFO, "beton-codec: native codec extracted to " + where + "; not to " + String.join(", ", refused));
      }
      LeftoverLibraries.deleteOld(where.dir(), stem, java.time.Instant.now());
      // success is the normal case and stays quiet (a command-line tool would print it before its own output);
      // the manifest of every write records the codec each executor used
      loadedFrom = resource;
      LOG.log(Level.DEBUG, "beton-codec: native codec loaded (" + resource + ")");
      return null;
    }
    return "no directory could hold it: " + String.join("; ", refused) + ". Name one that is writable and not"
        + " mounted noexec with -D" + ExtractionDirectory.PROPERTY + "=DIR";
  }
}
