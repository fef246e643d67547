package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.JpegCodecPool;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.order.QuasiRandomOrder;
import org.sparkbeton.loader.order.TraversalOrder;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;
import org.sparkbeton.loader.transforms.Convert;
import org.sparkbeton.loader.transforms.Cutout;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.RandomTranslate;
import org.sparkbeton.loader.transforms.ReplaceLabel;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

class LoaderTest {
  static final int N = 101;
  static final int W = 12;
  static final int H = 10;

  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, N, W, H);
  }

  static LoaderBuilder cifarLikeOn(Path file, int threads) {
    return cifarLike(file, threads, OrderOption.QUASI_RANDOM, 21);
  }

  static LoaderBuilder cifarLike(int threads, TraversalOrder.Factory order, long seed) {
    return cifarLike(file, threads, order, seed);
  }

  static LoaderBuilder cifarLike(Path file, int threads, TraversalOrder.Factory order, long seed) {
    return Loader.builder(file).batchSize(8).numThreads(threads).batchesAhead(2).order(order).seed(seed).dropLast(false)
        .pipeline("image", new SimpleRgbDecoder(), new RandomHorizontalFlip(), new RandomTranslate(2, 10, 20, 30),
            new Cutout(3, 1, 2, 3), new NormalizeImage(new double[] {125, 123, 114}, new double[] {63, 62, 66}, DType.FLOAT16),
            new ToChannelsFirst())
        .pipeline("label", new IntDecoder(), new ReplaceLabel(new long[] {4, 50}, -1));
  }

  @Test
  void sameSeedGivesBitIdenticalBatchesWhateverTheThreadCount() throws IOException {
    List<byte[]> one;
    try (Loader l = cifarLike(1, OrderOption.RANDOM, 77).build()) {
      one = BatchBytes.epochs(l, 2, "image", "label");
    }
    for (int threads : new int[] {2, 3}) {
      try (Loader l = cifarLike(threads, OrderOption.RANDOM, 77).build()) {
        List<byte[]> other = BatchBytes.epochs(l, 2, "image", "label");
        assertThat(other).hasSameSizeAs(one);
        for (int i = 0; i < one.size(); i++) {
          assertThat(other.get(i)).as("chunk %d with %d threads", i, threads).isEqualTo(one.get(i));
        }
      }
    }
    try (Loader l = cifarLike(2, OrderOption.RANDOM, 78).build()) {
      assertThat(BatchBytes.epochs(l, 2, "image", "label").get(0)).isNotEqualTo(one.get(0));
    }
  }

  @Test
  void sequentialDecodeWithoutAugmentationReturnsTheStoredPixelsAndLabels() throws IOException {
    try (Loader l = Loader.builder(file).batchSize(10).numThreads(2).dropLast(true)
        .pipeline("image", new SimpleRgbDecoder()).pipeline("label", new IntDecoder()).build()) {
      assertThat(l.length()).isEqualTo(10);
      int seen = 0;
      for (Batch b : l) {
        assertThat(b.size()).isEqualTo(10);
        ByteBuffer img = b.data("image");
        for (int i = 0; i < b.size(); i++, seen++) {
          assertThat(b.sample(i)).isEqualTo(seen);
          assertThat(b.data("label").getLong(8 * i)).isEqualTo(1000L + seen);
          for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
              for (int c = 0; c < 3; c++) {
                assertThat(img.get(i * H * W * 3 + (y * W + x) * 3 + c) & 0xff).isEqualTo(Datasets.pixel(seen, y, x, c));
              }
            }
          }
        }
      }
      assertThat(seen).isEqualTo(100); // the 101st sample is dropped
    }
  }

  @Test
  void labelsAreReplacedForListedSamplesOnly() throws IOException {
    try (Loader l = cifarLike(2, OrderOption.SEQUENTIAL, 1).build()) {
      for (Batch b : l) {
        for (int i = 0; i < b.size(); i++) {
          int s = b.sample(i);
          assertThat(b.data("label").getLong(8 * i)).isEqualTo(s == 4 || s == 50 ? -1 : 1000L + s);
        }
      }
    }
  }

  @Test
  void aRecycledBatchRefusesAccessAndClosingFreesEverything() throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("leak-check");
    Batch first;
    try (Loader l = cifarLike(2, OrderOption.SEQUENTIAL, 1).allocator(allocator).debug(true).build()) {
      assertThat(allocator.allocatedBytes()).isEqualTo(l.offHeapBytes()).isPositive();
      Iterator<Batch> it = l.iterator();
      first = it.next();
      assertThat(first.data("image").remaining()).isEqualTo(8 * 3 * H * W * 2);
      it.next();
      assertThat(first.isValid()).as("valid through the next call").isTrue();
      while (it.hasNext()) {
        it.next();
      }
      assertThat(first.isValid()).isFalse();
      assertThatThrownBy(() -> first.data("image"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Batch 0 of epoch 0 is no longer valid: its slot 0 has been recycled for a later batch or the"
              + " loader was closed (a batch is a view into a ring of 4 slots; copy what you keep)");
    }
    assertThat(allocator.outstanding()).isZero();
    assertThat(allocator.allocatedBytes()).isZero();
    allocator.close();
  }

  @Test
  void inDebugModeAStaleBufferStaysReadableAfterClose() throws IOException {
    ByteBuffer stale;
    try (Loader l = cifarLike(2, OrderOption.SEQUENTIAL, 1).debug(true).build()) {
      stale = l.iterator().next().data("label");
    }
    // freed memory is left to the GC in debug mode: this reads old bytes instead of crashing the JVM
    assertThat(stale.getLong(0)).isEqualTo(1000L);
  }

  @Test
  void anAbandonedEpochIsStoppedByTheNextOneAndByClose() throws IOException {
    try (Loader l = cifarLike(2, OrderOption.RANDOM, 3).build()) {
      Batch b = l.iterator().next(); // epoch 0, abandoned
      Iterator<Batch> e1 = l.iterator();
      assertThat(e1.next().epoch()).isEqualTo(1);
      assertThat(b.epoch()).isZero();
      assertThat(l.nextEpoch()).isEqualTo(2);
      l.iterator().next(); // epoch 2 left running: close must stop it
    }
  }

  @Test
  void distributedRanksReadDisjointEqualShares() throws IOException {
    for (TraversalOrder.Factory order : new TraversalOrder.Factory[] {
        OrderOption.SEQUENTIAL, OrderOption.RANDOM, QuasiRandomOrder.withPageBuffer(2)}) {
      Set<Integer> all = new HashSet<>();
      int total = 0;
      for (int rank = 0; rank < 3; rank++) {
        try (Loader l = Loader.builder(file).batchSize(5).numThreads(1).dropLast(false).order(order).seed(9)
            .distributed(rank, 3).pipeline("label", new IntDecoder()).build()) {
          assertThat(l.samplesPerEpoch()).isEqualTo(34);
          for (Batch b : l) {
            for (int i = 0; i < b.size(); i++) {
              assertThat(b.data("label").getLong(8 * i)).isEqualTo(1000L + b.sample(i));
              all.add(b.sample(i));
              total++;
            }
          }
        }
      }
      assertThat(all).as("%s", order).hasSize(N);
      assertThat(total).isEqualTo(102); // one padding sample
    }
  }

  @Test
  void indicesRestrictTheSamplesAndSeveralOutputsMayReadOneField() throws IOException {
    try (Loader l = Loader.builder(file).batchSize(3).numThreads(2).indices(new int[] {7, 3, 90})
        .pipeline("plain", "image", new SimpleRgbDecoder())
        .pipeline("flipped", "image", new SimpleRgbDecoder(), new RandomHorizontalFlip(1.0)).build()) {
      Batch b = l.iterator().next();
      assertThat(new int[] {b.sample(0), b.sample(1), b.sample(2)}).containsExactly(7, 3, 90);
      ByteBuffer plain = b.data("plain");
      ByteBuffer flipped = b.data("flipped");
      for (int x = 0; x < W; x++) {
        assertThat(flipped.get(3 * H * W * 2 + x * 3)).isEqualTo(plain.get(3 * H * W * 2 + (W - 1 - x) * 3));
      }
    }
  }

  /** A user operation: inverts uint8 values. */
  static final class Invert implements Operation {
    @Override
    public Stage plan(TensorSpec input) {
      if (input.dtype() != DType.UINT8) {
        throw new IllegalArgumentException("Invert expects uint8, got " + input);
      }
      return new Stage() {
        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          if (ctx.sample() == 13 && ctx.epoch() == 1) {
            throw new IllegalStateException("boom");
          }
          for (int i = 0; i < input.bytes(); i++) {
            out.put(outOffset + i, (byte) ~in.get(inOffset + i));
          }
        }
      };
    }
  }

  @Test
  void userOperationsRunAndTheirFailuresReachTheConsumer() throws IOException {
    try (Loader l = Loader.builder(file).batchSize(10).numThreads(2)
        .pipeline("image", new SimpleRgbDecoder(), new Invert(), new Invert(), new Invert()).build()) {
      Batch b = l.iterator().next();
      assertThat(b.data("image").get(0) & 0xff).isEqualTo(255 - Datasets.pixel(0, 0, 0, 0));
      assertThatThrownBy(() -> {
        for (Batch ignored : l) {
          // epoch 1 fails at sample 13
        }
      }).isInstanceOf(RuntimeException.class)
          .hasMessage("Loader failed in epoch 1, batch 1, sample 13, output 'image': java.lang.IllegalStateException: boom");
    }
  }

  /** Fails at sample 14 (batch 1, row 6 in order) after a while, and at sample 17 (batch 2, row 1) at once. */
  static final class FailsTwice implements Operation {
    @Override
    public Stage plan(TensorSpec input) {
      return new Stage() {
        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          if (ctx.sample() == 14) {
            try {
              Thread.sleep(300); // the other worker meets sample 17, later in the order, first
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("slow");
          }
          if (ctx.sample() == 17) {
            throw new IllegalStateException("fast");
          }
          out.put(outOffset, in, inOffset, input.bytes());
        }
      };
    }
  }

  @Test
  void theFailureReportedIsTheFirstInTheEpochsOrderAfterTheBatchesBeforeIt() throws IOException {
    for (int run = 0; run < 3; run++) {
      try (Loader l = Loader.builder(file).batchSize(8).numThreads(2).batchesAhead(2).order(OrderOption.SEQUENTIAL)
          .pipeline("image", new SimpleRgbDecoder(), new FailsTwice()).build()) {
        List<Integer> taken = new java.util.ArrayList<>();
        Iterator<Batch> epoch = l.iterator();
        assertThatThrownBy(() -> {
          while (epoch.hasNext()) {
            taken.add(epoch.next().index());
          }
        }).isInstanceOf(LoaderFailedException.class)
            .hasMessage("Loader failed in epoch 0, batch 1, sample 14, output 'image': java.lang.IllegalStateException:"
                + " slow");
        assertThat(taken).as("the batches before the failed one").containsExactly(0);
      }
    }
  }

  @Test
  void aLoaderClosedFromAnotherThreadEndsTheConsumersLoopWithAnErrorNotAsTheEpochsEnd() throws Exception {
    for (BadSamplePolicy policy : new BadSamplePolicy[] {BadSamplePolicy.FAIL, BadSamplePolicy.SKIP}) {
      Loader loader = cifarLike(2, OrderOption.RANDOM, 5).onBadSample(policy).build();
      Iterator<Batch> epoch = loader.iterator();
      epoch.next();
      epoch.next();
      Thread closer = new Thread(loader::close);
      closer.start();
      closer.join();
      assertThatThrownBy(epoch::hasNext).as(policy.toString()).isInstanceOf(IllegalStateException.class)
          .hasMessage("Epoch 0 was closed after 2 of its " + loader.length() + " batches (a new epoch started or the"
              + " loader closed)");
    }
    try (Loader loader = cifarLike(2, OrderOption.RANDOM, 5).build()) {
      Iterator<Batch> epoch = loader.iterator();
      while (epoch.hasNext()) {
        epoch.next();
      }
      loader.iterator();
      assertThat(epoch.hasNext()).as("an epoch that ended, then closed by the next one").isFalse();
    }
  }

  @Test
  void planningErrorsNameThePipelineTheStepAndTheMismatch() {
    assertThatThrownBy(() -> Loader.builder(file).batchSize(4)
        .pipeline("image", new SimpleRgbDecoder(), new NormalizeImage(new double[3], new double[] {1, 1, 1}, DType.FLOAT32),
            new Invert()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Pipeline 'image', step 2 (Invert) on float32[10, 12, 3]: Invert expects uint8, got float32[10, 12, 3]");
    // fused or not, an image operation after ToChannelsFirst would read [C, H, W] as [H, W, C]: a flip would mirror
    // the image top to bottom
    for (boolean fuse : new boolean[] {true, false}) {
      assertThatThrownBy(() -> Loader.builder(file).batchSize(4).fuse(fuse)
          .pipeline("image", new SimpleRgbDecoder(), new ToChannelsFirst(), new RandomHorizontalFlip(1.0)).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageEndingWith("RandomHorizontalFlip expects an [H, W, C] image, got uint8[3, 10, 12] with its channels"
              + " first ([C, H, W], after ToChannelsFirst): put RandomHorizontalFlip before ToChannelsFirst");
      assertThatThrownBy(() -> Loader.builder(file).batchSize(4).fuse(fuse)
          .pipeline("image", new SimpleRgbDecoder(), new ToChannelsFirst(), new Convert(DType.FLOAT32),
              new ToChannelsFirst()).build())
          .hasMessageEndingWith("ToChannelsFirst expects an [H, W, C] image, got float32[3, 10, 12] with its channels"
              + " first ([C, H, W], after ToChannelsFirst): the pipeline moves them twice");
    }
    assertThatThrownBy(() -> Loader.builder(file).pipeline("label", new IntDecoder()).build())
        .hasMessage("Set a batch size with batchSize(n)");
    assertThatThrownBy(() -> Loader.builder(file).batchSize(2).build())
        .hasMessage("Define at least one pipeline; fields without a pipeline are not read");
    assertThatThrownBy(() -> Loader.builder(file).batchSize(2).indices(new int[] {3, 101}).pipeline("label", new IntDecoder()).build())
        .hasMessageStartingWith("indices[1] = 101 is not a sample of ");
  }

  /** 100,000 threads made a loader that reserved gigabytes of scratch before failing; the count is refused at once. */
  @Test
  void aThreadCountBeyondTheMostIsRefused() {
    assertThatThrownBy(() -> Loader.builder(file).numThreads(LoaderBuilder.MAX_THREADS + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Thread count must be at most 4096, got 4097 (each worker takes its scratch");
    assertThatThrownBy(() -> Loader.builder(file).numThreads(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Thread count must be at least 1, got 0");
  }

  @Test
  void aBatchLargerThanAnEpochIsRefusedWithDropLast() throws IOException {
    assertThatThrownBy(() -> Loader.builder(file).batchSize(102).pipeline("label", new IntDecoder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Batch size 102 is larger than the 101 samples this loader reads per epoch, so with dropLast (the"
            + " default, as FFCV) every epoch would have 0 batches: use batchSize(101) or less, or dropLast(false) for"
            + " one partial batch per epoch");
    // each rank reads ceil(101 / 4) = 26 samples
    assertThatThrownBy(() -> Loader.builder(file).batchSize(27).distributed(1, 4).pipeline("label", new IntDecoder())
        .build())
        .hasMessage("Batch size 27 is larger than the 26 samples rank 1 of 4 reads (of 101 in all) per epoch, so with"
            + " dropLast (the default, as FFCV) every epoch would have 0 batches: use batchSize(26) or less, or"
            + " dropLast(false) for one partial batch per epoch");
    try (Loader l = Loader.builder(file).batchSize(26).distributed(1, 4).pipeline("label", new IntDecoder()).build()) {
      assertThat(l.length()).isEqualTo(1);
    }
    try (Loader l = Loader.builder(file).batchSize(102).dropLast(false).pipeline("label", new IntDecoder()).build()) {
      assertThat(l.length()).isEqualTo(1);
      int rows = 0;
      for (Batch b : l) {
        rows += b.size();
      }
      assertThat(rows).isEqualTo(101);
    }
  }

  @Test
  void timingsSplitTheEpoch() throws IOException, InterruptedException {
    try (Loader l = cifarLike(2, OrderOption.RANDOM, 1).profile(true).build()) {
      for (Batch b : l) {
        Thread.sleep(3); // a slow consumer: workers wait for slots
      }
      LoaderTimings t = l.timings();
      assertThat(t.batches()).isEqualTo(l.length());
      assertThat(t.decode()).isPositive();
      assertThat(t.augment()).isPositive();
      assertThat(t.decode() + t.augment()).isLessThanOrEqualTo(t.busy());
      assertThat(t.producerWait()).isPositive();
      assertThat(t.cacheWait()).isZero();
      assertThat(t.toString()).startsWith(l.length() + " batches: consumer waited ");
    }
    try (Loader l = cifarLike(1, OrderOption.RANDOM, 1).build()) {
      for (Batch ignored : l) {
        // one epoch
      }
      assertThat(l.timings().decode()).isEqualTo(-1);
      assertThat(l.timings().toString()).contains("(decode not profiled, augment not profiled)");
    }
  }

  @Test
  void jpegImagesNeedACodec() throws IOException {
    Path jpeg = Datasets.jpegImages(dir);
    assertThatThrownBy(() -> Loader.builder(jpeg).batchSize(2)
        .pipeline("image", new SimpleRgbDecoder(JpegCodecPool.NONE)).build())
        .hasMessage("Pipeline 'image', decoder SimpleRGB: field 'image' holds JPEG images (first: sample 1): JPEG decoding"
            + " is off (JpegCodecPool.NONE); only RAW images decode without a codec (the decoders' default constructors use"
            + " beton-codec)");
  }
}
