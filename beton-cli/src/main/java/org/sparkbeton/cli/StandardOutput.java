package org.sparkbeton.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;

/**
 * The command line's standard output, keeping the first write error. {@code System.out} swallows them, so a dump
 * onto a full disk exited 0 with its output cut short; now the error is the command's, except where the reader
 * went away ({@code beton dump ... | head}), which is how a pipe ends and no failure.
 */
final class StandardOutput extends FilterOutputStream {
  /** The message Linux and macOS give a write to a pipe whose reader has gone (EPIPE). */
  private static final String BROKEN_PIPE = "Broken pipe";
  private volatile IOException failure;

  StandardOutput() {
    super(new FileOutputStream(FileDescriptor.out));
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw failed(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private IOException failed(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  /** Why the output could not be written, or null where it was, or where only the pipe's reader went away. */
  String writeFailure() {
    IOException f = failure;
    if (f == null || BROKEN_PIPE.equals(f.getMessage())) {
      return null;
    }
    return f.getMessage() == null ? f.getClass().getSimpleName() : f.getMessage();
  }
}
