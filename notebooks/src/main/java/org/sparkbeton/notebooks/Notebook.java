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
 * What every notebook script shares: checks that make a failed walkthrough exit non-zero, the folder
 * it may write to, and small printing aids (SHA-256, a text thumbnail of an image).
 *
 * <p>Why checks are needed: JShell reports a snippet that does not compile or throws, then goes on with
 * the next snippet, and its exit status is only what {@code /exit} says. So a script checks each step's
 * result with {@link #check} and ends with {@code /exit Notebook.exitCode(n)}, n being the number of
 * checks it makes: a step that failed skips its check (it does not compile, or it throws before the
 * check returns), so fewer than n passed and the status is 1. If the JVM running the snippets dies,
 * JShell abandons the script and reads commands from its standard input: {@code bin/beton-notebook} and
 * the test feed it {@code /exit 1} there, so that case fails too.
 */
public final class Notebook {
  /** System property: the folder the notebooks write to (relative to the repository root). */
  public static final String WORK_PROPERTY = "notebook.work";
  /** System property: the repository root ({@code bin/beton-notebook} sets it; default the working directory). */
  public static final String ROOT_PROPERTY = "notebook.root";
  static final String DEFAULT_WORK = "notebooks/target/work";
  /** Printed (and thrown) when a check fails; the test looks for it. */
  public static final String FAILED = "CHECK FAILED: ";

  private static int passed;
  private static int failed;

  private Notebook() {}

  /** Thrown by a failed {@link #check}. */
  public static final class CheckFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CheckFailed(String message) {
      super(message);
    }
  }

  /** Prints {@code [ok] what}, or counts a failure and throws. */
  public static void check(boolean ok, String what) {
    if (ok) {
      passed++;
      System.out.println("  [ok] " + what);
      return;
    }
    failed++;
    System.out.println(FAILED + what);
    throw new CheckFailed(FAILED + what);
  }

  /**
   * The status for the script's last line, {@code /exit Notebook.exitCode(n)}: 0 when exactly the
   * {@code expectedChecks} checks the script makes ran and passed, else 1 with what went wrong.
   */
  public static int exitCode(int expectedChecks) {
    if (failed == 0 && passed == expectedChecks) {
      System.out.printf("notebook done: %d checks passed%n", passed);
      return 0;
    }
    if (failed > 0) {
      System.out.printf("notebook FAILED: %d check(s) failed, %d passed%n", failed, passed);
    } else if (passed < expectedChecks) {
      System.out.printf("notebook FAILED: only %d of %d checks ran; a step above did not compile or threw before"
          + " its check (see the Error or Exception above)%n", passed, expectedChecks);
    } else {
      System.out.printf("notebook FAILED: %d checks passed but the script says it makes %d; update its /exit line%n",
          passed, expectedChecks);
    }
    return 1;
  }

  /** A file of the repository, {@code relative} to its root ({@code -Dnotebook.root}, default the working directory). */
  public static Path repoPath(String relative) {
    return Path.of(System.getProperty(ROOT_PROPERTY, "")).resolve(relative).toAbsolutePath().normalize();
  }

  /**
   * The folder the notebooks share ({@code -Dnotebook.work}, default {@value #DEFAULT_WORK} of the repository),
   * created if missing.
   */
  public static Path workDir() {
    Path dir = repoPath(System.getProperty(WORK_PROPERTY, DEFAULT_WORK));
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the notebook folder " + dir, e);
    }
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

  /**
   * A text thumbnail of packed RGB pixels ({@code height x width x 3}), {@code columns} characters wide,
   * darker pixels as denser characters, contrast stretched to the image's own range.
   */
  public static String ascii(byte[] rgb, int width, int height, int columns) {
    if (rgb.length < 3L * width * height || columns < 1) {
      throw new IllegalArgumentException("Need " + width + "x" + height + "x3 bytes and columns >= 1, got "
          + rgb.length + " bytes and " + columns + " columns");
    }
    String ramp = "@%#*+=-:. ";
    int rows = Math.max(1, height * columns / width / 2); // a character is about twice as tall as wide
    double[] luma = new double[rows * columns];
    double lo = 255;
    double hi = 0;
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        int p = 3 * ((r * height / rows) * width + c * width / columns);
        double y = 0.299 * (rgb[p] & 0xff) + 0.587 * (rgb[p + 1] & 0xff) + 0.114 * (rgb[p + 2] & 0xff);
        luma[r * columns + c] = y;
        lo = Math.min(lo, y);
        hi = Math.max(hi, y);
      }
    }
    StringBuilder out = new StringBuilder();
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        double t = hi > lo ? (luma[r * columns + c] - lo) / (hi - lo) : 1;
        out.append(ramp.charAt((int) Math.min(ramp.length() - 1, t * ramp.length())));
      }
      out.append('\n');
    }
    return out.toString();
  }
}
