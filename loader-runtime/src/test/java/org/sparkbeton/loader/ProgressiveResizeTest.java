package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.FieldSource;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/** A decoder's output size may change between epochs (FFCV's progressive resizing) without rebuilding. */
class ProgressiveResizeTest {
  @TempDir
  Path dir;

  /** Writes {@code size} bytes, each the low byte of the label; its size is set between epochs like FFCV's output_size. */
  static final class ResizableDecoder implements Decoder {
    volatile int size = 4;

    @Override
    public Stage plan(FieldSource field) {
      int n = size;
      TensorSpec spec = TensorSpec.of(DType.UINT8, 1, n, 1);
      return new Stage() {
        @Override
        public TensorSpec output() {
          return spec;
        }

        @Override
        public void decode(long sample, ByteBuffer out, int offset, SampleContext ctx) {
          byte v = (byte) field.records(sample).getLong(field.at(sample));
          for (int i = 0; i < n; i++) {
            out.put(offset + i, v);
          }
        }
      };
    }
  }

  @Test
  void theNextEpochUsesTheNewSizeAndOldBatchesAreInvalidated() throws IOException {
    Path file = Datasets.rawImages(dir, 20, 2, 2);
    ResizableDecoder decoder = new ResizableDecoder();
    DirectBufferAllocator allocator = new DirectBufferAllocator("resize");
    try (Loader l = Loader.builder(file).batchSize(5).numThreads(2).allocator(allocator)
        .pipeline("x", "label", decoder, new RandomHorizontalFlip()).build()) {
      Batch first = l.iterator().next();
      assertThat(first.spec("x")).isEqualTo(TensorSpec.of(DType.UINT8, 1, 4, 1));
      long before = l.offHeapBytes();
      decoder.size = 40;
      Batch second = l.iterator().next();
      assertThat(second.epoch()).isEqualTo(1);
      assertThat(second.spec("x")).isEqualTo(TensorSpec.of(DType.UINT8, 1, 40, 1));
      assertThat(second.data("x").remaining()).isEqualTo(200);
      for (int i = 0; i < 200; i++) {
        assertThat(second.data("x").get(i)).isEqualTo((byte) (1000 + i / 40));
      }
      assertThat(l.offHeapBytes()).isGreaterThan(before);
      assertThat(allocator.allocatedBytes()).isEqualTo(l.offHeapBytes()); // the old ring was freed
      assertThatThrownBy(() -> first.data("x")).isInstanceOf(IllegalStateException.class);
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }
}
