package org.sparkbeton.loader.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.testing.GoldenFiles;
import org.sparkbeton.loader.decoders.BytesDecoder;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.RandomResizedCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.NdArrayDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.io.MappedPayloadStore;
import org.sparkbeton.loader.transforms.Convert;
import org.sparkbeton.loader.transforms.Cutout;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.Poison;
import org.sparkbeton.loader.transforms.RandomBrightness;
import org.sparkbeton.loader.transforms.RandomContrast;
import org.sparkbeton.loader.transforms.RandomHorizontalFlip;
import org.sparkbeton.loader.transforms.RandomSaturation;
import org.sparkbeton.loader.transforms.RandomTranslate;
import org.sparkbeton.loader.transforms.ReplaceLabel;
import org.sparkbeton.loader.transforms.Squeeze;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/** The per-sample hot path allocates nothing: measured with the JVM's per-thread allocation counter. */
class AllocationFreeTest {
  @TempDir
  Path dir;

  static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  static long bytesPerSample(PlannedPipeline p, int samples, int rounds) {
    ByteBuffer a = ByteBuffer.allocate(Math.max(64, p.scratchBytes())).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer b = ByteBuffer.allocate(Math.max(64, p.scratchBytes())).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer out = ByteBuffer.allocateDirect(p.spec().bytes()).order(ByteOrder.LITTLE_ENDIAN);
    SampleContext ctx = new SampleContext(3);
    for (int warm = 0; warm < 2_000; warm++) {
      p.run(warm % samples, 0, 0, ctx, a, b, out, 0);
    }
    long before = allocatedBytes();
    for (int i = 0; i < rounds; i++) {
      p.run(i % samples, 1, 0, ctx, a, b, out, 0);
    }
    return (allocatedBytes() - before) / rounds;
  }

