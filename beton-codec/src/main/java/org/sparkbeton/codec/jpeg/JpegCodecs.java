package org.sparkbeton.codec.jpeg;

import org.sparkbeton.codec.nativeimpl.NativeLibrary;

/**
 * Chooses a codec, like lz4-java's {@code LZ4Factory.fastestInstance()}. Every call returns a new handle
 * owned by the caller (one per thread; close it when done).
 */
public final class JpegCodecs {
  private JpegCodecs() {}

  /** The native codec when libbetoncodec loaded, else the Java one. */
  public static JpegCodec fastest() {
    return NativeLibrary.isAvailable() ? new NativeJpegCodec() : new JavaJpegCodec();
  }

  /** Always the pure-Java codec. */
  public static JpegCodec java() {
    return new JavaJpegCodec();
  }

  /**
   * What {@link #fastest()} decodes and encodes with, versions included, for records such as a dataset's
   * recipe: "libjpeg-turbo 2.1.5 (libjpeg API 62) through JNI", or "javax.imageio with TwelveMonkeys 3.x".
   */
  public static String description() {
    if (NativeLibrary.isAvailable()) {
      return NativeJpegCodec.libraryVersion() + " through JNI";
    }
    Package twelveMonkeys = com.twelvemonkeys.imageio.plugins.jpeg.JPEGImageReader.class.getPackage();
    String version = twelveMonkeys == null ? null : twelveMonkeys.getImplementationVersion();
    return "javax.imageio with TwelveMonkeys " + (version == null ? "(version unknown)" : version) + ", pure Java";
  }

  /** True when {@link #fastest()} returns the native codec. */
  public static boolean nativeAvailable() {
    return NativeLibrary.isAvailable();
  }
}
