package org.sparkbeton.loader;

/**
 * Closing what a failed step had opened without losing why it failed: a close that fails too is added to the
 * original error as suppressed, instead of replacing it (a leak report from an allocator closed after a failed
 * {@code build()} would otherwise hide the reason the build failed).
 */
final class AfterFailure {
  private AfterFailure() {}

  /** Closes {@code resource} (nothing when null) after {@code failure}; a failure to close is added to it. */
  static void close(Throwable failure, AutoCloseable resource) {
    if (resource == null) {
      return;
    }
    try {
      resource.close();
    } catch (Exception | Error e) {
      failure.addSuppressed(e);
    }
  }
}
