package org.sparkbeton.format.verify;

import java.util.List;

/**
 * What {@link BetonVerifier} found. {@code problems} holds at most {@link BetonVerifier#MAX_LISTED}
 * messages; {@code problemCount} counts them all.
 */
public record VerifyReport(String file, long samples, long allocations, long pages, long problemCount,
    List<String> problems) {

  public boolean ok() {
    return problemCount == 0;
  }
}
