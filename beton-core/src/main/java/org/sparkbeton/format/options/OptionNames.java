package org.sparkbeton.format.options;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The option names one consumer accepts (the Spark writer, the Spark reader), compared case-insensitively, and
 * the check that refuses any other name with the nearest valid one ("did you mean 'imageColumns'?"), so a
 * misspelled option fails instead of being silently ignored.
 *
 * <p>Three kinds of names pass: the documented options; names the host itself puts in the map (Spark's
 * {@code path}, {@code paths}); and, when allowed, names containing a dot, which are configuration keys of the
 * host's file systems ({@code fs.s3a.endpoint}) copied into its Hadoop configuration. No documented option
 * contains a dot, so a misspelled one is still caught.
 */
public final class OptionNames {
  /** A given name this short is never matched as part of a longer valid one ("id" would match everything). */
  private static final int MIN_CONTAINED_LENGTH = 4;
  /** A shared start this long, covering at least half the given name, marks a likely intended option. */
  private static final int MIN_SHARED_PREFIX = 5;

  private final String consumer;
  private final List<String> documented;
  private final Set<String> known;
  private final boolean allowDotted;

  private OptionNames(String consumer, List<String> documented, Collection<String> hostOwned, boolean allowDotted) {
    this.consumer = consumer;
    this.documented = List.copyOf(documented);
    this.known = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    this.known.addAll(documented);
    this.known.addAll(hostOwned);
    this.allowDotted = allowDotted;
  }

  /**
   * @param consumer what takes the options, as messages name it: {@code format("beton") writes}
   * @param documented the documented options, in the order the message lists them
   * @param hostOwned names the host adds to the map itself; accepted, never suggested
   * @param allowDotted whether names containing a dot (file system configuration keys) pass
   */
  public static OptionNames of(String consumer, List<String> documented, Collection<String> hostOwned,
      boolean allowDotted) {
    if (documented.isEmpty()) {
      throw new IllegalArgumentException("OptionNames of " + consumer + " needs at least one documented option");
    }
    return new OptionNames(consumer, documented, hostOwned, allowDotted);
  }

  /** Whether {@code name} is accepted, in any case. */
  public boolean accepts(String name) {
    return known.contains(name) || (allowDotted && name.indexOf('.') >= 0);
  }

  /**
   * Throws {@link IllegalArgumentException} if any of {@code given} is not accepted, naming each such name with
   * the nearest documented option where one is close, and listing the documented options.
   */
  public void check(Collection<String> given) {
    Map<String, Optional<String>> unknown = new LinkedHashMap<>();
    for (String name : new TreeSet<>(given)) {
      if (!accepts(name)) {
        unknown.put(name, nearest(name, documented));
      }
    }
    if (unknown.isEmpty()) {
      return;
    }
    StringBuilder b = new StringBuilder();
    if (unknown.size() == 1) {
      Map.Entry<String, Optional<String>> e = unknown.entrySet().iterator().next();
      b.append("Unknown option '").append(e.getKey()).append("' for ").append(consumer);
      e.getValue().ifPresent(s -> b.append("; did you mean '").append(s).append("'?"));
      b.append(e.getValue().isPresent() ? " " : ". ");
    } else {
      b.append("Unknown options for ").append(consumer).append(": ").append(unknown.entrySet().stream()
          .map(e -> "'" + e.getKey() + "'" + e.getValue().map(s -> " (did you mean '" + s + "'?)").orElse(""))
          .collect(Collectors.joining(", "))).append(". ");
    }
    b.append("Valid options (any case): ").append(String.join(", ", documented));
    if (allowDotted) {
      b.append("; names with a dot pass as file system settings (e.g. fs.s3a.endpoint)");
    }
    throw new IllegalArgumentException(b.toString());
  }

  /**
   * The candidate {@code name} most likely misspells, compared case-insensitively: the one at the smallest edit
   * distance (insert, delete, replace, swap two neighbours), when that distance is at most a third of the name's
   * length (at least 2), when one contains the other ({@code quality} for {@code jpegQuality}), or when they start
   * alike for at least five letters and half the name ({@code imageMod} for {@code imageColumns}); ties go to the
   * earlier candidate. Empty when no candidate is that close.
   */
  public static Optional<String> nearest(String name, Collection<String> candidates) {
    String n = name.toLowerCase(Locale.ROOT);
    int limit = Math.max(2, n.length() / 3);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      String c = candidate.toLowerCase(Locale.ROOT);
      int d = distance(n, c);
      boolean contained = Math.min(n.length(), c.length()) >= MIN_CONTAINED_LENGTH && (c.contains(n) || n.contains(c));
      int shared = sharedPrefix(n, c);
      boolean sameStart = shared >= MIN_SHARED_PREFIX && 2 * shared >= n.length();
      if ((d <= limit || contained || sameStart) && d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  private static int sharedPrefix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps, each 1. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
