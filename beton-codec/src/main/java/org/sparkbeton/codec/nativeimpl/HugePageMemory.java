package org.sparkbeton.codec.nativeimpl;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Large off-heap buffers in 2 MiB-aligned anonymous mappings advised for transparent huge pages, from libbetoncodec
 * ({@code huge_pages.c}). Each fresh 4 KiB page of a {@link ByteBuffer#allocateDirect} buffer costs a page fault on
 * its first write: a 77 MB batch slot is 19,000 of them, where huge pages make it 37. On the development VM a
 * 4 KiB fault costs about 10 µs (2.7 ms per MB), so building a loader with five such slots took a second
 * (BENCHMARKS.md, "Training loader, batch slots in huge pages"). Where the kernel's transparent huge pages are off
 * the mappings hold ordinary pages and work the same.
 *
 * <p>The memory is zero-filled and not counted against {@code -XX:MaxDirectMemorySize}; the caller owns each
 * buffer and must {@link #free} it (the garbage collector never does). Only buffers this class handed out are
 * freed: anything else (a slice, a duplicate, another direct buffer, one freed already) is refused with an
 * {@link IllegalArgumentException} before native code sees it. Without the native library, {@link #isAvailable}
 * is false and {@link #allocate} throws: callers check first and use {@code allocateDirect} instead, and the
 * library's absence is reported once by {@link NativeLibrary}.
 */
public final class HugePageMemory {
  /** The size of a huge page on x86-64 and of the mappings' alignment. */
  public static final int HUGE_PAGE_BYTES = 2 << 20;

  private static final Set<ByteBuffer> LIVE =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  private HugePageMemory() {}

  /** Whether {@link #allocate} works here (libbetoncodec is loaded). */
  public static boolean isAvailable() {
    return NativeLibrary.isAvailable();
  }

  /**
   * A zero-filled direct buffer of {@code bytes} bytes starting at a 2 MiB boundary (its mapping is rounded up to
   * whole huge pages).
   *
   * @throws IllegalArgumentException if {@code bytes} is not in 1 .. {@link Integer#MAX_VALUE}
   * @throws IllegalStateException if the native library is not loaded
   * @throws OutOfMemoryError if the system has no address space or memory for the mapping
   */
  public static ByteBuffer allocate(long bytes) {
    if (bytes < 1 || bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("A huge-page buffer holds 1 to " + Integer.MAX_VALUE + " bytes, not " + bytes);
    }
    if (!isAvailable()) {
      throw new IllegalStateException("Huge-page buffers need libbetoncodec, which is not loaded: "
          + NativeLibrary.unavailableReason());
    }
    ByteBuffer buffer = allocate0(bytes);
    if (buffer == null) {
      throw new OutOfMemoryError("Cannot map " + bytes + " bytes of off-heap memory (mmap failed)");
    }
    LIVE.add(buffer);
    return buffer;
  }

  /** Whether {@code buffer} is one that {@link #allocate} returned and that has not been freed. */
  public static boolean owns(ByteBuffer buffer) {
    return LIVE.contains(buffer);
  }

  /**
   * Unmaps a buffer {@link #allocate} returned. Nothing may touch it, or any view of it, afterwards.
   *
   * @throws IllegalArgumentException if {@code buffer} did not come from {@link #allocate} or was freed already
   */
  public static void free(ByteBuffer buffer) {
    if (!LIVE.remove(buffer)) {
      throw new IllegalArgumentException("Not a live huge-page buffer (freed already, or a view or another kind of"
          + " buffer): " + buffer);
    }
    int rc = free0(buffer);
    if (rc != 0) {
      throw new IllegalStateException("munmap refused a huge-page buffer (code " + rc + "): " + buffer);
    }
  }

  /** Huge-page buffers allocated and not yet freed. */
  public static int outstanding() {
    return LIVE.size();
  }

  private static native ByteBuffer allocate0(long bytes);

  private static native int free0(ByteBuffer buffer);
}
