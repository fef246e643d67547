package org.sparkbeton.spark.write;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class CausesTest {
  @Test
  void findsTheFirstCauseOfATypeOrPickedByATest() {
    IOException io = new IOException("cut short");
    IllegalStateException outer = new IllegalStateException("job failed", new UncheckedIOException(io));

    assertSame(io, Causes.first(outer, IOException.class));
    assertSame(outer, Causes.first(outer, RuntimeException.class));
    assertSame(io, Causes.first(outer, t -> t.getMessage().startsWith("cut")));
    assertNull(Causes.first(outer, IllegalArgumentException.class));
    assertNull(Causes.first(outer, t -> false));
  }

  @Test
  void stopsAtAThrowableThatIsItsOwnCause() {
    Throwable selfCaused = new Throwable("loop") {
      @Override
      public synchronized Throwable getCause() {
        return this;
      }
    };
    assertNull(Causes.first(selfCaused, IOException.class));
    assertSame(selfCaused, Causes.first(selfCaused, t -> true));
  }
}
