package org.sparkbeton.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.spi.IIORegistry;
import javax.imageio.spi.ImageReaderSpi;
import javax.imageio.stream.ImageInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.testing.TestPhotos;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The built runtime jar, opened as a user's Spark would: only our classes (third-party ones relocated under
 * {@code org/sparkbeton/shaded/}), service files that name classes the jar holds, the JNI library, and a
 * dependency-reduced POM that asks for nothing at compile or runtime scope.
 */
class RuntimeJarIT {
  private static final String SHADED = "org/sparkbeton/shaded/";
  /** A library of some platform, versioned ({@code libbetoncodec-<version>.so}) or plain; group 1 is the platform. */
  private static final Pattern NATIVE_LIBRARY = Pattern.compile("native/([^/]+)/libbetoncodec[^/]*\\.so");

  private static JarFile jar;
  private static Map<String, JarEntry> entries;

  @BeforeAll
  static void open() throws IOException {
    Path path = Path.of(System.getProperty("runtime.jar"));
    assertThat(path).as("the shaded jar (built by the package phase)").isRegularFile();
    jar = new JarFile(path.toFile());
    entries = new TreeMap<>();
    Collections.list(jar.entries()).forEach(e -> entries.put(e.getName(), e));
  }

  @AfterAll
  static void close() throws IOException {
    jar.close();
  }

  @Test
  void everyClassIsOursAndThirdPartyOnesAreRelocated() {
    List<String> classes = entries.keySet().stream().filter(n -> n.endsWith(".class")).toList();
    assertThat(classes).allMatch(n -> n.startsWith("org/sparkbeton/"), "class under org/sparkbeton/");
    assertThat(classes.stream().filter(n -> n.startsWith(SHADED)))
        .as("relocated TwelveMonkeys ImageIO plugins (the pure-Java fallback)")
        .contains(SHADED + "com/twelvemonkeys/imageio/plugins/jpeg/JPEGImageReader.class",
            SHADED + "com/twelvemonkeys/imageio/plugins/webp/WebPImageReader.class")
        .allMatch(n -> n.startsWith(SHADED + "com/twelvemonkeys/"), "nothing else shaded");
    // one class from each module the jar must carry; ReadConf is the one a 72 KB spark-beton jar lacked
    assertThat(classes).contains("org/sparkbeton/format/BetonReader.class",
        "org/sparkbeton/codec/jpeg/JpegCodecs.class", "org/sparkbeton/spark/write/BetonBatchWrite.class",
        "org/sparkbeton/spark/read/ReadConf.class", "org/sparkbeton/spark/BetonDataSource.class",
        "org/sparkbeton/spark/prepare/PrepareJob.class");
  }

