package org.sparkbeton.cli;

/** A user mistake the command detected itself: printed as one line, exit code 2. */
class CliException extends RuntimeException {
  CliException(String message) {
    super(message);
  }
}
