package org.sparkbeton.loader.pipeline;

/**
 * A decoder cannot turn one sample's stored data into its planned output: metadata claiming an absurd image size,
 * a JPEG whose frame disagrees with its metadata, a size other than the one planned. The message names the file,
 * the sample and the reason. The loader's {@link org.sparkbeton.loader.BadSamplePolicy} decides what happens.
 */
public final class BadSampleException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadSampleException(String message) {
    super(message);
  }
}
