package org.sparkbeton.codec.jpeg;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * Chooses a codec, like lz4-java's {@code LZ4Factory.fastestInstance()}. Every call returns a new handle
 * owned by the caller (one per thread; close it when done).
 */
public final class JpegCodecs {
  private static final AtomicBoolean WARNING_GIVEN = new AtomicBoolean();

  private JpegCodecs() {}

  /** The native codec when libbetoncodec loaded, else the Java one; {@link Strictness#LENIENT}. */
  public static JpegCodec fastest() {
    return fastest(Strictness.LENIENT);
  }

  /** The native codec when libbetoncodec loaded, else the Java one, decoding with {@code strictness}. */
  public static JpegCodec fastest(Strictness strictness) {
    return NativeLibrary.isAvailable() ? new NativeJpegCodec(strictness) : new JavaJpegCodec(strictness);
  }

  /** Always the pure-Java codec; {@link Strictness#LENIENT}. */
  public static JpegCodec java() {
    return java(Strictness.LENIENT);
  }

  /** Always the pure-Java codec, decoding with {@code strictness}. */
  public static JpegCodec java(Strictness strictness) {
    return new JavaJpegCodec(strictness);
  }

  private static final String NATIVE_SUFFIX = " through JNI";

  /**
   * Whether {@code description}, a {@link #description()} of some JVM (an executor's, sent to the driver), names
   * the native codec.
   */
  public static boolean namesNativeCodec(String description) {
    return description.endsWith(NATIVE_SUFFIX);
  }

  /**
   * What {@link #fastest()} decodes and encodes with, versions included, for records such as a dataset's
   * recipe: "libjpeg-turbo 2.1.5 (libjpeg API 62) through JNI", or "javax.imageio with TwelveMonkeys 3.x".
   */
  public static String description() {
    if (NativeLibrary.isAvailable()) {
      return NativeJpegCodec.libraryVersion() + NATIVE_SUFFIX;
    }
    String version = twelveMonkeysVersion();
    return "javax.imageio with TwelveMonkeys " + (version == null ? "(version unknown)" : version) + ", pure Java";
  }

  /**
   * TwelveMonkeys' version from the Maven properties its jar carries, which a shaded jar (the Spark runtime jar, the
   * CLI) keeps too; the package's Implementation-Version there is the shaded jar's own version.
   */
  private static String twelveMonkeysVersion() {
    try (java.io.InputStream in = JpegCodecs.class.getResourceAsStream(
        "/META-INF/maven/com.twelvemonkeys.imageio/imageio-jpeg/pom.properties")) {
      if (in != null) {
        java.util.Properties p = new java.util.Properties();
        p.load(in);
        if (p.getProperty("version") != null) {
          return p.getProperty("version");
        }
      }
    } catch (java.io.IOException e) {
      // fall back to the package's version
    }
    Package twelveMonkeys = com.twelvemonkeys.imageio.plugins.jpeg.JPEGImageReader.class.getPackage();
    return twelveMonkeys == null ? null : twelveMonkeys.getImplementationVersion();
  }

  /** True when {@link #fastest()} returns the native codec. */
  public static boolean nativeAvailable() {
    return NativeLibrary.isAvailable();
  }

  /**
   * When {@link #fastest()} is the Java codec, the warning to show the user: why the native codec did not
   * load and what that costs (about 3x slower). Empty when it loaded. The library logs the same text once
   * per JVM as a WARNING; the loader also prints it, and {@code beton prepare} and {@code beton verify --decode}
   * print it instead (they turn the log record off: {@code NativeLibrary.LOG_FALLBACK_PROPERTY}).
   */
  public static Optional<String> javaFallbackWarning() {
    return NativeLibrary.fallbackWarning();
  }

  /**
   * {@link #javaFallbackWarning()} the first time this is called in this JVM, empty after: for code that
   * plans often (the loader at every build and epoch) but should tell the user once.
   */
  public static Optional<String> javaFallbackWarningOnce() {
    Optional<String> warning = javaFallbackWarning();
    return warning.isPresent() && WARNING_GIVEN.compareAndSet(false, true) ? warning : Optional.empty();
  }
}
