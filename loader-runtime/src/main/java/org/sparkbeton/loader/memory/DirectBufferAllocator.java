package org.sparkbeton.loader.memory;

import java.nio.ByteBuffer;
import org.sparkbeton.codec.memory.BufferCleaner;
import org.sparkbeton.codec.nativeimpl.HugePageMemory;

/**
 * Direct (off-heap) memory. Buffers of {@link #HUGE_PAGE_MIN_BYTES} or more (batch slots) come from
 * {@link HugePageMemory}, mappings advised for transparent huge pages, when libbetoncodec is loaded, huge pages
 * are asked for (the default; {@code -Dbeton.hugePages=false} turns them off) and memory is freed eagerly: their
 * first writes then fault one 2 MiB page at a time instead of 4 KiB (building a loader with five 77 MB slots took
 * 1.0 s on the development VM with 4 KiB pages; BENCHMARKS.md). The others come from
 * {@link ByteBuffer#allocateDirect}, count against {@code -XX:MaxDirectMemorySize} and are freed through
 * {@link BufferCleaner}; where that is unavailable they are left to the garbage collector. Both kinds are freed at
 * once on release.
 */
public final class DirectBufferAllocator extends AbstractAllocator {
  /** System property: {@code false} keeps every buffer on {@link ByteBuffer#allocateDirect}. */
  public static final String HUGE_PAGES_PROPERTY = "beton.hugePages";
  /**
   * The smallest buffer put in a huge-page mapping: a mapping is whole 2 MiB pages, so a smaller buffer would waste
   * up to half of it, and its faults cost little.
   */
  public static final int HUGE_PAGE_MIN_BYTES = 8 << 20;

  private final boolean eager;
  private final boolean hugePages;

  public DirectBufferAllocator(String name) {
    this(name, Long.MAX_VALUE);
  }

  /** An allocator that refuses to hold more than {@code limit} bytes at once. */
  public DirectBufferAllocator(String name, long limit) {
    this(name, limit, true);
  }

  /**
   * As above; with {@code freeEagerly = false} released memory is left to the garbage collector, so a
   * stale {@code ByteBuffer} still held somewhere reads old bytes instead of freed memory (debug
   * mode, which therefore uses no huge-page mappings). Accounting is the same either way.
   */
  public DirectBufferAllocator(String name, long limit, boolean freeEagerly) {
    this(name, limit, freeEagerly, hugePagesAskedFor());
  }

  /**
   * As above, with huge-page mappings for large buffers on or off whatever {@code -Dbeton.hugePages} says (they
   * still need libbetoncodec and {@code freeEagerly}).
   */
  public DirectBufferAllocator(String name, long limit, boolean freeEagerly, boolean hugePages) {
    super(name, limit);
    this.eager = freeEagerly;
    this.hugePages = hugePages && freeEagerly && HugePageMemory.isAvailable();
  }

  /** Whether {@code -Dbeton.hugePages} leaves huge-page mappings on (it does unless set to {@code false}). */
  public static boolean hugePagesAskedFor() {
    return !"false".equalsIgnoreCase(System.getProperty(HUGE_PAGES_PROPERTY, "true"));
  }

  /** Whether this allocator puts buffers of {@link #HUGE_PAGE_MIN_BYTES} or more in huge-page mappings. */
  public boolean usesHugePages() {
    return hugePages;
  }

  /** Whether released memory is returned to the OS at once (otherwise at the next GC). */
  public static boolean freesEagerly() {
    return BufferCleaner.available();
  }

  @Override
  ByteBuffer obtain(int bytes) {
    return hugePages && bytes >= HUGE_PAGE_MIN_BYTES ? HugePageMemory.allocate(bytes)
        : ByteBuffer.allocateDirect(bytes);
  }

  @Override
  void free(ByteBuffer memory) {
    if (hugePages && HugePageMemory.owns(memory)) {
      HugePageMemory.free(memory);
    } else if (eager) {
      BufferCleaner.free(memory);
    }
  }
}
