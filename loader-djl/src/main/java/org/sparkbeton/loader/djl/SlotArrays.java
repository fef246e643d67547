package org.sparkbeton.loader.djl;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.sparkbeton.loader.Batch;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * Turns one loader batch into a DJL batch: holds its slot, wraps each output's rows in an NDArray on a CPU
 * sub-manager of the trainer's manager ({@code create(directBuffer, ...)}: PyTorch's {@code from_blob}, no copy),
 * and ties the slot to that manager with a {@link SlotLease}, so closing the DJL batch releases it.
 */
final class SlotArrays {
  private static final AtomicLong LEASES = new AtomicLong();
  private final NDManager parent;
  private final Device device;
  private final List<String> data;
  private final List<String> labels;
  private final int batchesPerEpoch;
  private final Consumer<SlotLease> opened;
  private final Consumer<SlotLease> closed;

  SlotArrays(NDManager parent, Device device, List<String> data, List<String> labels, int batchesPerEpoch,
             Consumer<SlotLease> opened, Consumer<SlotLease> closed) {
    this.parent = parent;
    this.device = device;
    this.data = data;
    this.labels = labels;
    this.batchesPerEpoch = batchesPerEpoch;
    this.opened = opened;
    this.closed = closed;
  }

  LoaderBatch wrap(Batch batch) {
    Batch.Hold hold = batch.retain();
    NDManager manager = null;
    SlotLease lease = null;
    try {
      manager = parent.newSubManager(Device.cpu());
      List<NDArray> views = new ArrayList<>();
      NDList dataArrays = arrays(batch, data, manager, views, false);
      NDList labelArrays = arrays(batch, labels, manager, views, true);
      lease = new SlotLease(hold, manager, views, closed);
      opened.accept(lease);
      manager.attachInternal("beton-slot-lease-" + LEASES.incrementAndGet(), lease);
      if (device != null && !device.equals(Device.cpu())) {
        dataArrays = dataArrays.toDevice(device, false);
        labelArrays = labelArrays.toDevice(device, false);
      }
      int[] samples = new int[batch.size()];
      for (int i = 0; i < samples.length; i++) {
        samples[i] = batch.sample(i);
      }
      return new LoaderBatch(manager, dataArrays, labelArrays, batch.size(), batch.index() + 1L, batchesPerEpoch,
          samples, batch.epoch(), batch.index(), rowLengths(batch));
    } catch (RuntimeException | Error e) {
      if (lease != null) {
        lease.close(); // closes the wrapping arrays and gives the slot back
      }
      if (manager != null) {
        manager.close();
      }
      hold.close();
      throw e;
    }
  }

  /**
   * The row lengths of each output of {@code batch} with a variable size: the loader writes each row's length, -1
   * where the output has a fixed size.
   */
  private Map<String, int[]> rowLengths(Batch batch) {
    Map<String, int[]> out = new HashMap<>();
    for (List<String> outputs : List.of(data, labels)) {
      for (String output : outputs) {
        if (batch.size() > 0 && batch.length(output, 0) >= 0) {
          int[] lengths = new int[batch.size()];
          for (int i = 0; i < lengths.length; i++) {
            lengths[i] = batch.length(output, i);
          }
          out.put(output, lengths);
        }
      }
    }
    return out;
  }

  private static NDList arrays(Batch batch, List<String> outputs, NDManager manager, List<NDArray> views,
                               boolean label) {
    NDList list = new NDList(outputs.size());
    for (String output : outputs) {
      TensorSpec spec = batch.spec(output);
      ByteBuffer rows = batch.data(output); // direct, position 0, exactly size * spec.bytes() bytes
      NDArray array = manager.create(rows, shape(batch.size(), spec, label), DataTypes.of(spec.dtype()));
      array.setName(output);
      views.add(array);
      list.add(array);
    }
    return list;
  }

  /** (batch, sample shape...); a label of one element per sample is (batch), DJL's sparse labels. */
  static Shape shape(int batchSize, TensorSpec spec, boolean label) {
    if (label && spec.elements() == 1) {
      return new Shape(batchSize);
    }
    long[] dims = new long[spec.rank() + 1];
    dims[0] = batchSize;
    for (int i = 0; i < spec.rank(); i++) {
      dims[i + 1] = spec.dim(i);
    }
    return new Shape(dims);
  }
}
