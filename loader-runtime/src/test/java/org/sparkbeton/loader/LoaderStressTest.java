package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;

/** Many short epochs, abandoned mid-way, with more threads than rows: no hang, no leak, right data. */
class LoaderStressTest {
  @TempDir
  Path dir;

  @Test
  void abandonedAndCompletedEpochsInterleave() throws IOException {
    Path file = Datasets.rawImages(dir, 57, 6, 5);
    DirectBufferAllocator allocator = new DirectBufferAllocator("stress");
    try (Loader l = Loader.builder(file).batchSize(4).numThreads(5).batchesAhead(1).dropLast(false)
        .order(OrderOption.QUASI_RANDOM).seed(2).allocator(allocator).processCache(4L << 20)
        .pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip()).pipeline("label", new IntDecoder()).build()) {
      for (int epoch = 0; epoch < 40; epoch++) {
        Iterator<Batch> it = l.iterator();
        int stopAfter = epoch % 3 == 0 ? Integer.MAX_VALUE : epoch % 7;
        int seen = 0;
        while (it.hasNext() && seen < stopAfter) {
          Batch b = it.next();
          for (int i = 0; i < b.size(); i++) {
            assertThat(b.data("label").getLong(8 * i)).isEqualTo(1000L + b.sample(i));
          }
          seen++;
        }
        if (stopAfter == Integer.MAX_VALUE) {
          assertThat(seen).isEqualTo(l.length());
        }
      }
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void closingFromAnotherThreadReleasesAWaitingConsumer() throws Exception {
    Path file = Datasets.rawImages(dir, 20, 4, 4);
    Loader l = Loader.builder(file).batchSize(2).numThreads(1)
        .pipeline("x", "label", new IntDecoder(), new Slow()).build();
    Iterator<Batch> it = l.iterator();
    AtomicReference<Throwable> error = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(1);
    Thread consumer = new Thread(() -> {
      started.countDown();
      try {
        while (it.hasNext()) {
          it.next();
        }
      } catch (Throwable t) {
        error.set(t);
      }
    });
    consumer.start();
    started.await();
    Thread.sleep(50);
    l.close();
    consumer.join(5_000);
    assertThat(consumer.isAlive()).as("consumer released").isFalse();
    // it either saw the end (hasNext false after close) or was woken inside next()
    if (error.get() != null) {
      assertThat(error.get()).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Epoch 0 was closed");
    }
  }

  /** 20 ms per sample. */
  static final class Slow implements org.sparkbeton.loader.pipeline.Operation {
    @Override
    public Stage plan(org.sparkbeton.loader.pipeline.TensorSpec input) {
      return new Stage() {
        @Override
        public org.sparkbeton.loader.pipeline.TensorSpec output() {
          return input;
        }

        @Override
        public void apply(java.nio.ByteBuffer in, int inOffset, java.nio.ByteBuffer out, int outOffset,
                          org.sparkbeton.loader.pipeline.SampleContext ctx) {
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          out.put(outOffset, in, inOffset, input.bytes());
        }
      };
    }
  }
}
