package org.sparkbeton.codec.jpeg;

/** A JPEG could not be probed, decoded or encoded; the message names the problem and the codec path. */
public class JpegException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JpegException(String message) {
    super(message);
  }

  public JpegException(String message, Throwable cause) {
    super(message, cause);
  }
}
