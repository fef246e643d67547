package org.sparkbeton.loader.pipeline;

import java.util.Arrays;

/**
 * Shape and element type of one sample's value at some point of a pipeline (the batch dimension is
 * not included). Images are height × width × channels (HWC) unless {@link #channelsFirst()}: an operation that moves
 * the channels first ({@code ToChannelsFirst}) says so, so that image operations after it refuse the layout instead
 * of reading its axes as [H, W, C].
 */
public final class TensorSpec {
  private final int[] shape;
  private final DType dtype;
  private final long elements;
  private final boolean channelsFirst;

  private TensorSpec(DType dtype, int[] shape, boolean channelsFirst) {
    this.dtype = dtype;
    this.shape = shape;
    this.channelsFirst = channelsFirst;
    long n = 1;
    for (int d : shape) {
      if (d < 1) {
        throw new IllegalArgumentException("Tensor dimensions must be positive, got " + Arrays.toString(shape));
      }
      n = Math.multiplyExact(n, d);
    }
    if (n * dtype.size() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("A sample of " + dtype + " " + Arrays.toString(shape) + " is over 2 GiB");
    }
    this.elements = n;
  }

  public static TensorSpec of(DType dtype, int... shape) {
    return new TensorSpec(dtype, shape.clone(), false);
  }

  /** This [C, H, W] shape marked as an image with its channels first. */
  public TensorSpec asChannelsFirst() {
    if (shape.length != 3) {
      throw new IllegalArgumentException("Only a rank-3 image has its channels first, got " + this);
    }
    return new TensorSpec(dtype, shape, true);
  }

  /** The same shape and layout with elements of {@code type}. */
  public TensorSpec withDType(DType type) {
    return new TensorSpec(type, shape, channelsFirst);
  }

  /** Whether this is an image laid out [C, H, W] (after {@code ToChannelsFirst}), not [H, W, C]. */
  public boolean channelsFirst() {
    return channelsFirst;
  }

  /** An RGB image, uint8, height × width × 3. */
  public static TensorSpec image(int height, int width) {
    return of(DType.UINT8, height, width, 3);
  }

  public DType dtype() {
    return dtype;
  }

  public int[] shape() {
    return shape.clone();
  }

  public int rank() {
    return shape.length;
  }

  public int dim(int i) {
    return shape[i];
  }

  public long elements() {
    return elements;
  }

  /** Bytes of one sample. */
  public int bytes() {
    return (int) (elements * dtype.size());
  }

  /** Whether this is an HWC image of {@code channels} channels. */
  public boolean isImage(DType type, int channels) {
    return dtype == type && shape.length == 3 && !channelsFirst && shape[2] == channels;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TensorSpec t && t.dtype == dtype && Arrays.equals(t.shape, shape)
        && t.channelsFirst == channelsFirst;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * dtype.hashCode() + Arrays.hashCode(shape)) + Boolean.hashCode(channelsFirst);
  }

  @Override
  public String toString() {
    return dtype.name().toLowerCase(java.util.Locale.ROOT) + Arrays.toString(shape);
  }
}
