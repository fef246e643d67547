// A step that throws before its check returns: the check is never counted.
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;
String name = null;
check(name.length() == 4, "the name has four letters");
/exit Notebook.exitCode(1)
