// A snippet that does not compile: JShell reports it and goes on, but its check never runs.
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;
check(true, "first step");
int answer = noSuchMethod();
check(answer == 42, "second step");
/exit Notebook.exitCode(2)
