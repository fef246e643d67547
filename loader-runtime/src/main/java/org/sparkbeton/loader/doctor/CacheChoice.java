package org.sparkbeton.loader.doctor;

import org.sparkbeton.format.ByteSizes;
import org.sparkbeton.loader.LoaderBuilder;

/**
 * The loader's cache mode: the OS page cache through memory maps ({@link #OS}), or the loader's own PROCESS cache
 * of at most {@code processBytes}.
 */
public record CacheChoice(long processBytes) {
  public static final CacheChoice OS = new CacheChoice(-1);

  public CacheChoice {
    if (processBytes == 0 || processBytes < -1) {
      throw new IllegalArgumentException("A PROCESS cache needs a positive budget, got " + processBytes + " bytes");
    }
  }

  /** {@code os}, or {@code process:SIZE} with a size like {@code 4G} or {@code 512MiB}. */
  public static CacheChoice parse(String text) {
    if (text.equals("os")) {
      return OS;
    }
    if (text.startsWith("process:")) {
      long bytes;
      try {
        bytes = ByteSizes.parse(text.substring("process:".length()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Cache '" + text + "': " + e.getMessage(), e);
      }
      if (bytes <= 0) {
        throw new IllegalArgumentException("Cache '" + text + "': the budget must be positive");
      }
      return new CacheChoice(bytes);
    }
    throw new IllegalArgumentException("Cache '" + text + "': expected os or process:SIZE (e.g. process:4G)");
  }

  public static CacheChoice process(long bytes) {
    return new CacheChoice(bytes);
  }

  public boolean isProcess() {
    return processBytes > 0;
  }

  /** Applies the choice to a loader. */
  LoaderBuilder apply(LoaderBuilder b) {
    return isProcess() ? b.processCache(processBytes) : b;
  }

  /** {@code os} or {@code process:4 GiB}. */
  @Override
  public String toString() {
    return isProcess() ? "process:" + Units.bytes(processBytes) : "os";
  }
}
