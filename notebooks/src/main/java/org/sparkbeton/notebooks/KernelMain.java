package org.sparkbeton.notebooks;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The kernel process the kernelspec starts: rapaio-jupyter-kernel 2.3.0's {@code MainApp}, less two start-up
 * races and its INFO logging. (The kernel is pinned to 2.3.0: 3.0.1 does not answer Debian 12's jupyter_client.)
 *
 * <p>Both races lose the client's first requests for good, and nbconvert then fails with "Kernel didn't respond
 * in 60 seconds"; both need a slow start (Spark's 160 jars) on a busy machine, where they happened in one start
 * out of three:
 * <ul>
 *   <li>{@code Channels.connect} binds the shell socket and starts its thread before it creates the map of
 *       message handlers. A {@code kernel_info_request} that jupyter_client queued before the bind (it sends one
 *       every second from the moment it starts the kernel) is read at once, the null map is dereferenced and the
 *       shell thread dies. Here the map exists before {@code connect}: an early request finds no handler and is
 *       dropped, and the client's next one is answered.
 *   <li>{@code LoopThread.start()} starts the thread, then sets the {@code running} flag its loop tests first: a
 *       thread that runs before the flag is set ends at once, and its channel (shell, control or heartbeat) never
 *       reads a message. Here each channel's loop thread is replaced, once {@code connect} has returned, by one
 *       whose flag is set before it starts (the old one is stopped first, after the message it may be handling).
 * </ul>
 * Otherwise this is {@code MainApp.runKernel}: read the connection file, connect, wait for shutdown.
 * {@code MainApp}'s static initializer builds the kernel: its JShell, which compiles cells against
 * {@code java.class.path}, where the kernelspec puts the notebooks' class path.
 */
public final class KernelMain {
  /** System property: the kernel's java.util.logging level (INFO shows every message it handles); default WARNING. */
  public static final String LOG_LEVEL_PROPERTY = "notebooks.kernelLogLevel";
  private static final String KERNEL = "org.rapaio.jupyter.kernel.";
  private static final String EARLY_REQUEST = "Unhandled message: kernel_info_request";
  /** The fields of {@code Channels} whose channel reads its socket on a {@code LoopThread}. */
  private static final List<String> LOOPING_CHANNELS = List.of("shell", "control", "heartbeat");

  private KernelMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1 || !Files.isRegularFile(Path.of(args[0]))) {
      throw new IllegalArgumentException("usage: KernelMain CONNECTION_FILE (the kernelspec's {connection_file}), got "
          + String.join(" ", args));
    }
    quietLogging();
    requireSupportedKernel(KernelMain.class.getClassLoader());
    Object kernel = Class.forName(KERNEL + "MainApp").getField("kernel").get(null);
    Class<?> propsType = Class.forName(KERNEL + "core.ConnectionProperties");
    Object props = Class.forName(KERNEL + "core.Transform").getMethod("fromJson", String.class, Class.class)
        .invoke(null, Files.readString(Path.of(args[0])), propsType);
    Class<?> channelsType = Class.forName(KERNEL + "channels.Channels");
    Object channels = channelsType.getConstructor(propsType).newInstance(props);
    field(channelsType, "handlers").set(channels, new HashMap<>());
    channelsType.getMethod("connect", kernel.getClass()).invoke(channels, kernel);
    for (String name : LOOPING_CHANNELS) {
      restartLoop(field(channelsType, name).get(channels));
    }
    channelsType.getMethod("joinUntilClose").invoke(channels);
  }

  /** Replaces {@code channel}'s loop thread by one that cannot miss its {@code running} flag. */
  private static void restartLoop(Object channel) throws ReflectiveOperationException, InterruptedException {
    Field loopField = field(channel.getClass(), "loopThread");
    Thread old = (Thread) loopField.get(channel);
    Class<?> loopType = old.getClass();
    loopType.getMethod("shutdown").invoke(old);
    old.join();
    Constructor<?> create = loopType.getConstructor(String.class, long.class, Runnable.class);
    Thread fresh = (Thread) create.newInstance(old.getName(), field(loopType, "sleep").get(old),
        field(loopType, "loopBody").get(old));
    field(loopType, "running").set(fresh, true);
    loopField.set(channel, fresh);
    fresh.start();
  }

  /**
   * Fails, naming what is missing, unless the kernel classes {@code loader} sees have every member this class uses
   * (they are rapaio-jupyter-kernel 2.3.0's internals). Loads the classes without initializing them.
   */
  static void requireSupportedKernel(ClassLoader loader) {
    List<String> missing = new java.util.ArrayList<>();
    String[][] members = {
        {"MainApp", "kernel"}, {"core.ConnectionProperties", null}, {"core.Transform", null},
        {"channels.Channels", "handlers"}, {"channels.Channels", "shell"}, {"channels.Channels", "control"},
        {"channels.Channels", "heartbeat"}, {"channels.ShellChannel", "loopThread"},
        {"channels.ControlChannel", "loopThread"}, {"channels.HeartbeatChannel", "loopThread"},
        {"channels.LoopThread", "running"}, {"channels.LoopThread", "sleep"}, {"channels.LoopThread", "loopBody"}};
    for (String[] m : members) {
      try {
        Class<?> type = Class.forName(KERNEL + m[0], false, loader);
        if (m[1] != null) {
          type.getDeclaredField(m[1]);
        }
      } catch (ClassNotFoundException | NoSuchFieldException e) {
        missing.add(m[0] + (m[1] == null ? "" : "." + m[1]));
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException("The Jupyter kernel on the class path is not rapaio-jupyter-kernel 2.3.0, which"
          + " KernelMain starts: missing " + String.join(", ", missing));
    }
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    Field f = type.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  /**
   * The kernel logs every message it handles at INFO to standard error (the notebook runner's output): warnings
   * only (unless {@value #LOG_LEVEL_PROPERTY} says otherwise), less the one an early request gives
   * ("Unhandled message: kernel_info_request"), which the client's next request makes good.
   */
  private static void quietLogging() {
    Logger root = Logger.getLogger("");
    root.setLevel(Level.parse(System.getProperty(LOG_LEVEL_PROPERTY, "WARNING")));
    for (Handler h : root.getHandlers()) {
      h.setFilter(r -> r.getMessage() == null || !r.getMessage().endsWith(EARLY_REQUEST));
    }
  }
}
