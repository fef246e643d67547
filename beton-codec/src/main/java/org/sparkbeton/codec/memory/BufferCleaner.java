package org.sparkbeton.codec.memory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Frees a direct or memory-mapped buffer at once through {@code sun.misc.Unsafe.invokeCleaner} (module
 * {@code jdk.unsupported}, no {@code --add-opens} needed), as Lucene and Netty do: direct memory goes back to the
 * OS, a mapping is unmapped. Where that is unavailable the buffer is left to the garbage collector. The caller
 * must be sure nothing touches the buffer, or any view of it, afterwards: that would read freed memory.
 */
public final class BufferCleaner {
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method method = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe = f.get(null);
      method = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // left to the GC
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = method;
  }

  private BufferCleaner() {}

  /** Whether {@link #free} frees at once (otherwise the GC does, later). */
  public static boolean available() {
    return INVOKE_CLEANER != null;
  }

  /** Frees {@code buffer}, which must be the direct or mapped buffer itself, not a slice or duplicate. */
  public static void free(ByteBuffer buffer) {
    if (INVOKE_CLEANER == null) {
      return;
    }
    try {
      INVOKE_CLEANER.invoke(UNSAFE, buffer);
    } catch (ReflectiveOperationException e) {
      // leave it to the GC
    }
  }
}
