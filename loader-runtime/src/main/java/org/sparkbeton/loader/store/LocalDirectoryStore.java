package org.sparkbeton.loader.store;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.sparkbeton.format.dataset.DatasetManifest;
import org.sparkbeton.format.io.LocalPaths;

/**
 * A dataset directory on local disk read as a store: its shards are staged into the cache like remote
 * ones. {@code Loader.builder(Path)} reads local datasets in place instead; this store exists to test and
 * measure the staging path without a remote file system.
 */
public final class LocalDirectoryStore implements DatasetStore {
  private final Path dir;

  public LocalDirectoryStore(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  /** Opens {@code file:} URIs as local directory stores: {@code Loader.builder(dir.toUri(), provider())}. */
  public static DatasetStoreProvider provider() {
    return new DatasetStoreProvider() {
      @Override
      public boolean supports(URI uri) {
        return "file".equals(uri.getScheme());
      }

      @Override
      public DatasetStore open(URI uri) {
        if (!supports(uri)) {
          throw new IllegalArgumentException("LocalDirectoryStore opens file: URIs, got " + uri);
        }
        return new LocalDirectoryStore(LocalPaths.of(uri));
      }
    };
  }

  @Override
  public URI uri() {
    return dir.toUri();
  }

  @Override
  public byte[] readManifest() throws IOException {
    try {
      return Files.readAllBytes(dir.resolve(DatasetManifest.FILE_NAME));
    } catch (NoSuchFileException e) {
      throw new IOException(dir + " has no " + DatasetManifest.FILE_NAME + ": not a dataset directory", e);
    }
  }

  @Override
  public void readFully(String shard, long position, byte[] dst) throws IOException {
    try (FileChannel ch = FileChannel.open(file(shard), StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.wrap(dst);
      while (b.hasRemaining()) {
        if (ch.read(b, position + b.position()) < 0) {
          throw new EOFException(shard + " of " + dir + " ends before byte " + (position + dst.length));
        }
      }
    }
  }

  @Override
  public InputStream open(String shard, long offset) throws IOException {
    FileChannel ch = FileChannel.open(file(shard), StandardOpenOption.READ);
    ch.position(offset);
    return Channels.newInputStream(ch);
  }

  private Path file(String shard) {
    Path f = dir.resolve(shard).normalize();
    if (!f.startsWith(dir)) {
      throw new IllegalArgumentException("Shard path " + shard + " points outside " + dir);
    }
    return f;
  }
}
