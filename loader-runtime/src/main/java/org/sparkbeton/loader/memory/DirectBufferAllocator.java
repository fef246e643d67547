package org.sparkbeton.loader.memory;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Direct (off-heap) memory from {@link ByteBuffer#allocateDirect}, freed at once on release through
 * {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}, no {@code --add-opens}
 * needed), as Lucene and Netty do; where that is unavailable the memory is left to the garbage
 * collector. Counts against {@code -XX:MaxDirectMemorySize}.
 */
public final class DirectBufferAllocator extends AbstractAllocator {
  private static final Cleaner CLEANER = Cleaner.find();
  private final boolean eager;

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
   * mode). Accounting is the same either way.
   */
  public DirectBufferAllocator(String name, long limit, boolean freeEagerly) {
    super(name, limit);
    this.eager = freeEagerly;
  }

  /** Whether released memory is returned to the OS at once (otherwise at the next GC). */
  public static boolean freesEagerly() {
    return CLEANER.method != null;
  }

  @Override
  ByteBuffer obtain(int bytes) {
    return ByteBuffer.allocateDirect(bytes);
  }

  @Override
  void free(ByteBuffer memory) {
    if (eager) {
      CLEANER.clean(memory);
    }
  }

  private static final class Cleaner {
    final Object unsafe;
    final Method method;

    Cleaner(Object unsafe, Method method) {
      this.unsafe = unsafe;
      this.method = method;
    }

    static Cleaner find() {
      try {
        Class<?> c = Class.forName("sun.misc.Unsafe");
        Field f = c.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return new Cleaner(f.get(null), c.getMethod("invokeCleaner", ByteBuffer.class));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return new Cleaner(null, null);
      }
    }

    void clean(ByteBuffer memory) {
      if (method == null) {
        return;
      }
      try {
        method.invoke(unsafe, memory);
      } catch (ReflectiveOperationException e) {
        // leave it to the GC
      }
    }
  }
}
