package org.sparkbeton.loader.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.dataset.Batch;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.Loader;
import org.sparkbeton.loader.LoaderBuilder;
import org.sparkbeton.loader.decoders.IntDecoder;
import org.sparkbeton.loader.decoders.SimpleRgbDecoder;
import org.sparkbeton.loader.pipeline.DType;
import org.sparkbeton.loader.transforms.NormalizeImage;
import org.sparkbeton.loader.transforms.ToChannelsFirst;

/**
 * The DJL batches wrap the loader's slots: no copy, the slot held until the batch is closed, nothing left behind.
 * The timeout only guards against a hang; nothing is timed.
 */
@Timeout(300)
class LoaderDatasetTest {
  static final int N = 40;

  @TempDir
  static Path dir;
  static Path file;

  RecordingAllocator allocator;
  NDManager manager;

  @BeforeAll
  static void write() throws IOException {
    file = RawImages.write(dir, N);
  }

  @BeforeEach
  void open() {
    allocator = new RecordingAllocator();
    manager = NDManager.newBaseManager(Device.cpu());
  }

  @AfterEach
  void close() {
    manager.close();
  }

  /** Batches of 4 in order, float32 CHW images equal to the stored bytes, int64 labels; a ring of 3 slots. */
  LoaderBuilder loader() {
    return Loader.builder(file).batchSize(4).numThreads(2).batchesAhead(1).allocator(allocator)
        .pipeline("image", new SimpleRgbDecoder(),
            new NormalizeImage(new double[] {0, 0, 0}, new double[] {1, 1, 1}, DType.FLOAT32), new ToChannelsFirst())
        .pipeline("label", new IntDecoder());
  }

  LoaderDataset dataset(Loader loader) {
    return LoaderDataset.builder(loader).data("image").labels("label").build();
  }

  static float expected(int sample, int c, int y, int x) {
    return RawImages.pixel(sample, y, x, c);
  }

  @Test
  void batchesHaveTheLoadersShapesTypesAndValues() throws IOException {
    try (LoaderDataset ds = dataset(loader().build())) {
      int batches = 0;
      for (Batch b : ds.getData(manager)) {
        NDArray images = b.getData().head();
        NDArray labels = b.getLabels().head();
        assertThat(images.getShape()).isEqualTo(new Shape(4, 3, RawImages.H, RawImages.W));
        assertThat(images.getDataType()).isEqualTo(DataType.FLOAT32);
        assertThat(images.getDevice()).isEqualTo(Device.cpu());
        assertThat(labels.getShape()).isEqualTo(new Shape(4));
        assertThat(labels.getDataType()).isEqualTo(DataType.INT64);
        int first = 4 * batches;
        assertThat(labels.toLongArray()).containsExactly(1000L + first, 1001L + first, 1002L + first, 1003L + first);
        assertThat(new ArrayList<Object>(b.getIndices())).containsExactly(first, first + 1, first + 2, first + 3);
        assertThat(images.getFloat(3, 2, 4, 5)).isEqualTo(expected(first + 3, 2, 4, 5));
        assertThat(images.getFloat(1, 0, 1, 2)).isEqualTo(expected(first + 1, 0, 1, 2));
        assertThat(b.getProgress()).isEqualTo(batches + 1);
        assertThat(b.getProgressTotal()).isEqualTo(10);
        b.close();
        batches++;
      }
      assertThat(batches).isEqualTo(10);
    }
  }

