package org.sparkbeton.loader;

import java.nio.ByteBuffer;
import java.util.List;
import org.sparkbeton.loader.memory.SlotRing;
import org.sparkbeton.loader.pipeline.PlannedPipeline;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * One batch: a <b>view into a reusable slot</b> of the loader's ring of {@code batchesAhead + 2}
 * slots, not a copy. It stays valid while the consumer holds it and through the next call to
 * {@code next()}; once the consumer asks for the batch after that, the loader may refill the slot.
 * Copy what you keep. Every accessor checks the slot's generation and throws
 * {@link IllegalStateException} once the slot has been recycled or the loader closed; buffers
 * already obtained from {@link #data} cannot be checked — in debug mode the loader fills a slot with
 * the byte {@code 0xA5} when it recycles it, so stale reads show up as that pattern. The loader closed from
 * another thread keeps the memory of these two batches (the latest and the one before) until the consumer's
 * thread next calls the epoch's iterator, so a consumer reading one when the close comes reads its values.
 *
 * <p>A consumer that must keep a batch longer (an adapter handing the slot's memory to a framework
 * without a copy, as loader-djl does) calls {@link #retain()}: the slot then stays this batch's until
 * the returned {@link Hold} is closed, whatever the consumer asks for meanwhile.
 */
public final class Batch {
  private final SlotRing ring;
  private final int slot;
  private final long generation;
  private final List<PlannedPipeline> outputs;
  private final int epoch;
  private final int index;
  private final int size;
  private final int[] samples;
  private final int firstPosition;
  /**
   * The loader, held so that a batch (or a {@link Hold} of it) in the consumer's hands keeps it reachable: the
   * cleaner of a loader dropped without close() frees the slots, which must not happen under a batch still used.
   */
  private Object loader;

  Batch(SlotRing ring, int slot, long generation, List<PlannedPipeline> outputs, int epoch, int index,
        int size, int[] order, int firstPosition) {
    this.ring = ring;
    this.slot = slot;
    this.generation = generation;
    this.outputs = outputs;
    this.epoch = epoch;
    this.index = index;
    this.size = size;
    this.samples = order;
    this.firstPosition = firstPosition;
  }

  /** Sets the loader this batch keeps reachable (by the consumer's side of an epoch, never a worker). */
  Batch keptBy(Loader owner) {
    this.loader = owner;
    return this;
  }

  /** Whether the slot still holds this batch. */
  public boolean isValid() {
    return ring.generation(slot) == generation;
  }

  /**
   * Keeps this batch's slot from being recycled until the returned hold is closed: the batch, and the
   * buffers {@link #data} gave, stay valid past the usual window. Workers that need the slot wait for the
   * release, so a consumer that holds batches fills the ring: asking for the batch that needs a slot
   * still held (the one {@code batchesAhead + 2} batches later) throws {@link IllegalStateException}
   * instead of waiting forever. A held batch outlives {@link Loader#close()}: the loader frees every other slot
   * at once, and a held one (still valid and readable, e.g. by a training step on another thread) when its hold
   * is closed. A ring reallocated for a new output size (progressive resizing) is refused while any batch is held.
   *
   * @throws IllegalStateException if the slot has already been recycled or the loader closed
   */
  public Hold retain() {
    check();
    if (!ring.hold(slot, generation)) {
      check(); // recycled between the check and the hold: throws with the usual message
      throw new IllegalStateException("Batch " + index + " of epoch " + epoch + " could not be held");
    }
    Hold hold = new Hold(ring, slot, generation, loader);
    if (loader instanceof Loader owner) {
      owner.core().handedBatches().retained(hold); // the consumer's own hold keeps the slot from now on
    }
    return hold;
  }

  /**
   * Holds this batch's slot for the consumer ({@link HandedBatches}); null when the slot was recycled or the
   * loader closed already. The hold does not keep the loader reachable: the loader's cleaner must still find a
   * loader dropped unclosed, and it gives these holds back.
   */
  Hold holdForConsumer() {
    return ring.hold(slot, generation) ? new Hold(ring, slot, generation, null) : null;
  }

  /** A batch's slot held by {@link Batch#retain()}; closing it (once, idempotent) gives the slot back. */
  public static final class Hold implements AutoCloseable {
    private final SlotRing ring;
    private final int slot;
    private final long generation;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    /** Keeps the loader reachable while the slot is held (see {@link Batch#loader}). */
    @SuppressWarnings("unused")
    private final Object loader;

    Hold(SlotRing ring, int slot, long generation, Object loader) {
      this.ring = ring;
      this.slot = slot;
      this.generation = generation;
      this.loader = loader;
    }

    /** Whether {@code other} holds the same batch's slot. */
    boolean sameBatch(Hold other) {
      return other.ring == ring && other.slot == slot && other.generation == generation;
    }

    /** Whether this hold has been closed. */
    public boolean isClosed() {
      return closed.get();
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        ring.release(slot, generation);
      }
    }
  }

  private void check() {
    long now = ring.generation(slot);
    if (now != generation) {
      throw new IllegalStateException("Batch " + index + " of epoch " + epoch + " is no longer valid: its slot "
          + slot + " has been recycled for a later batch or the loader was closed (a batch is a view into a ring of "
          + ring.slots() + " slots; copy what you keep)");
    }
  }

  public int epoch() {
    return epoch;
  }

  /** Position of this batch in its epoch. */
  public int index() {
    return index;
  }

  /** Samples in this batch (the batch size, or fewer for a last partial batch). */
  public int size() {
    check();
    return size;
  }

  /** Dataset index of the i-th sample. */
  public int sample(int i) {
    check();
    checkRow(i);
    return samples[firstPosition + i];
  }

  /** Output names, in pipeline order. */
  public int outputCount() {
    return outputs.size();
  }

  /** Shape and type of one sample of {@code output}. */
  public TensorSpec spec(String output) {
    return outputs.get(outputIndex(output)).spec();
  }

  /**
   * The output's rows: {@code size() * spec(output).bytes()} bytes, little-endian, sample after
   * sample. A read-only view into the slot: valid only while this batch is (see the class comment).
   */
  public ByteBuffer data(String output) {
    check();
    int o = outputIndex(output);
    int bytes = size * ring.rowBytes(o);
    return ring.buffer(slot).slice(ring.dataOffset(o), bytes).asReadOnlyBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
  }

  /** Valid length of row {@code i} of a variable-size output (Bytes/JSON decoders); -1 when not set. */
  public int length(String output, int i) {
    check();
    checkRow(i);
    int o = outputIndex(output);
    return ring.buffer(slot).getInt(ring.lengthsOffset(o) + 4 * i);
  }

  private void checkRow(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("Row " + i + " of a batch of " + size);
    }
  }

  private int outputIndex(String output) {
    for (int o = 0; o < outputs.size(); o++) {
      if (outputs.get(o).output().equals(output)) {
        return o;
      }
    }
    StringBuilder names = new StringBuilder();
    outputs.forEach(p -> names.append(names.length() == 0 ? "" : ", ").append(p.output()));
    throw new IllegalArgumentException("No output '" + output + "'; outputs are " + names);
  }
}
