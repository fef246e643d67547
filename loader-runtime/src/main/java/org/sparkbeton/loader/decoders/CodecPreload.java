package org.sparkbeton.loader.decoders;

import java.util.concurrent.atomic.AtomicBoolean;
import org.sparkbeton.codec.jpeg.JpegCodecs;

/**
 * Loads libbetoncodec on a daemon thread, once per JVM, so that a loader's builder reads its dataset's manifest
 * while the library loads beside it (a copy out of the jar and a {@code dlopen}: ~35 ms on the main thread of a
 * 1.1 s open otherwise). Whoever needs the library first waits for that load to finish (a class initialises
 * once, under its lock) instead of loading it again; a library that does not load is reported by beton-codec,
 * from whichever thread loads it, as before.
 */
public final class CodecPreload {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private CodecPreload() {}

  /** Starts the load unless it was started before; returns at once. */
  public static void start() {
    if (STARTED.compareAndSet(false, true)) {
      Thread t = new Thread(JpegCodecs::nativeAvailable, "beton-codec preload");
      t.setDaemon(true);
      t.start();
    }
  }
}
