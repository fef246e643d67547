package org.sparkbeton.loader.djl;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Blocks;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.Batch;
import ai.djl.training.loss.Loss;
import ai.djl.translate.TranslateException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.LoaderState;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;

/** What the loader does reaches DJL unchanged: order and seed, distributed ranks, resume, progressive resizing. */
class PassThroughTest {
  static final int N = 40;

  @TempDir
  static Path dir;
  static Path file;

  NDManager manager;
  DirectBufferAllocator allocator;

  @BeforeAll
  static void write() throws IOException {
    file = RawImages.write(dir, N);
  }

  @BeforeEach
  void open() {
    manager = NDManager.newBaseManager(Device.cpu());
    allocator = new DirectBufferAllocator("pass-through");
  }

  @AfterEach
  void close() {
    manager.close();
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  LoaderBuilder labels() {
    return Loader.builder(file).batchSize(4).numThreads(2).allocator(allocator).order(OrderOption.RANDOM).seed(9)
        .pipeline("label", new IntDecoder());
  }

  /** Every label of one epoch, batch by batch (labels, 1000 + sample index, are the data here). */
  static List<long[]> epoch(LoaderDataset ds, NDManager manager) {
    List<long[]> out = new ArrayList<>();
    for (Batch b : ds.getData(manager)) {
      out.add(b.getData().head().toLongArray());
      b.close();
    }
    return out;
  }

  static long[] flat(List<long[]> batches) {
    return batches.stream().flatMapToLong(Arrays::stream).toArray();
  }

  static long[] labelsOf(int[] samples, int count) {
    return Arrays.stream(samples).limit(count).mapToLong(s -> 1000L + s).toArray();
  }

  @Test
  void theLoadersOrderAndSeedDecideTheBatches() throws IOException {
    try (LoaderDataset ds = LoaderDataset.builder(labels().build()).data("label").build()) {
      int[] order0 = ds.loader().epochOrder(0);
      int[] order1 = ds.loader().epochOrder(1);
      assertThat(flat(epoch(ds, manager))).containsExactly(labelsOf(order0, N));
      assertThat(flat(epoch(ds, manager))).containsExactly(labelsOf(order1, N));
      assertThat(order0).isNotEqualTo(order1);
    }
  }

  @Test
  void aRankGetsItsShareOfEachEpoch() throws IOException {
    try (Loader full = labels().build();
         LoaderDataset rank1 = LoaderDataset.builder(labels().distributed(1, 2).build()).data("label").build()) {
      int[] global = full.epochOrder(0);
      long[] expected = new long[N / 2];
      for (int i = 0; i < expected.length; i++) {
        expected[i] = 1000L + global[2 * i + 1]; // RANDOM deals strided shares: rank 1 takes positions 1, 3, 5...
      }
      List<long[]> batches = new ArrayList<>();
      for (Batch b : rank1.getData(manager)) {
        batches.add(b.getData().head().toLongArray());
        b.close();
      }
      assertThat(batches).hasSize(5);
      assertThat(flat(batches)).containsExactly(expected);
    }
  }

  @Test
  void aDatasetResumedFromAStateContinuesBitForBit() throws IOException {
    List<long[]> whole;
    try (LoaderDataset ds = LoaderDataset.builder(labels().build()).data("label").build()) {
      epoch(ds, manager);
      whole = epoch(ds, manager); // epoch 1
    }
    LoaderState saved;
    try (LoaderDataset ds = LoaderDataset.builder(labels().build()).data("label").build()) {
      epoch(ds, manager);
      Iterator<Batch> it = ds.getData(manager).iterator();
      for (int i = 0; i < 4; i++) {
        it.next().close();
      }
      saved = ds.state();
    }
    assertThat(saved).extracting(LoaderState::epoch, LoaderState::batch).containsExactly(1, 4);
    assertThat(saved.order()).as("the fingerprint of the epoch's order").isNotEqualTo(LoaderState.UNKNOWN_ORDER);
    try (LoaderDataset resumed = LoaderDataset.builder(labels().resumeFrom(saved).build()).data("label").build()) {
      List<long[]> rest = epoch(resumed, manager);
      assertThat(rest).hasSize(6);
      for (int i = 0; i < rest.size(); i++) {
        assertThat(rest.get(i)).containsExactly(whole.get(4 + i));
      }
    }
  }

  @Test
  void eachEpochRunsAtItsScheduledSize() throws IOException {
    CenterCropRgbDecoder crop = new CenterCropRgbDecoder(2, 2, 1.0);
    Loader loader = Loader.builder(file).batchSize(8).numThreads(1).allocator(allocator)
        .pipeline("image", crop).pipeline("label", new IntDecoder()).build();
    try (LoaderDataset ds = LoaderDataset.builder(loader).data("image").labels("label")
        .optSizeSchedule(SizeSchedule.perEpoch(3, 4), crop::outputSize).build()) {
      for (int e = 0; e < 3; e++) {
        int side = e == 0 ? 3 : 4;
        int batches = 0;
        for (Batch b : ds.getData(manager)) {
          assertThat(b.getData().head().getShape()).isEqualTo(new Shape(8, side, side, 3));
          b.close();
          batches++;
        }
        assertThat(batches).isEqualTo(5);
      }
    }
  }

  @Test
  void easyTrainFitsOnTheDatasetAndClosesEveryBatch() throws IOException, TranslateException {
    Loader loader = Loader.builder(file).batchSize(8).numThreads(2).allocator(allocator).order(OrderOption.RANDOM)
        .pipeline("image", new CenterCropRgbDecoder(4, 4, 1.0), new org.sparkbeton.loader.transforms.NormalizeImage(
            new double[] {0, 0, 0}, new double[] {255, 255, 255}, org.sparkbeton.loader.pipeline.DType.FLOAT32))
        .pipeline("label", new IntDecoder())
        .build();
    try (LoaderDataset ds = LoaderDataset.builder(loader).data("image").labels("label").build();
         Model model = Model.newInstance("linear", Device.cpu())) {
      // labels are 1000 + sample index: 1040 outputs make them valid class indices
      model.setBlock(new SequentialBlock().add(Blocks.batchFlattenBlock()).add(Linear.builder().setUnits(1040).build()));
      try (Trainer trainer = model.newTrainer(new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
          .optDevices(new Device[] {Device.cpu()}))) {
        trainer.initialize(new Shape(1, 4, 4, 3));
        EasyTrain.fit(trainer, 2, ds, null);
        assertThat(ds.openBatches()).isZero();
        assertThat(ds.loader().nextEpoch()).isEqualTo(2);
      }
    }
  }
}
