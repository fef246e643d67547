package org.sparkbeton.cli;

import java.io.BufferedWriter;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.codec.nativeimpl.NativeLibrary;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.SparkBetonVersion;
import org.sparkbeton.format.io.LocalPaths;
import org.sparkbeton.loader.LoaderFailedException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/**
 * The {@code beton} command line. Exit codes: 0 ok, 1 {@code verify} found problems, 2 usage error
 * or bad input (one line {@code beton: <message>} on stderr; {@code --debug} adds the stack trace).
 */
@Command(name = "beton",
    mixinStandardHelpOptions = true,
    versionProvider = BetonCli.Version.class,
    description = "Inspect, verify, dump, rewrite and merge FFCV .beton files; clean dataset directories; prepare"
        + " datasets with Spark; diagnose and benchmark the training loader on a dataset.",
    subcommands = {InspectCommand.class, VerifyCommand.class, DumpCommand.class, RewriteCommand.class,
        MergeCommand.class, GcCommand.class, PrepareCommand.class, CompactCommand.class, DoctorCommand.class,
        BenchCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:ok", "1:verify found problems", "2:usage error or unreadable/malformed input"})
public final class BetonCli implements Runnable {
  static final int OK = 0;
  static final int PROBLEMS = 1;
  static final int USAGE = 2;

  @Option(names = "--debug", scope = ScopeType.INHERIT,
      description = "Print stack traces of errors (for bug reports).")
  boolean debug;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (inspect, verify, dump, rewrite,"
        + " merge, gc, prepare, compact, doctor, bench)");
  }

  public static void main(String[] args) {
    // the commands that decode print the codec's fallback warning themselves (verify --decode, bench, prepare)
    System.setProperty(NativeLibrary.LOG_FALLBACK_PROPERTY, "false");
    StandardOutput stdout = new StandardOutput();
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), 1 << 16));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    CommandLine cli = commandLine();
    cli.setOut(out);
    cli.setErr(err);
    int code;
    try {
      code = cli.execute(args);
    } catch (OutOfMemoryError e) {
      out.flush();
      err.println("beton: out of memory (" + e.getMessage() + "); give the JVM more, e.g. BETON_JAVA_OPTS=-Xmx8g");
      code = USAGE;
    } catch (NoClassDefFoundError e) {
      // a jar on BETON_CLASSPATH without one it needs (hadoop-aws without the AWS SDK bundle or commons-lang3)
      out.flush();
      err.println("beton: class " + e.getMessage() + " is not on the classpath: a jar given with BETON_CLASSPATH needs"
          + " another (s3a:// needs hadoop-aws 3.3.4, aws-java-sdk-bundle 1.12.262 and commons-lang3 3.12.0)");
      code = USAGE;
    }
    out.flush();
    String failure = stdout.writeFailure();
    if (failure != null) {
      err.println("beton: cannot write the output: " + failure);
      code = USAGE;
    }
    err.flush();
    System.exit(code);
  }

  /** The configured command line: error handlers that print one line and exit 2. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new BetonCli());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.registerConverter(java.nio.file.Path.class, new LocalPathArgument());
    cli.setExecutionExceptionHandler(BetonCli::handleError);
    cli.setParameterExceptionHandler(BetonCli::handleUsageError);
    return cli;
  }

  private static int handleUsageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cmd = e.getCommandLine();
    PrintWriter err = cmd.getErr();
    String message = e instanceof CommandLine.UnmatchedArgumentException u ? UnmatchedArguments.message(u)
        : e.getMessage();
    err.println("beton: " + message);
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for usage.");
    if (hasDebug(args)) {
      e.printStackTrace(err);
    }
    err.flush();
    return USAGE;
  }

  private static int handleError(Exception e, CommandLine cmd, ParseResult parsed) {
    PrintWriter err = cmd.getErr();
    err.println("beton: " + userMessage(e) + HadoopFlags.namenodeHint(userMessage(e)));
    if (isDebug(parsed)) {
      e.printStackTrace(err);
    } else if (!isUserError(e)) {
      err.println("beton: this looks like a bug; run again with --debug for the stack trace");
    }
    err.flush();
    return USAGE;
  }

  /** Errors a user can cause and fix: bad paths, malformed files, incompatible inputs. */
  static boolean isUserError(Throwable e) {
    return e instanceof CliException || e instanceof BetonFormatException || e instanceof IOException
        || e instanceof UncheckedIOException || e instanceof IllegalArgumentException
        || e instanceof LoaderFailedException l && l.isDataError();
  }

  /** One line that says what was wrong, without exception class names where the message suffices. */
  static String userMessage(Throwable e) {
    if (e instanceof LoaderFailedException l && l.isDataError()) {
      // where the loader was, then what was wrong with the data, without the cause's class name
      Throwable cause = l.getCause();
      String why = isUserError(cause) ? userMessage(cause)
          : cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage().replace('\n', ' ');
      return l.where() + ": " + why;
    }
    if (e instanceof UncheckedIOException u && u.getCause() != null) {
      e = u.getCause();
    }
    if (e instanceof NoSuchFileException n) {
      return n.getFile() + ": no such file" + LocalPaths.nameCharsetHint();
    }
    if (e instanceof AccessDeniedException a) {
      return a.getFile() + ": permission denied";
    }
    if (e instanceof FileNotFoundException f) {
      return f.getMessage();
    }
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      return e.getClass().getSimpleName();
    }
    if (e instanceof IOException && !(e instanceof java.nio.file.FileSystemException)) {
      return "I/O error: " + message.replace('\n', ' ');
    }
    return isUserError(e) ? message.replace('\n', ' ') : e.getClass().getSimpleName() + ": " + message.replace('\n', ' ');
  }

  private static boolean isDebug(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasDebug(String[] args) {
    for (String a : args) {
      if ("--debug".equals(a)) {
        return true;
      }
    }
    return false;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      // the codec this machine gets: the native library for its platform, or why not
      String codec = JpegCodecs.description() + " ("
          + NativeLibrary.loadedFrom().orElseGet(NativeLibrary::unavailableReason) + ")";
      return new String[] {"beton " + SparkBetonVersion.version() + " (spark-beton; .beton format version 2)",
          "JPEG codec: " + codec};
    }
  }
}
