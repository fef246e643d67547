package org.sparkbeton.loader.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.sparkbeton.format.io.BetonSource;

/**
 * Payloads through any {@link BetonSource}: one read per payload, with no page cache in between (for sources
 * that are not local files, see {@link SourceOpener}). Each read allocates what the source returns, so this is
 * not allocation-free like the mapped store. Owns the source: {@link #close()} closes it.
 */
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
      ByteBuffer bytes = source.read(position, length);
      if (!bytes.isDirect() && !bytes.hasArray()) {
        // a read-only heap copy (ChannelSource): the JPEG codec needs a direct buffer or an array
        bytes = ByteBuffer.allocate(length).put(0, bytes, bytes.position(), length);
        view.set(bytes, 0);
      } else {
        view.set(bytes, bytes.position());
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      source.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
