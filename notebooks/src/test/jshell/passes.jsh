// The control: every check runs and passes.
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;
check(1 + 1 == 2, "one and one make two");
/exit Notebook.exitCode(1)
