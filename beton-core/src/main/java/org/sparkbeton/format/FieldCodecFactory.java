package org.sparkbeton.format;

/** Rebuilds a codec from a descriptor's argument blob, like FFCV's {@code Field.from_binary}. */
@FunctionalInterface
public interface FieldCodecFactory {
  /**
   * @param arguments the descriptor's 1024 argument bytes
   * @throws IllegalArgumentException if the arguments are malformed (the reader turns it into a
   *     {@link BetonFormatException} naming the descriptor)
   */
  FieldCodec fromArguments(byte[] arguments);
}
