package org.sparkbeton.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.sparkbeton.format.options.OptionNames;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The one-line message for arguments no command or option took: each unknown option, or an unknown command, named
 * with the nearest valid one where one is close ({@link OptionNames#nearest}, the rule the Spark options use).
 * Picocli's own message lists the option's value beside it as unmatched too, which this one leaves out.
 */
final class UnmatchedArguments {
  private UnmatchedArguments() {}

  static String message(CommandLine.UnmatchedArgumentException e) {
    CommandSpec spec = e.getCommandLine().getCommandSpec();
    List<String> options = new ArrayList<>();
    for (String arg : e.getUnmatched()) {
      if (arg.startsWith("-") && arg.length() > 1) {
        int eq = arg.indexOf('=');
        options.add(eq > 0 ? arg.substring(0, eq) : arg);
      }
    }
    if (!options.isEmpty()) {
      List<String> valid = spec.optionsMap().keySet().stream().filter(n -> n.startsWith("--")).sorted().toList();
      if (options.size() == 1) {
        return "Unknown option '" + options.get(0) + "'" + nearest(options.get(0), valid, "; did you mean '%s'?");
      }
      return "Unknown options: " + options.stream()
          .map(o -> "'" + o + "'" + nearest(o, valid, " (did you mean '%s'?)")).collect(Collectors.joining(", "));
    }
    List<String> commands = List.copyOf(spec.subcommands().keySet());
    if (spec.parent() == null && !commands.isEmpty() && !e.getUnmatched().isEmpty()) {
      String command = e.getUnmatched().get(0);
      String near = nearest(command, commands, "; did you mean '%s'?");
      return "Unknown command '" + command + "'"
          + (near.isEmpty() ? ". Commands: " + String.join(", ", commands) : near);
    }
    return e.getMessage();
  }

  /** {@code format} with the candidate nearest {@code name}, or "" when none is close. */
  private static String nearest(String name, List<String> candidates, String format) {
    return OptionNames.nearest(name, candidates).map(n -> String.format(format, n)).orElse("");
  }
}
