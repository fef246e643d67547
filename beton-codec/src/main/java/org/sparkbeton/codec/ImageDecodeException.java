package org.sparkbeton.codec;

/** An input image could not be decoded; the message says which format and why. */
public class ImageDecodeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ImageDecodeException(String message) {
    super(message);
  }

  public ImageDecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
