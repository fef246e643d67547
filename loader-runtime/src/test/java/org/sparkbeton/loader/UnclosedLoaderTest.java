package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.memory.DirectBufferAllocator;
import org.sparkbeton.loader.order.OrderOption;

/**
 * A loader dropped without close() is released by its cleaner once the garbage collector finds it unreachable: the
 * workers stop, its buffers go back to the allocator, its file is unmapped, and one warning per loader names the
 * dataset and says to call close(). A closed loader is never warned about.
 */
class UnclosedLoaderTest {
  @TempDir
  static Path dir;
  static Path file;

  @BeforeAll
  static void write() throws IOException {
    file = Datasets.rawImages(dir, 101, 12, 10);
  }

  /** The warnings the loader logs (System.Logger, which goes to java.util.logging here). */
  static final class Warnings extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger(Loader.class.getName()); // held: JUL keeps loggers weakly
    private final List<String> messages = new ArrayList<>();

    Warnings() {
      logger.addHandler(this);
    }

    /** This class's loaders' warnings only: a loader another test class dropped may be cleaned while these run. */
    @Override
    public synchronized void publish(LogRecord r) {
      if (r.getLevel() == Level.WARNING && r.getMessage().startsWith("A loader over " + file + " ")) {
        messages.add(r.getMessage());
      }
    }

    synchronized List<String> messages() {
      return List.copyOf(messages);
    }

    @Override public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
    }
  }

  @Test
  void aDroppedLoaderIsReleasedWhenUnreachableWithOneWarningEach() throws Exception {
    try (Warnings warnings = new Warnings(); DirectBufferAllocator allocator = new DirectBufferAllocator("dropped")) {
      Set<Thread> before = Thread.getAllStackTraces().keySet();
      List<Loader> loaders = twoLoadersMidEpoch(allocator);
      Set<Thread> workers = workersStartedSince(before);
      assertThat(workers).hasSize(4).allMatch(Thread::isAlive); // waiting for a consumer that goes next
      assertThat(allocator.outstanding()).isPositive();
      assertThat(mapsOfTheFile()).isPositive();
      // held until here: a collection between the builds and the checks above (more likely late in a module's
      // suite, on a fuller heap) cleaned the first loader early and failed them
      java.lang.ref.Reference.reachabilityFence(loaders);
      loaders = null;

      awaitGc(() -> allocator.outstanding() == 0 && workers.stream().noneMatch(Thread::isAlive)
          && warnings.messages().size() >= 2);

      assertThat(workers).noneMatch(Thread::isAlive);
      assertThat(allocator.outstanding()).isZero();
      assertThat(allocator.allocatedBytes()).isZero();
      assertThat(mapsOfTheFile()).as("the file is unmapped").isZero();
      assertThat(warnings.messages()).hasSize(2).allSatisfy(m -> assertThat(m).isEqualTo("A loader over " + file
          + " was dropped without close(): its worker threads, off-heap buffers and files were only released when the"
          + " garbage collector found it unreachable. Call close() when done with a loader (try-with-resources), so"
          + " that they are released at once"));
    }
  }

  @Test
  void aBatchOrAHoldInTheConsumersHandsKeepsItsLoader() throws Exception {
    try (Warnings warnings = new Warnings(); DirectBufferAllocator allocator = new DirectBufferAllocator("held")) {
      Batch batch = builder(allocator).build().iterator().next(); // the loader itself is dropped at once
      long label = batch.data("label").getLong(0);
      Batch.Hold hold = batch.retain();
      batch = null;
      for (int i = 0; i < 10; i++) {
        System.gc();
        Thread.sleep(50);
      }
      assertThat(warnings.messages()).as("the hold keeps the loader, and so its slots").isEmpty();
      assertThat(allocator.outstanding()).isPositive();
      hold.close();
      hold = null;
      awaitGc(() -> warnings.messages().size() >= 1 && allocator.outstanding() == 0);
      assertThat(warnings.messages()).hasSize(1);
      assertThat(allocator.outstanding()).isZero();
      assertThat(label).isBetween(1000L, 1100L);
    }
  }

  @Test
  void aClosedLoaderIsNeverWarnedAboutAndClosesOnce() throws Exception {
    try (Warnings warnings = new Warnings(); DirectBufferAllocator allocator = new DirectBufferAllocator("closed")) {
      Loader closed = builder(allocator).build();
      closed.iterator().next();
      closed.close();
      closed.close(); // idempotent
      assertThat(allocator.outstanding()).isZero();
      closed = null;
      // two loaders dropped unclosed: once their warnings are in, the cleaner has had its chance at the first one
      twoLoadersMidEpoch(allocator);
      awaitGc(() -> warnings.messages().size() >= 2 && allocator.outstanding() == 0);
      assertThat(warnings.messages()).hasSize(2);
    }
  }

  private static LoaderBuilder builder(DirectBufferAllocator allocator) {
    return Loader.builder(file).batchSize(8).numThreads(2).batchesAhead(2).order(OrderOption.RANDOM).seed(1)
        .allocator(allocator).pipeline("image", new org.sparkbeton.loader.decoders.SimpleRgbDecoder())
        .pipeline("label", new org.sparkbeton.loader.decoders.IntDecoder());
  }

  /** Builds two loaders and takes one batch of each, never closing them; the caller drops the list. */
  private static List<Loader> twoLoadersMidEpoch(DirectBufferAllocator allocator) throws IOException {
    List<Loader> loaders = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Loader loader = builder(allocator).build();
      Iterator<Batch> epoch = loader.iterator();
      assertThat(epoch.next().size()).isEqualTo(8);
      loaders.add(loader);
    }
    return loaders;
  }

  /** The loader worker threads of epoch 0 started since {@code before} was taken. */
  private static Set<Thread> workersStartedSince(Set<Thread> before) {
    Set<Thread> workers = new HashSet<>(Thread.getAllStackTraces().keySet());
    workers.removeAll(before);
    workers.removeIf(t -> !t.getName().startsWith("beton-loader-e0-w"));
    return workers;
  }

  /** Asks for garbage collections until {@code done}, for at most 20 seconds. */
  private static void awaitGc(BooleanSupplier done) throws InterruptedException {
    for (int i = 0; i < 400 && !done.getAsBoolean(); i++) {
      System.gc();
      Thread.sleep(50);
    }
  }

  private static long mapsOfTheFile() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.endsWith(file.toString())).count();
  }
}
