package org.sparkbeton.loader.pipeline;

import java.nio.ByteBuffer;

/**
 * The first step of a pipeline: turns one field of a sample into a tensor. {@link #plan} sees the
 * field (type, metadata of every sample the loader will read) and declares a fixed output spec.
 */
public interface Decoder {

  /** Binds the decoder to a field; throws {@link IllegalArgumentException} if it cannot decode it. */
  Stage plan(FieldSource field);

  /**
   * As {@link #plan(FieldSource)}, with off-heap per-worker scratch on offer (the loader's); decoders
   * that call native code use it to avoid heap copies. The default ignores it.
   */
  default Stage plan(FieldSource field, StageMemory memory) {
    return plan(field);
  }

  default String name() {
    return getClass().getSimpleName();
  }

  /**
   * Called once by each loader that uses this decoder, when it is built. A decoder may be shared by
   * several loaders (a {@code filter} result shares its parent's); one holding resources (JPEG codec
   * handles) frees them when the last loader {@link #release}s it.
   */
  default void retain() {}

  /** Called once by each loader that {@link #retain}ed this decoder, when it closes (workers stopped). */
  default void release() {}

  /** A planned decoder; same threading rules as {@link Operation.Stage}. */
  interface Stage {
    TensorSpec output();

    /** Writes sample {@code sample}'s value, laid out as {@link #output()}, at {@code offset} of {@code out}. */
    void decode(long sample, ByteBuffer out, int offset, SampleContext ctx);
  }

  /**
   * A decoder stage that can write its image with remapped coordinates at no extra cost (a resizing
   * decoder computes every output pixel anyway). The planner hands it the coordinate mapping of the
   * fused pixel operations that follow it (a flip, say), so that pass either disappears or only maps
   * values. Output [H, W, 3] images only.
   */
  interface MappingStage extends Stage {
    /**
     * As {@link #decode(long, ByteBuffer, int, SampleContext)}, but output pixel (y, x) is pixel
     * ({@code rows[y]}, {@code columns[x]}) of the unmapped output; null maps are the identity. The
     * maps are valid (in range, output-sized) and must not be kept.
     */
    void decode(long sample, ByteBuffer out, int offset, SampleContext ctx, int[] columns, int[] rows);
  }
}
