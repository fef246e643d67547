// The JVM running the snippets dies: JShell abandons the script and reads "/exit 1" from standard input.
import org.sparkbeton.notebooks.Notebook;
System.exit(0);
/exit Notebook.exitCode(0)
