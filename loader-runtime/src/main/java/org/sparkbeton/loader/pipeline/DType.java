package org.sparkbeton.loader.pipeline;

/** Element types of loader tensors (little-endian in memory). */
public enum DType {
  UINT8(1), INT8(1), INT16(2), INT32(4), INT64(8), FLOAT16(2), FLOAT32(4), FLOAT64(8);

  private final int size;

  DType(int size) {
    this.size = size;
  }

  /** Bytes per element. */
  public int size() {
    return size;
  }
}
