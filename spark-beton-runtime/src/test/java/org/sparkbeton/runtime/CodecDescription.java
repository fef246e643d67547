package org.sparkbeton.runtime;

/** Prints what the codec says it is, for {@link RuntimeJarIT} to run against the runtime jar alone. */
public final class CodecDescription {
  private CodecDescription() {
  }

  public static void main(String[] args) {
    System.out.println("codec=" + org.sparkbeton.codec.jpeg.JpegCodecs.description());
  }
}
