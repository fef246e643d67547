package org.sparkbeton.spark.write;

/**
 * What one write task has done so far, owned here and nowhere else: {@link ImageEncoder} and {@link RowEncoder}
 * count into it, {@link BetonDataWriter} reads it for the task's metrics ({@link BetonWriteMetrics}) and its commit
 * message. One per task, used by the task's thread only.
 */
final class TaskCounters {
  private long imageBytesIn;
  private long decodeNanos;
  private long resizeNanos;
  private long encodeNanos;
  private long passedThrough;
  private long passThroughDecoded;
  private long reencoded;
  private long reencodedFromPlanes;
  private long skippedNulls;
  private long skippedBadImages;

  /** An encoded input image of {@code bytes} bytes was read. */
  void addImageBytesIn(long bytes) {
    imageBytesIn += bytes;
  }

  void addDecodeNanos(long nanos) {
    decodeNanos += nanos;
  }

  void addResizeNanos(long nanos) {
    resizeNanos += nanos;
  }

  void addEncodeNanos(long nanos) {
    encodeNanos += nanos;
  }

  /** A JPEG was stored as it came. */
  void countPassedThrough() {
    passedThrough++;
  }

  /** A JPEG to be passed through was decoded first to check it ({@code jpegPassThroughCheck=decode}). */
  void countPassThroughDecoded() {
    passThroughDecoded++;
  }

  /** An image was encoded as a JPEG; {@code fromPlanes} when it was resized as YCbCr planes. */
  void countReencoded(boolean fromPlanes) {
    reencoded++;
    if (fromPlanes) {
      reencodedFromPlanes++;
    }
  }

  /** A row was left out for a null value ({@code nullPolicy=skip}). */
  void countSkippedNull() {
    skippedNulls++;
  }

  /** A row was left out for a bad image ({@code badImagePolicy} skip or quarantine). */
  void countSkippedBadImage() {
    skippedBadImages++;
  }

  long imageBytesIn() {
    return imageBytesIn;
  }

  long decodeNanos() {
    return decodeNanos;
  }

  long resizeNanos() {
    return resizeNanos;
  }

  long encodeNanos() {
    return encodeNanos;
  }

  long passedThrough() {
    return passedThrough;
  }

  long passThroughDecoded() {
    return passThroughDecoded;
  }

  long reencoded() {
    return reencoded;
  }

  long reencodedFromPlanes() {
    return reencodedFromPlanes;
  }

  long skippedNulls() {
    return skippedNulls;
  }

  long skippedBadImages() {
    return skippedBadImages;
  }
}
