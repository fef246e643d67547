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

  /** True when {@link #fastest()} returns the native codec. */
  public static boolean nativeAvailable() {
    return NativeLibrary.isAvailable();
  }
}
