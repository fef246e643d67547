package org.sparkbeton.loader.memory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Frees a direct or mapped buffer at once through {@code sun.misc.Unsafe.invokeCleaner} (module
 * {@code jdk.unsupported}, no {@code --add-opens} needed), as Lucene and Netty do; where that is
 * unavailable the buffer is left to the garbage collector. The caller guarantees that nothing reads the
 * buffer afterwards: a read of freed memory can crash the JVM.
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

  /** Whether {@link #clean} frees at once (otherwise at the next GC). */
  public static boolean available() {
    return INVOKE_CLEANER != null;
  }

  /** Frees {@code buffer} (direct, not a slice or duplicate) now when possible. */
  public static void clean(ByteBuffer buffer) {
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
