package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.tools.Merge;
import org.sparkbeton.format.write.WriteResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "merge", mixinStandardHelpOptions = true,
    description = {"Concatenate files with identical fields into one.",
        "Concatenates .beton files with identical fields and page size into OUT, in the order given:"
        + " data pages are copied verbatim and every pointer is rebased. Nothing is decoded."})
final class MergeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "OUT", description = "The .beton file to write.")
  Path out;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "IN", description = "Input .beton files.")
  List<Path> inputs;

  @Option(names = {"-f", "--force"}, description = "Replace OUT if it exists.")
  boolean force;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    for (Path in : inputs) {
      Inputs.requireReadableFile(in);
    }
    Outputs.checkWritable(out, force, inputs);
    List<BetonReader> readers = new ArrayList<>();
    try {
      for (Path in : inputs) {
        readers.add(Inputs.open(in));
      }
      WriteResult r = Outputs.writeAtomically(out, tmp -> Merge.run(readers, tmp));
      spec.commandLine().getOut().printf("%s: %d samples from %d files, %s of %s, %d allocations, %d bytes%n",
          out, r.numSamples(), readers.size(), Words.plural(r.numPages(), "page"), SizeArgs.human(r.pageSize()), r.allocationCount(),
          Files.size(out));
      spec.commandLine().getOut().flush();
    } finally {
      closeAll(readers);
    }
    return BetonCli.OK;
  }

  private static void closeAll(List<BetonReader> readers) throws IOException {
    IOException first = null;
    for (BetonReader r : readers) {
      try {
        r.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
