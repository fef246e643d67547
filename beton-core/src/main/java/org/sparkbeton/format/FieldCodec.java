package org.sparkbeton.format;

import java.nio.ByteBuffer;

/**
 * Everything about one field type's bytes: its metadata column, its 1024-byte argument blob, how a
 * value is encoded into metadata plus payload allocations, how it is decoded, and which metadata
 * bytes are file pointers (so files can be rebased and merged). One class per type id, registered in
 * {@link FieldTypes}; custom fields (type id 255) implement the same interface.
 *
 * <p>Metadata is accessed with absolute little-endian gets and puts at {@code offset} inside a record
 * buffer, so the hot paths allocate nothing.
 */
public interface FieldCodec {

  /** The type id written into the descriptor (0–6 for FFCV's built-ins, 255 for custom fields). */
  int typeId();

  /** Bytes this field occupies in each metadata record. */
  int metadataSize();

  /** numpy alignment of the metadata column: 8 for i8/f8/u8 scalars, 1 for FFCV's packed structs. */
  int metadataAlignment();

  /** The descriptor's argument blob; at most {@link BetonFormat#ARGUMENTS_SIZE} bytes, zero-padded on write. */
  byte[] arguments();

  /** Offsets, relative to this field's metadata, of the u64 file pointers it stores. */
  int[] pointerOffsets();

  /**
   * Encodes {@code value}: writes this field's metadata at {@code offset} of {@code record} and
   * stores payloads through {@code ctx}. Must be repeatable: the writer encodes a sample again from
   * the start when it has to move to a new page.
   *
   * @throws IllegalArgumentException if the value does not fit the field (message names the problem)
   */
  void encode(Object value, ByteBuffer record, int offset, EncodeContext ctx);

  /** Decodes the value stored at {@code offset} of {@code record}, reading payloads through {@code payloads}. */
  Object decode(ByteBuffer record, int offset, PayloadReader payloads);

  /** Describes this field's shape for humans ("<f4 (3, 4)", "jpg/raw image"); empty when there is nothing to add. */
  default String describe() {
    return "";
  }

  /** How a codec stores payloads while a sample is written. */
  interface EncodeContext {
    /** Index of the sample being encoded. */
    long sampleIndex();

    /** Copies {@code payload} (position to limit) into the sample's page; returns the pointer to store. */
    long allocate(ByteBuffer payload);
  }

  /** How a codec reads payloads back; every call is bounds-checked against the data region. */
  interface PayloadReader {
    /** The {@code size} bytes at file offset {@code ptr}, little-endian, read-only. */
    ByteBuffer read(long ptr, long size);

    /** Size of the allocation that starts exactly at {@code ptr}, from the allocation table. */
    long allocationSize(long ptr);
  }
}
