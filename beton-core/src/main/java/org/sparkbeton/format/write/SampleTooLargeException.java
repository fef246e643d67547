package org.sparkbeton.format.write;

/**
 * A sample's payloads together do not fit in one page, so no page can hold it. Nothing was written
 * for the sample; the writer stays usable (a caller may skip the sample or use larger pages).
 */
public final class SampleTooLargeException extends IllegalArgumentException {
  public SampleTooLargeException(String message) {
    super(message);
  }
}
