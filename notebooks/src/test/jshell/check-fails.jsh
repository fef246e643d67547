// A check that does not hold is printed, counted, and makes the status 1.
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;
check(2 + 2 == 5, "two and two make five");
/exit Notebook.exitCode(1)