  @Test
  void imagePipelineAllocatesNothingPerSample() throws IOException {
    Path file = org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 20, 16, 12);
    try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
      int[] samples = new int[20];
      for (int i = 0; i < 20; i++) {
        samples[i] = i;
      }
      PlannedPipeline image = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store),
          new SimpleRgbDecoder(), List.of(new RandomHorizontalFlip(), new RandomTranslate(2), new Cutout(4),
              new NormalizeImage(new double[] {1, 2, 3}, new double[] {4, 5, 6}, DType.FLOAT16), new ToChannelsFirst()));
      PlannedPipeline label = PlannedPipeline.plan(1, "label", new FieldSource(reader, 1, samples, store),
          new IntDecoder(), List.of());
      assertThat(bytesPerSample(image, 20, 20_000)).isZero();
      assertThat(bytesPerSample(label, 20, 20_000)).isZero();
    }
  }

  /**
   * The other per-sample transforms, one pass each (fusion off, so NormalizeImage runs its own loop, float32
   * here): colour jitters, Poison (listed samples and the rest), Convert, and the label's ReplaceLabel and Squeeze.
   */
  @Test
  void everyOtherTransformAllocatesNothingPerSample() throws IOException {
    Path file = org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 20, 16, 12);
    java.util.Random r = new java.util.Random(5);
    byte[] mask = new byte[16 * 12 * 3];
    r.nextBytes(mask);
    double[] alpha = r.doubles(16 * 12).toArray();
    try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
      int[] samples = new int[20];
      for (int i = 0; i < 20; i++) {
        samples[i] = i;
      }
      PlannedPipeline image = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store),
          new SimpleRgbDecoder(), List.of(new RandomBrightness(0.4, 0.5), new RandomContrast(0.4, 0.5),
              new RandomSaturation(0.4, 0.5), new Poison(mask, alpha, new long[] {1, 5, 7}),
              new NormalizeImage(new double[] {1, 2, 3}, new double[] {4, 5, 6}, DType.FLOAT32),
              new Convert(DType.FLOAT16)), List.of(), StageMemory.NONE, false);
      PlannedPipeline label = PlannedPipeline.plan(1, "label", new FieldSource(reader, 1, samples, store),
          new IntDecoder(), List.of(new ReplaceLabel(new long[] {2, 3}, 9), new Squeeze()));
      assertThat(image.describeSteps()).hasSize(6).noneMatch(step -> step.startsWith("fused"));
      assertThat(bytesPerSample(image, 20, 20_000)).isZero();
      assertThat(bytesPerSample(label, 20, 20_000)).isZero();
    }
  }

  /** With page checks on (a dataset shard): a checked page costs one array read per payload, no allocation. */
  @Test
  void checkedPagesAllocateNothingPerSample() throws IOException {
    Path file = org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 20, 16, 12);
    org.sparkbeton.format.dataset.PageChecksums sums;
    try (BetonReader reader = BetonReader.open(file)) {
      sums = org.sparkbeton.format.dataset.PageChecksums.compute(reader);
    }
    org.sparkbeton.loader.io.PageVerifier verifier = new org.sparkbeton.loader.io.PageVerifier(sums, file.toString());
    try (BetonReader reader = BetonReader.open(file);
        MappedPayloadStore store = new MappedPayloadStore(file, verifier, true)) {
      int[] samples = new int[20];
      for (int i = 0; i < 20; i++) {
        samples[i] = i;
      }
      PlannedPipeline image = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store),
          new SimpleRgbDecoder(), List.of(new RandomHorizontalFlip()));
      assertThat(bytesPerSample(image, 20, 20_000)).isZero();
      assertThat(verifier.pagesChecked()).isEqualTo(1);
    }
  }

  static volatile Object sink;

  /** Proves the measurement can fail: an operation that allocates 64 bytes per sample is seen. */
  @Test
  void anAllocatingOperationIsDetected() throws IOException {
    Path file = org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 4, 8, 8);
    Operation allocating = input -> new Operation.Stage() {
      @Override
      public TensorSpec output() {
        return input;
      }

      @Override
      public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
        sink = new byte[64];
        out.putLong(outOffset, in.getLong(inOffset));
      }
    };
    try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
      PlannedPipeline label = PlannedPipeline.plan(0, "label", new FieldSource(reader, 1, new int[] {0, 1, 2, 3}, store),
          new IntDecoder(), List.of(allocating));
      assertThat(bytesPerSample(label, 4, 20_000)).isGreaterThanOrEqualTo(64);
    }
  }

  @Test
  void bytesAndArrayDecodersAllocateNothingPerSample() throws IOException {
    Path file = GoldenFiles.path("every_field");
    try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
      int[] samples = new int[60];
      for (int i = 0; i < 60; i++) {
        samples[i] = i;
      }
      PlannedPipeline bytes = PlannedPipeline.plan(0, "bytes", new FieldSource(reader, 3, samples, store),
          new BytesDecoder(), List.of());
      PlannedPipeline array = PlannedPipeline.plan(0, "array", new FieldSource(reader, 5, samples, store),
          new NdArrayDecoder(), List.of());
      assertThat(bytesPerSample(bytes, 60, 20_000)).isZero();
      assertThat(bytesPerSample(array, 60, 20_000)).isZero();
    }
  }

  @Test
  void cropDecodersAllocateNothingPerSampleOnRaw() throws IOException {
    cropDecodersAllocateNothing(org.sparkbeton.loader.DatasetsAccess.rawImages(dir, 8, CROP_SIZES));
  }

  /** Native codec only: the pure-Java codec decodes through ImageIO, which allocates (~400 KB per image). */
  @Test
  void cropDecodersAllocateNothingPerSampleOnJpegWithTheNativeCodec() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable(),
        "the pure-Java codec (ImageIO) allocates per image");
    cropDecodersAllocateNothing(org.sparkbeton.loader.DatasetsAccess.jpegImages(dir, 8, CROP_SIZES));
  }

  static final int[][] CROP_SIZES = {{300, 220}, {257, 199}, {96, 80}, {181, 470}};

  /** One worker's direct stage memory, as a loader gives it (freed with the test's buffers by the GC). */
  static final StageMemory ONE_WORKER = new StageMemory() {
    @Override
    public int workers() {
      return 1;
    }

    @Override
    public ByteBuffer direct(int bytes, String purpose) {
      return ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
  };

  /** The loader's path: direct scratch, native region decode and resize, fused pixel runs into the slot. */
  @Test
  void fusedCropPipelinesWithStageMemoryAllocateNothingPerSample() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.sparkbeton.codec.jpeg.JpegCodecs.nativeAvailable(),
        "the pure-Java codec (ImageIO) allocates per image");
    Path file = org.sparkbeton.loader.DatasetsAccess.jpegImages(dir, 8, CROP_SIZES);
    int[] samples = {0, 1, 2, 3, 4, 5, 6, 7};
    try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
      PlannedPipeline u8 = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store),
          new RandomResizedCropRgbDecoder(64, 64), List.of(new RandomHorizontalFlip()), List.of(), ONE_WORKER, true);
      PlannedPipeline f16 = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store),
          new RandomResizedCropRgbDecoder(64, 64), List.of(new RandomHorizontalFlip(),
              new NormalizeImage(new double[] {1, 2, 3}, new double[] {4, 5, 6}, DType.FLOAT16), new ToChannelsFirst()),
          List.of(), ONE_WORKER, true);
      assertThat(u8.describeSteps()).containsExactly("fused(RandomHorizontalFlip; coordinates in the decoder)");
      assertThat(f16.describeSteps())
          .containsExactly("fused(RandomHorizontalFlip + NormalizeImage + ToChannelsFirst; coordinates in the decoder)");
      bytesPerSample(u8, 8, 5_000); // grows the resize tables for this epoch's boxes once
      bytesPerSample(f16, 8, 5_000);
      assertThat(bytesPerSample(u8, 8, 5_000)).isZero();
      assertThat(bytesPerSample(f16, 8, 5_000)).isZero();
    }
  }

  void cropDecodersAllocateNothing(Path file) throws IOException {
    int[] samples = {0, 1, 2, 3, 4, 5, 6, 7};
    {
      try (BetonReader reader = BetonReader.open(file); MappedPayloadStore store = new MappedPayloadStore(file)) {
        RandomResizedCropRgbDecoder rrc = new RandomResizedCropRgbDecoder(64, 64);
        CenterCropRgbDecoder center = new CenterCropRgbDecoder(64, 64, 0.875);
        PlannedPipeline a = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store), rrc,
            List.of(new RandomHorizontalFlip()));
        PlannedPipeline b = PlannedPipeline.plan(0, "image", new FieldSource(reader, 0, samples, store), center,
            List.of());
        // the first call may grow the per-thread resize tables for the boxes of epoch 1 (once, not per sample)
        bytesPerSample(a, 8, 5_000);
        assertThat(bytesPerSample(a, 8, 5_000)).as(file.getFileName() + " RRC").isZero();
        assertThat(bytesPerSample(b, 8, 5_000)).as(file.getFileName() + " centre").isZero();
        rrc.release(); // nothing retained: frees nothing, harmless
      }
    }
  }
}
