package org.sparkbeton.spark.prepare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * Starts the job's Spark session; a failure to start is an {@link IllegalArgumentException} of one line naming the
 * master and why (a master is an argument: a bad one is a usage error). Spark fails a master URL it cannot parse at
 * once, but retries a standalone master ({@code spark://}) that does not answer for a minute, logging each attempt,
 * and then stops the session under the job: so such a master is tried first, and one nobody answers at is refused
 * before Spark starts.
 */
final class SessionStart {
  /** How long to wait for a standalone master's port to accept a connection. */
  static final int CONNECT_TIMEOUT_MILLIS = 5000;

  private SessionStart() {}

  /** {@code builder}'s session on {@code master}, which {@code what} names in the command line's terms. */
  static SparkSession start(SparkSession.Builder builder, String master, String what) {
    refuseUnansweredStandaloneMaster(master, what);
    try {
      return builder.getOrCreate();
    } catch (Exception e) { // Spark's own SparkException is checked, and thrown undeclared
      throw new IllegalArgumentException("Spark could not start on " + what + ": " + PrepareJob.rootMessage(e), e);
    }
  }

  /** Refuses {@code spark://host:port[,host:port...]} where no listed master accepts a connection. */
  static void refuseUnansweredStandaloneMaster(String master, String what) {
    if (master == null || !master.startsWith("spark://")) {
      return;
    }
    List<String> failures = new ArrayList<>();
    for (String hostPort : master.substring("spark://".length()).split(",")) {
      int colon = hostPort.lastIndexOf(':');
      if (colon < 0) {
        return; // Spark's parser says what is wrong
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))),
            CONNECT_TIMEOUT_MILLIS);
        return;
      } catch (NumberFormatException e) {
        return; // Spark's parser says what is wrong
      } catch (IOException | IllegalArgumentException e) {
        failures.add(hostPort + " (" + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
      }
    }
    throw new IllegalArgumentException("Spark could not start on " + what + ": no master answers at "
        + String.join(", ", failures));
  }
}