  /**
   * The Java path's description (a dataset's recorded {@code jpeg_codec}) names the TwelveMonkeys version the jar
   * carries, not the jar's own version, which the relocated package's manifest attributes give.
   */
  @Test
  void theJavaPathNamesTheTwelveMonkeysVersionTheJarCarries() throws Exception {
    java.util.Properties pom = new java.util.Properties();
    try (InputStream in = jar.getInputStream(
        entries.get("META-INF/maven/com.twelvemonkeys.imageio/imageio-jpeg/pom.properties"))) {
      pom.load(in);
    }
    String version = pom.getProperty("version");
    assertThat(version).matches("\\d+\\.\\d+\\.\\d+");
    Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dbeton.native=false", "-cp", System.getProperty("runtime.jar") + java.io.File.pathSeparator
            + java.nio.file.Path.of(CodecDescription.class.getProtectionDomain().getCodeSource().getLocation().toURI()),
        CodecDescription.class.getName()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out).contains("codec=javax.imageio with TwelveMonkeys " + version + ", pure Java\n");
  }

  @Test
  void dataSourceRegisterNamesOurSource() throws IOException {
    assertThat(providers("org.apache.spark.sql.sources.DataSourceRegister"))
        .containsExactly("org.sparkbeton.spark.BetonDataSource");
  }

  /**
   * Every class a JVM may load from a service file without asking for it (Spark instantiates every registered data
   * source on any lookup by name; ImageIO every plugin) is a Java 8 class file, so the jar on a Spark that runs on
   * Java 8 or 11 breaks nothing but format("beton"), which says it needs Java 17.
   */
  @Test
  void classesServiceFilesNameLoadOnJava8() throws IOException {
    for (String file : List.of("org.apache.spark.sql.sources.DataSourceRegister", "javax.imageio.spi.ImageReaderSpi",
        "javax.imageio.spi.ImageWriterSpi", "javax.imageio.spi.ImageInputStreamSpi")) {
      for (String provider : providers(file)) {
        try (InputStream in = jar.getInputStream(entries.get(provider.replace('.', '/') + ".class"))) {
          byte[] head = in.readNBytes(8);
          assertThat(((head[6] & 0xff) << 8) | (head[7] & 0xff)).as(provider + " class file version").isLessThanOrEqualTo(52);
        }
      }
    }
  }

  @Test
  void everyServiceFileNamesClassesInTheJar() throws IOException {
    List<String> files = entries.keySet().stream()
        .filter(n -> n.startsWith("META-INF/services/") && !n.endsWith("/")).toList();
    assertThat(files).contains("META-INF/services/javax.imageio.spi.ImageReaderSpi",
        "META-INF/services/javax.imageio.spi.ImageWriterSpi");
    for (String file : files) {
      List<String> providers = providers(file.substring("META-INF/services/".length()));
      assertThat(providers).as(file).isNotEmpty();
      for (String provider : providers) {
        assertThat(entries).as(file + " names " + provider).containsKey(provider.replace('.', '/') + ".class");
      }
    }
  }

  @Test
  void nativeLibraryIsBundledUnlessBuiltWithoutIt() throws IOException {
    List<String> libraries = entries.keySet().stream().filter(n -> NATIVE_LIBRARY.matcher(n).matches()).toList();
    if (!expectNative()) {
      assertThat(libraries).as("a -Pno-native build").isEmpty();
      return;
    }
    // one library per platform the codec's properties list (where NativeLibrary looks), and no other
    java.util.Properties bundled = new java.util.Properties();
    try (InputStream in = jar.getInputStream(entries.get("native/betoncodec.properties"))) {
      bundled.load(in);
    }
    List<String> platforms = List.of(bundled.getProperty("platforms").split(","));
    assertThat(platforms).as("platforms of the JNI library (build with -Pno-native to go without)")
        .contains("linux-x86_64");
    assertThat(libraries.stream().map(n -> {
      java.util.regex.Matcher m = NATIVE_LIBRARY.matcher(n);
      return m.matches() ? m.group(1) : n;
    })).as("a library per listed platform").containsExactlyInAnyOrderElementsOf(platforms);
    for (String library : libraries) {
      try (InputStream in = jar.getInputStream(entries.get(library))) {
        assertThat(in.readNBytes(4)).as(library + " ELF magic").containsExactly(0x7f, 'E', 'L', 'F');
      }
    }
  }

  /** The classes say which Scala they were compiled for, the one the artifact's name gives ({@code _2.13}). */
  @Test
  void theJarNamesTheScalaItsNameGives() throws IOException {
    String artifact = System.getProperty("runtime.artifactId");
    String resource = "org/sparkbeton/spark/scala-binary.properties";
    assertThat(entries).containsKey(resource);
    Properties built = new Properties();
    try (InputStream in = jar.getInputStream(entries.get(resource))) {
      built.load(in);
    }
    assertThat(built.getProperty("scala.binary.version"))
        .isEqualTo(artifact.substring(artifact.lastIndexOf('_') + 1));
  }

  @Test
  void reducedPomAsksForNothingAtCompileOrRuntimeScope() throws Exception {
    Element project = parse(System.getProperty("runtime.pom"));
    assertThat(text(project, "artifactId")).isEqualTo(System.getProperty("runtime.artifactId"))
        .startsWith("spark-beton-runtime-3.5_2.1");
    Element parent = children(project, "parent").get(0);
    assertThat(text(parent, "artifactId")).isEqualTo("spark-beton-parent");
    // the parent's dependencies are inherited, so they count too; Spark, Hadoop and Scala come from the cluster
    // and everything else is inside the jar
    List<String> dependencies = new ArrayList<>(dependencies(project));
    dependencies.addAll(dependencies(parse(System.getProperty("runtime.parentPom"))));
    assertThat(dependencies).allMatch(d -> d.endsWith(":provided") || d.endsWith(":test"), "provided or test scope");
  }

  @Test
  void codecAndRelocatedImageIoPluginsWorkFromTheJarAlone() throws Exception {
    byte[] photo = TestPhotos.photo(7, 0);
    // the platform loader as parent: no project class and no unrelocated TwelveMonkeys can be reached
    try (URLClassLoader alone = new URLClassLoader(new URL[] {Path.of(jar.getName()).toUri().toURL()},
        ClassLoader.getPlatformClassLoader())) {
      String codec = (String) alone.loadClass("org.sparkbeton.codec.jpeg.JpegCodecs").getMethod("description")
          .invoke(null);
      assertThat(codec).contains(expectNative() ? "through JNI" : "pure Java");

      ImageReaderSpi spi = ServiceLoader.load(ImageReaderSpi.class, alone).stream().map(ServiceLoader.Provider::get)
          .filter(p -> p.getClass().getName().equals("org.sparkbeton.shaded.com.twelvemonkeys.imageio.plugins.jpeg"
              + ".JPEGImageReaderSpi"))
          .findFirst().orElseThrow(() -> new AssertionError("no relocated TwelveMonkeys JPEG reader in the jar"));
      BufferedImage jdk = read(jdkJpegReader(), photo);
      // the plugin finds the JDK reader it builds on when it is registered, as ImageIO's scan registers it
      IIORegistry registry = IIORegistry.getDefaultInstance();
      registry.registerServiceProvider(spi, ImageReaderSpi.class);
      BufferedImage ours;
      try {
        ours = read(spi.createReaderInstance(), photo);
      } finally {
        registry.deregisterServiceProvider(spi, ImageReaderSpi.class);
      }
      assertThat(ours.getWidth()).isEqualTo(jdk.getWidth()).isBetween(240, 500);
      assertThat(ours.getHeight()).isEqualTo(jdk.getHeight());
      assertThat(ours.getRGB(0, 0, ours.getWidth(), ours.getHeight(), null, 0, ours.getWidth()))
          .isEqualTo(jdk.getRGB(0, 0, jdk.getWidth(), jdk.getHeight(), null, 0, jdk.getWidth()));
    }
  }

  private static boolean expectNative() {
    return Boolean.parseBoolean(System.getProperty("runtime.expectNative", "true"));
  }

  /** The provider class names of one service file, comments and blank lines dropped. */
  private static List<String> providers(String service) throws IOException {
    JarEntry e = entries.get("META-INF/services/" + service);
    assertThat(e).as("META-INF/services/" + service).isNotNull();
    try (InputStream in = jar.getInputStream(e)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(l -> l.replaceAll("#.*", "").trim())
          .filter(l -> !l.isEmpty()).toList();
    }
  }

  private static ImageReader jdkJpegReader() {
    for (var it = ImageIO.getImageReadersByFormatName("jpeg"); it.hasNext(); ) {
      ImageReader r = it.next();
      if (r.getClass().getName().startsWith("com.sun.imageio.")) {
        return r;
      }
    }
    throw new AssertionError("the JDK's own JPEG reader is missing");
  }

  private static BufferedImage read(ImageReader reader, byte[] jpeg) throws IOException {
    try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(jpeg))) {
      reader.setInput(in);
      return reader.read(0);
    } finally {
      reader.dispose();
    }
  }

  private static Element parse(String file) throws Exception {
    Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of(file).toFile());
    return pom.getDocumentElement();
  }

  /** {@code group:artifact:scope} of each entry of a POM's own dependencies (not its dependencyManagement). */
  private static List<String> dependencies(Element project) {
    List<String> out = new ArrayList<>();
    for (Element deps : children(project, "dependencies")) {
      for (Element d : children(deps, "dependency")) {
        String scope = text(d, "scope");
        out.add(text(d, "groupId") + ":" + text(d, "artifactId") + ":" + (scope == null ? "compile" : scope));
      }
    }
    return out;
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  private static String text(Element parent, String name) {
    List<Element> c = children(parent, name);
    return c.isEmpty() ? null : c.get(0).getTextContent().trim();
  }
}
