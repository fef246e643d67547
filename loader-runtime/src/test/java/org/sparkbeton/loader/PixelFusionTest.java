package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.UserPixelOperations.RandomBrightness;
import org.sparkbeton.loader.UserPixelOperations.RandomVerticalFlip;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.pipeline.Decoder;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.PixelOperation;
import org.sparkbeton.loader.pipeline.PixelStage;
import org.sparkbeton.loader.pipeline.TensorSpec;
import org.sparkbeton.loader.transforms.Convert;
import org.sparkbeton.loader.transforms.Cutout;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.RandomTranslate;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/** Pixel fusion: the fused pass writes exactly what the operations write one pass each. */
class PixelFusionTest {
  static final double[] MEAN = {0.485 * 255, 0.456 * 255, 0.406 * 255};
  static final double[] STD = {0.229 * 255, 0.224 * 255, 0.225 * 255};
  static final int[][] SIZES = {{300, 220}, {257, 199}, {96, 80}, {181, 470}, {64, 64}};

  @TempDir
  Path dir;

  @Test
  void fusedEqualsUnfusedBitForBitOnJpegCrops() throws IOException {
    Path file = DatasetsAccess.jpegImages(dir, 24, SIZES);
    Supplier<Decoder> rrc = () -> new RandomResizedCropRgbDecoder(48, 40);
    compare(file, rrc, List.of(new RandomHorizontalFlip()), List.of(inDecoder("RandomHorizontalFlip")));
    compare(file, rrc, List.of(new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT16),
        new ToChannelsFirst()), List.of(inDecoder("RandomHorizontalFlip + NormalizeImage + ToChannelsFirst")));
    compare(file, rrc, List.of(new NormalizeImage(MEAN, STD, DType.FLOAT32), new RandomHorizontalFlip()),
        List.of(inDecoder("NormalizeImage + RandomHorizontalFlip")));
    compare(file, rrc, List.of(new RandomHorizontalFlip(), new ToChannelsFirst()),
        List.of(inDecoder("RandomHorizontalFlip + ToChannelsFirst")));
    compare(file, rrc, List.of(new NormalizeImage(MEAN, STD, DType.FLOAT16), new RandomHorizontalFlip()),
        List.of(inDecoder("NormalizeImage + RandomHorizontalFlip")));
    compare(file, rrc, List.of(new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT32),
        new ToChannelsFirst()), List.of(inDecoder("RandomHorizontalFlip + NormalizeImage + ToChannelsFirst")));
  }

  /** Raw payloads, row and column maps, and a mapped run followed by unfused steps and a second run. */
  @Test
  void resizingDecodersApplyARunsCoordinatesOnRawImagesToo() throws IOException {
    Path file = Datasets.rawImages(dir, 20, 37, 29);
    List<String> steps = compare(file, () -> new CenterCropRgbDecoder(16, 12, 0.875), List.of(new RandomVerticalFlip(),
        new RandomHorizontalFlip(), new RandomTranslate(2), new RandomHorizontalFlip()), null);
    assertThat(steps).hasSize(3);
    assertThat(steps.get(0)).isEqualTo(inDecoder("RandomVerticalFlip + RandomHorizontalFlip"));
    assertThat(steps.get(2)).isEqualTo("fused(RandomHorizontalFlip)");
    compare(file, () -> new RandomResizedCropRgbDecoder(40, 30), List.of(new RandomHorizontalFlip()),
        List.of(inDecoder("RandomHorizontalFlip")));
  }

  @Test
  void fusedRunsBetweenUnfusedOperationsEqualUnfused() throws IOException {
    Path file = Datasets.rawImages(dir, 20, 16, 12);
    List<String> steps = compare(file, SimpleRgbDecoder::new, List.of(new RandomHorizontalFlip(), new RandomTranslate(2),
        new Cutout(4), new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT16), new ToChannelsFirst()),
        null);
    assertThat(steps).hasSize(4);
    assertThat(steps.get(0)).isEqualTo("fused(RandomHorizontalFlip)");
    assertThat(steps.get(3)).isEqualTo("fused(RandomHorizontalFlip + NormalizeImage + ToChannelsFirst)");
  }

  @Test
  void userPixelOperationsAreFusedAndEqualTheirUnfusedForm() throws IOException {
    Path file = DatasetsAccess.jpegImages(dir, 24, SIZES);
    compare(file, () -> new RandomResizedCropRgbDecoder(40, 48), List.of(new RandomBrightness(), new RandomVerticalFlip(),
        new RandomHorizontalFlip(), new NormalizeImage(MEAN, STD, DType.FLOAT16), new ToChannelsFirst()),
        List.of(inDecoder("RandomBrightness + RandomVerticalFlip + RandomHorizontalFlip + NormalizeImage"
            + " + ToChannelsFirst")));
  }

  @Test
  void operationsAfterAChannelsFirstLayoutStartANewStep() throws IOException {
    Path file = Datasets.rawImages(dir, 8, 10, 6);
    compare(file, SimpleRgbDecoder::new, List.of(new ToChannelsFirst(), new Convert(DType.FLOAT32)),
        List.of("fused(ToChannelsFirst)", Convert.class.getName() + "$1"));
  }

  @Test
  void aPixelStageThatChangesTheShapeIsRefusedNamingTheStep() throws IOException {
    Path file = Datasets.rawImages(dir, 4, 8, 6);
    PixelOperation shrinking = new PixelOperation() {
      @Override
      public Stage plan(TensorSpec input) {
        throw new AssertionError("not reached: planned fused");
      }

      @Override
      public PixelStage planPixels(TensorSpec input) {
        return () -> TensorSpec.image(input.dim(0) / 2, input.dim(1));
      }

      @Override
      public String name() {
        return "Shrink";
      }
    };
    assertThatThrownBy(() -> Loader.builder(file).batchSize(2).pipeline("image", new SimpleRgbDecoder(),
        new RandomHorizontalFlip(), shrinking).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Pipeline 'image', step 2 (Shrink) on uint8[6, 8, 3]: its pixel stage declares uint8[3, 8, 3];"
            + " a pixel stage keeps the [H, W, 3] shape (or writes [3, H, W] when channelsFirst) and outputs uint8,"
            + " float16 or float32");
  }

  @Test
  void stageMemoryIsAccountedPerWorkerReplacedAtReplanAndFreedOnClose() throws IOException {
    Path file = DatasetsAccess.jpegImages(dir, 12, SIZES);
    // one worker's stage memory: crop box of the largest image (181x470), resized box, fused run's input
    long perWorker = 181 * 470 * 3 + 2 * (32 * 32 * 3);
    assertThat(offHeapAfterEpochs(file, 2) - offHeapAfterEpochs(file, 1)).isEqualTo(perWorker);
  }

  /** Off-heap bytes of a 32x32 RRC + flip loader after 3 epochs and a re-plan; checks accounting and release. */
  private long offHeapAfterEpochs(Path file, int threads) throws IOException {
    DirectBufferAllocator allocator = new DirectBufferAllocator("stage memory test", Long.MAX_VALUE, true);
    long held;
    try (Loader loader = builder(file, new RandomResizedCropRgbDecoder(32, 32), List.of(new RandomHorizontalFlip()),
        true, threads).allocator(allocator).build()) {
      long atBuild = allocator.allocatedBytes();
      for (int e = 0; e < 3; e++) { // every epoch re-plans: the last plan's scratch is freed, not kept
        for (Batch b : loader) {
          assertThat(b.size()).isEqualTo(4);
        }
        assertThat(allocator.allocatedBytes()).as("epoch %d", e).isEqualTo(atBuild).isEqualTo(loader.offHeapBytes());
      }
      held = allocator.allocatedBytes();
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
    return held;
  }

  /** Proves the comparison can fail: a fused form that differs from its unfused form by one value is caught. */
  @Test
  void aFusedFormThatDiffersIsCaught() throws IOException {
    Path file = Datasets.rawImages(dir, 8, 10, 6);
    PixelOperation offByOne = new PixelOperation() {
      @Override
      public Stage plan(TensorSpec input) {
        return new RandomHorizontalFlip(0).plan(input); // identity
      }

      @Override
      public PixelStage planPixels(TensorSpec input) {
        return new PixelStage() {
          @Override
          public TensorSpec output() {
            return input;
          }

          @Override
          public void mapValues(float[][] table) {
            table[1][200] = 201;
          }
        };
      }
    };
    assertThat(loadAll(file, SimpleRgbDecoder::new, List.of(offByOne), true))
        .isNotEqualTo(loadAll(file, SimpleRgbDecoder::new, List.of(offByOne), false));
  }

  /** How describeSteps names a fused run whose coordinate mapping the (resizing) decoder applies. */
  static String inDecoder(String run) {
    return "fused(" + run + "; coordinates in the decoder)";
  }

  /** Loads 2 epochs fused and unfused on 1 and 3 threads, asserts equal bytes; returns the fused steps. */
  private List<String> compare(Path file, Supplier<Decoder> decoder, List<Operation> ops, List<String> expectedSteps)
      throws IOException {
    List<String> steps;
    try (Loader fused = builder(file, decoder.get(), ops, true, 1).build()) {
      steps = fused.pipelines().get(0).describeSteps();
    }
    if (expectedSteps != null) {
      assertThat(steps).isEqualTo(expectedSteps);
    }
    byte[] reference = loadAll(file, decoder, ops, false);
    assertThat(reference.length).isGreaterThan(1000);
    assertThat(loadAll(file, decoder, ops, true)).as("fused, %s", steps).isEqualTo(reference);
    return steps;
  }

  /** Every row of 2 epochs on 1 thread, then on 3 threads, concatenated. */
  private byte[] loadAll(Path file, Supplier<Decoder> decoder, List<Operation> ops, boolean fuse) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (int threads : new int[] {1, 3}) {
      DirectBufferAllocator allocator = new DirectBufferAllocator("fusion test", Long.MAX_VALUE, true);
      try (Loader loader = builder(file, decoder.get(), ops, fuse, threads).allocator(allocator).build()) {
        for (int e = 0; e < 2; e++) {
          for (Batch b : loader) {
            int n = b.spec("image").bytes();
            for (int i = 0; i < b.size(); i++) {
              byte[] row = new byte[n];
              b.data("image").get(i * n, row);
              out.writeBytes(row);
            }
          }
        }
      }
      assertThat(allocator.outstanding()).isZero();
      allocator.close();
    }
    return out.toByteArray();
  }

  private static LoaderBuilder builder(Path file, Decoder decoder, List<Operation> ops, boolean fuse, int threads) {
    return Loader.builder(file).batchSize(4).dropLast(false).numThreads(threads).seed(7).order(OrderOption.RANDOM)
        .fuse(fuse).pipeline("image", decoder, ops.toArray(new Operation[0]));
  }
}