  @Test
  void theNdArrayIsTheSlotNotACopy() throws IOException {
    try (LoaderDataset ds = dataset(loader().build())) {
      Batch b = ds.getData(manager).iterator().next(); // batch 0 lives in slot 0
      NDArray images = b.getData().head();
      assertThat(images.getFloat(0, 0, 0, 0)).isEqualTo(expected(0, 0, 0, 0));
      // the image output's rows start the slot: element (0, 0, 0, 0) is its first 4 bytes
      allocator.live("batch slot 0 of 3").order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 12345.5f);
      assertThat(images.getFloat(0, 0, 0, 0)).isEqualTo(12345.5f);
      allocator.live("batch slot 0 of 3").order(ByteOrder.LITTLE_ENDIAN).putFloat(4, -7f);
      assertThat(images.getFloat(0, 0, 0, 1)).isEqualTo(-7f);
      b.close();
    }
  }

  @Test
  void aSlotReturnsToTheLoaderOnlyWhenItsBatchIsClosed() throws IOException {
    try (LoaderDataset ds = dataset(loader().build())) {
      Iterator<Batch> it = ds.getData(manager).iterator();
      List<Batch> open = new ArrayList<>();
      open.add(it.next());
      open.add(it.next());
      // with a ring of 3 slots and nothing held, the workers would now refill slot 0 with batch 3
      NDArray first = open.get(0).getData().head();
      Batch third = it.next();
      assertThat(first.getFloat(2, 1, 3, 4)).isEqualTo(expected(2, 1, 3, 4));
      assertThat(ds.openBatches()).isEqualTo(3);
      assertThatThrownBy(it::next).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Batch 3 of epoch 0 needs slot 0, which batch 0 still holds");
      open.get(0).close();
      Batch fourth = it.next();
      assertThat(fourth.getLabels().head().toLongArray()[0]).isEqualTo(1012L);
      open.get(1).close();
      third.close();
      fourth.close();
      assertThat(ds.openBatches()).isZero();
    }
  }

  @Test
  void usingAClosedBatchThrowsEvenForAnArrayDetachedFromIt() throws IOException {
    try (LoaderDataset ds = dataset(loader().build())) {
      LoaderBatch b = (LoaderBatch) ds.getData(manager).iterator().next();
      NDArray images = b.getData().head();
      NDArray labels = b.getLabels().head();
      labels.detach(); // escapes the batch's manager: still closed with the batch, since it wraps the slot
      b.close();
      b.close(); // idempotent, unlike DJL's own Batch
      assertThat(b.isClosed()).isTrue();
      assertThatThrownBy(() -> images.getFloat(0, 0, 0, 0)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Native resource has been release");
      assertThatThrownBy(labels::toLongArray).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Native resource has been release");
    }
  }

  /**
   * Closing the dataset leaves a batch still open readable until it is closed, which frees its slot: a step over
   * its arrays may be running on another thread (Ctrl-C's shutdown hook closing the dataset), and closing the
   * arrays or freeing the slot under it crashed the JVM in libtorch. Here the close runs on another thread.
   */
  @Test
  void anOpenBatchOutlivesTheDatasetsCloseAndItsCloseFreesTheSlot() throws Exception {
    LoaderDataset ds = dataset(loader().build());
    Iterator<Batch> it = ds.getData(manager).iterator();
    Batch closed = it.next();
    Batch open = it.next(); // batch 1: samples 4 to 7
    NDArray kept = open.getData().head();
    NDArray view = kept.get(2); // a view of sample 6, attached to the batch's manager
    closed.close();
    Thread closer = new Thread(ds::close);
    closer.start();
    closer.join();

    assertThat(kept.isReleased()).isFalse();
    assertThat(kept.getFloat(3, 2, 4, 5)).isEqualTo(expected(7, 2, 4, 5));
    assertThat(view.getFloat(1, 2, 3)).isEqualTo(expected(6, 1, 2, 3));
    assertThat(ds.openBatches()).isEqualTo(1);
    assertThat(allocator.outstanding()).isEqualTo(1); // the open batch's slot, nothing else
    assertThatThrownBy(() -> ds.getData(manager).iterator()).isInstanceOf(IllegalStateException.class)
        .hasMessage("This LoaderDataset is closed");

    open.close();
    assertThat(kept.isReleased()).isTrue();
    assertThat(view.isReleased()).isTrue();
    assertThat(ds.openBatches()).isZero();
    assertThat(manager.getManagedArrays()).isEmpty();
    assertThat(allocator.outstanding()).isZero();
    allocator.close(); // throws if the loader leaked a buffer
  }

  /** The Loader closed before the dataset (try-with-resources around the loader): the same, for its open batches. */
  @Test
  void closingTheLoaderFirstLeavesAnOpenBatchReadableUntilItIsClosed() throws IOException {
    Loader loader = loader().build();
    LoaderDataset ds = dataset(loader);
    Batch b = ds.getData(manager).iterator().next();
    NDArray images = b.getData().head();
    loader.close();
    assertThat(images.isReleased()).isFalse();
    assertThat(images.getFloat(0, 0, 0, 0)).isEqualTo(expected(0, 0, 0, 0));
    assertThat(allocator.outstanding()).isEqualTo(1);
    b.close();
    assertThat(images.isReleased()).isTrue();
    assertThat(allocator.outstanding()).isZero();
    ds.close();
    allocator.close(); // throws if the loader leaked a buffer
  }

  /**
   * A step that threw before its batch's close left the batch open: its slot stayed held, and every later epoch
   * stopped at the first batch that needed that slot (or, resizing, could not start). The next epoch closes such
   * batches, with the arrays made from them.
   */
  @Test
  void aNewEpochClosesTheBatchesAnEarlierOneLeftOpen() throws IOException {
    try (LoaderDataset ds = dataset(loader().build())) {
      Iterator<Batch> first = ds.getData(manager).iterator();
      first.next().close();
      Batch orphan = first.next(); // the step on it threw; nothing closed it
      NDArray view = orphan.getData().head().reshape(-1);
      assertThat(ds.openBatches()).isEqualTo(1);

      long[] labels = new long[N];
      int seen = 0;
      for (Batch b : ds.getData(manager)) {
        for (long label : b.getLabels().head().toLongArray()) {
          labels[seen++] = label;
        }
        b.close();
      }
      assertThat(seen).isEqualTo(N);
      assertThat(labels[N - 1]).isEqualTo(1000L + N - 1);
      assertThat(view.isReleased()).isTrue();
      assertThatThrownBy(view::sum).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Native resource has been release");
      assertThat(ds.openBatches()).isZero();
      assertThat(ds.closeOpenBatches()).isZero();
    }
    assertThat(allocator.outstanding()).isZero();
  }

  /** A Bytes output arrives zero-padded: without its rows' lengths a DJL user could not tell a value's end. */
  @Test
  void aVariableSizeOutputsRowLengthsComeWithTheBatch() throws IOException {
    Path bytes = dir.resolve("bytes.beton");
    List<org.sparkbeton.format.BetonField> fields = List.of(
        new org.sparkbeton.format.BetonField("text", org.sparkbeton.format.fields.BytesField.INSTANCE),
        new org.sparkbeton.format.BetonField("label", org.sparkbeton.format.fields.IntField.INSTANCE));
    try (org.sparkbeton.format.write.BetonWriter w = org.sparkbeton.format.write.BetonWriter.builder(fields)
        .open(bytes)) {
      for (int i = 0; i < 8; i++) {
        w.append("x".repeat(1 + 3 * i).getBytes(java.nio.charset.StandardCharsets.US_ASCII), (long) i);
      }
      w.finish();
    }
    Loader loader = Loader.builder(bytes).batchSize(4).numThreads(1).allocator(allocator)
        .pipeline("text", new org.sparkbeton.loader.decoders.BytesDecoder()).pipeline("label", new IntDecoder())
        .build();
    try (LoaderDataset ds = LoaderDataset.builder(loader).data("text").labels("label").build()) {
      Iterator<Batch> it = ds.getData(manager).iterator();
      it.next().close();
      LoaderBatch second = (LoaderBatch) it.next();
      assertThat(second.lengths("text")).containsExactly(13, 16, 19, 22);
      NDArray text = second.getData().head();
      assertThat(text.getShape().get(0)).isEqualTo(4);
      byte[] row0 = Arrays.copyOfRange(text.toByteArray(), 0, (int) text.getShape().get(1));
      assertThat(new String(row0, 0, 13, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("x".repeat(13));
      assertThat(row0[13]).isZero();
      assertThatThrownBy(() -> second.lengths("label")).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Output 'label' has no row lengths: the outputs with a variable size are text; a fixed-size"
              + " output's rows are all its sample size");
      second.close();
      assertThat(second.lengths("text")).containsExactly(13, 16, 19, 22);
    }
  }

  @Test
  void aFullEpochClosedBatchByBatchLeavesNothing() throws IOException {
    try (LoaderDataset ds = dataset(loader().build())) {
      for (Batch b : ds.getData(manager)) {
        b.getData().head().mul(2).sum(); // results attach to the batch's manager and close with it
        b.close();
      }
      assertThat(manager.getManagedArrays()).isEmpty();
    }
    assertThat(allocator.outstanding()).isZero();
    allocator.close();
  }

  @Test
  void badOutputNamesAreRefusedNamingTheOutputs() throws IOException {
    try (Loader loader = loader().build()) {
      assertThatThrownBy(() -> LoaderDataset.builder(loader).data("img").build())
          .isInstanceOf(IllegalArgumentException.class).hasMessage("No loader output 'img'; outputs are [image, label]");
      assertThatThrownBy(() -> LoaderDataset.builder(loader).labels("label").build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Name the loader outputs that make a batch's data with data(...); outputs are [image, label]");
      assertThatThrownBy(() -> LoaderDataset.builder(loader).data("image").labels("image").build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Loader output 'image' is named twice in data/labels");
    }
  }
}
