package org.sparkbeton.format.fields;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** A decoded NDArray/TorchTensor value: the stored bytes (C order, the dtype's own byte order). */
public record NdArray(NumpyDtype dtype, long[] shape, ByteBuffer data) {
  public NdArray {
    shape = shape.clone();
  }

  @Override
  public long[] shape() {
    return shape.clone();
  }

  public long elementCount() {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }

  @Override
  public String toString() {
    return "NdArray(" + dtype + ", " + Arrays.toString(shape) + ")";
  }
}
