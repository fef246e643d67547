package org.sparkbeton.format;

import java.util.HashMap;
import java.util.Map;

/**
 * How to open a file. {@link #customField} maps a field name to the codec factory that decodes it,
 * exactly like FFCV's {@code custom_fields}: required for fields of type 255, and it overrides the
 * built-in codec of any other field with that name. {@link #withoutAllocationTable} opens for reading
 * metadata records only; {@link #allocationTableOnFirstUse} reads the table when first needed instead of at open.
 */
public final class ReadOptions {
  private final Map<String, FieldCodecFactory> customFields = new HashMap<>();
  private TableRead tableRead = TableRead.AT_OPEN;

  /** When a reader reads its allocation table. */
  enum TableRead { AT_OPEN, ON_FIRST_USE, NEVER }

  public static ReadOptions defaults() {
    return new ReadOptions();
  }

  public ReadOptions customField(String name, FieldCodecFactory factory) {
    customFields.put(name, factory);
    return this;
  }

  /**
   * Opens without reading the allocation table, for readers of metadata records alone (an aggregate over scalar
   * columns): the table is one 24-byte entry per payload, read, checked and sorted at open, which such a
   * reader never uses. Payloads can still be read; {@link BetonReader#allocations()} and a codec's
   * {@code allocationSize} then fail with a message saying why.
   */
  public ReadOptions withoutAllocationTable() {
    tableRead = TableRead.NEVER;
    return this;
  }

  /**
   * Reads the allocation table when it is first needed ({@link BetonReader#allocations()}, a payload's size)
   * instead of at open: opening many shards then reads only their headers and descriptors, and whoever needs a
   * table (another thread that reads them ahead, the first payload read) reads and checks it once. A damaged table
   * then fails that call, not the open.
   */
  public ReadOptions allocationTableOnFirstUse() {
    tableRead = TableRead.ON_FIRST_USE;
    return this;
  }

  TableRead tableRead() {
    return tableRead;
  }

  FieldCodecFactory customFactory(String name) {
    return customFields.get(name);
  }
}
