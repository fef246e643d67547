package org.sparkbeton.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.tools.Rewrite;
import org.sparkbeton.format.write.WriteResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "rewrite", mixinStandardHelpOptions = true,
    description = {"Rewrite a file with our writer: compact pages, change the page size.",
        "Reads IN with our reader and writes OUT with our writer, payloads passed through unchanged"
        + " (nothing is re-encoded). Packs the half-empty pages of multi-worker files, drops bytes no allocation"
        + " references, and changes the page size.",
        "With --threads 1 and the same page size, a single-worker FFCV file is reproduced byte for byte"
        + " (including FFCV's orphans of samples moved to a new page, which our writer leaves the same way)."})
final class RewriteCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "IN", description = "The .beton file to read.")
  Path in;

  @Parameters(index = "1", paramLabel = "OUT", description = "The .beton file to write.")
  Path out;

  @Option(names = "--page-size", paramLabel = "S", converter = SizeArgs.PageSizeConverter.class,
      description = "Page size: bytes or 2M, 8MiB, 1G; a power of two from 2M to 1G (default: IN's page size).")
  Long pageSize;

  @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
      description = "Writer threads (default 1; more threads write pages in a different order).")
  int threads;

  @Option(names = {"-f", "--force"}, description = "Replace OUT if it exists.")
  boolean force;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (threads < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be >= 1, got " + threads);
    }
    Inputs.requireReadableFile(in);
    Outputs.checkWritable(out, force, List.of(in));
    try (BetonReader reader = Inputs.open(in)) {
      long size = pageSize == null ? reader.pageSize() : pageSize;
      WriteResult r;
      try {
        r = Outputs.writeAtomically(out, tmp -> Rewrite.run(reader, tmp, size, threads));
      } catch (OutOfMemoryError | IOException e) {
        if (!(e instanceof OutOfMemoryError) && !(e.getCause() instanceof OutOfMemoryError)) {
          throw e;
        }
        // each writer thread fills its own direct page buffer: threads x page size bytes off-heap
        throw new CliException("out of memory for " + threads + " page buffer" + (threads == 1 ? "" : "s") + " of "
            + SizeArgs.human(size) + " (" + (e instanceof OutOfMemoryError ? e : e.getCause()).getMessage()
            + "); lower --threads or --page-size, or give the JVM more memory, e.g. BETON_JAVA_OPTS=-Xmx8g");
      }
      spec.commandLine().getOut().printf("%s -> %s: %d samples, %s of %s, %d allocations, %d bytes (input %d bytes)%n",
          in, out, r.numSamples(), Words.plural(r.numPages(), "page"), SizeArgs.human(r.pageSize()), r.allocationCount(),
          Files.size(out), reader.source().length());
      spec.commandLine().getOut().flush();
    }
    return BetonCli.OK;
  }
}
