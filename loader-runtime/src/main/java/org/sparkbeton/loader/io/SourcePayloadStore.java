package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.sparkbeton.format.io.BetonSource;

/** Payloads through any {@link BetonSource} (one read per payload; for sources that are not local files). */
public final class SourcePayloadStore implements PayloadStore {
  private final BetonSource source;

  public SourcePayloadStore(BetonSource source) {
    this.source = source;
  }

  @Override
  public void copy(long position, int length, ByteBuffer dst, int dstOffset) {
    try {
      dst.put(dstOffset, source.read(position, length), 0, length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean view(long position, int length, PayloadView view) {
    try {
      view.set(source.read(position, length), 0);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
