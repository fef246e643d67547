package org.sparkbeton.notebooks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What every notebook shares: checks that fail the cell they are in, the folder the notebooks write to, and
 * SHA-256 for showing that bytes are equal.
 *
 * <p>A cell that throws is a cell error: Jupyter shows it under the cell, and {@code jupyter nbconvert --execute}
 * stops there and exits non-zero, which fails {@code bin/beton-notebook --execute} and {@code NotebooksTest}.
 * So a notebook ends each step with {@link #check} of a real value.
 */
public final class Notebook {
  /** System property: the folder the notebooks write to; the kernelspec sets it. */
  public static final String WORK_PROPERTY = "notebook.work";
  /** Without the property: relative to the kernel's working directory, the notebook's folder. */
  static final String DEFAULT_WORK = "target/work";
  /** The start of a failed check's message. */
  public static final String FAILED = "CHECK FAILED: ";

  private Notebook() {}

  /** Thrown by a failed {@link #check}. */
  public static final class CheckFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CheckFailed(String message) {
      super(message);
    }
  }

  /** Prints {@code [ok] what}, or throws {@link CheckFailed}, which fails the cell. */
  public static void check(boolean ok, String what) {
    if (!ok) {
      throw new CheckFailed(FAILED + what);
    }
    System.out.println("  [ok] " + what);
  }

  /** The folder the notebooks share ({@code -Dnotebook.work}, default {@value #DEFAULT_WORK}), created if missing. */
  public static Path workDir() {
    Path dir = Path.of(System.getProperty(WORK_PROPERTY, DEFAULT_WORK)).toAbsolutePath().normalize();
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the notebook folder " + dir, e);
    }
  }

  /**
   * {@code path} relative to the kernel's working directory, the notebooks' folder: what a notebook prints or hands
   * to a tool that prints it, so that committed outputs read {@code target/work/...} instead of the folders of the
   * machine that ran them (CommittedNotebooksTest fails on those).
   */
  public static Path relative(Path path) {
    return Path.of("").toAbsolutePath().relativize(path.toAbsolutePath()).normalize();
  }

  /** SHA-256 of the remaining bytes of {@code bytes} (its position is not moved), as hex. */
  public static String sha256(ByteBuffer bytes) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(bytes.duplicate());
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  public static String sha256(byte[] bytes) {
    return sha256(ByteBuffer.wrap(bytes));
  }
}
