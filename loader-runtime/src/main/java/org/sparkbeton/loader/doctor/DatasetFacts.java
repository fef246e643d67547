package org.sparkbeton.loader.doctor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.ImageMode;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.loader.io.Shards;
import org.sparkbeton.loader.order.PageMap;

/**
 * What the doctor knows of a dataset from its metadata alone (one pass over the records, no payload read): the
 * image field, how its images are stored, the pages, and where the files live.
 *
 * @param name the dataset as the user named it
 * @param imageField the first RGBImage field, the one the doctor's pipelines read
 * @param payloadBytes the image payloads' bytes, all samples
 * @param medianSide the median of the images' longer sides
 * @param maxSide the largest longer side
 * @param sameSize true when every image has one size (SimpleRGB needs it)
 * @param pageBytes the data pages' bytes, all files (what a PROCESS cache holding everything needs: whole pages)
 * @param fileBytes the files' bytes (what the OS page cache or a local copy holds; a file may end inside its last
 *     page, so a dataset of small shards takes much less than {@code pageBytes})
 * @param files the files (or a remote dataset's shard URIs)
 * @param fileSystem the file system type of the first file ({@code ext4}, {@code nfs4}, ...), or a remote store's
 *     scheme and authority ({@code hdfs://namenode:8020})
 * @param memoryAvailable the memory the OS could give the page cache now (MemAvailable), or -1 when unknown
 */
public record DatasetFacts(String name, List<String> files, long samples, String imageField, long jpegs, long raws,
                           long payloadBytes, int medianSide, int maxSide, boolean sameSize, long pageSize, long pages,
                           long pageBytes, long fileBytes, String fileSystem, long memoryAvailable) {
  private static final Set<String> NETWORK = Set.of("nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "lustre", "gpfs",
      "9p", "glusterfs", "beegfs", "afs");

  /** Reads the facts from open readers of {@code files}. */
  static DatasetFacts of(String name, List<Path> files, Shards shards) {
    return of(name, files.stream().map(Path::toString).toList(), shards, fileSystem(files.get(0)));
  }

  /** The facts of a dataset whose files are not local (a remote store's shards). */
  static DatasetFacts of(String name, List<String> files, Shards shards, String fileSystem) {
    BetonReader first = shards.reader(0);
    int field = imageField(first);
    int offset = first.layout().offset(field);
    long samples = shards.numSamples();
    long jpegs = 0;
    long raws = 0;
    long payload = 0;
    long pages = 0;
    long fileBytes = 0;
    long[] sides = new long[1 << 16];
    int firstW = -1;
    int firstH = -1;
    boolean same = true;
    for (int s = 0; s < shards.count(); s++) {
      BetonReader r = shards.reader(s);
      for (long i = 0; i < r.numSamples(); i++) {
        ByteBuffer rec = r.recordChunk(i);
        int at = r.recordOffset(i) + offset;
        int w = Short.toUnsignedInt(rec.getShort(at + RgbImageField.WIDTH));
        int h = Short.toUnsignedInt(rec.getShort(at + RgbImageField.HEIGHT));
        if (RgbImageField.modeOf(rec, at) == ImageMode.JPG) {
          jpegs++;
          payload += Math.max(0, r.allocations().sizeAt(rec.getLong(at + RgbImageField.DATA_PTR)));
        } else {
          raws++;
          payload += 3L * w * h;
        }
        sides[Math.max(w, h)]++;
        if (firstW < 0) {
          firstW = w;
          firstH = h;
        }
        same &= w == firstW && h == firstH;
      }
      pages += PageMap.of(r).numPages();
      fileBytes += r.fileLength();
    }
    return new DatasetFacts(name, List.copyOf(files), samples, first.fields().get(field).name(), jpegs, raws, payload,
        median(sides, samples), maxSide(sides), same, first.pageSize(), pages, pages * first.pageSize(), fileBytes,
        fileSystem, availableMemory());
  }

  /** The index of the first RGBImage field; the doctor's pipelines read it. */
  static int imageField(BetonReader reader) {
    for (int f = 0; f < reader.fields().size(); f++) {
      if (reader.fields().get(f).typeId() == FieldTypes.RGB_IMAGE) {
        return f;
      }
    }
    throw new IllegalArgumentException(reader.file() + " has no image field (its fields: " + reader.fields()
        + "); the doctor measures image pipelines");
  }

  /** Mean bytes of one image's payload. */
  public double meanPayload() {
    return samples == 0 ? 0 : (double) payloadBytes / samples;
  }

  public double jpegFraction() {
    return samples == 0 ? 0 : (double) jpegs / samples;
  }

  /** True when the files are on a network file system (NFS, SMB, Lustre, ...): a local copy may help. */
  public boolean networkFileSystem() {
    return remote() || NETWORK.contains(fileSystem) || fileSystem.startsWith("fuse");
  }

  /** True when the dataset is in a remote store ({@code hdfs://}, {@code s3a://}, ...), staged into a local cache. */
  public boolean remote() {
    return fileSystem.contains("://");
  }

  /** True when the OS page cache could hold every file now. */
  public boolean fitsInMemory() {
    return memoryAvailable > 0 && fileBytes <= memoryAvailable;
  }

  private static int median(long[] histogram, long n) {
    long seen = 0;
    for (int side = 0; side < histogram.length; side++) {
      seen += histogram[side];
      if (2 * seen >= n && seen > 0) {
        return side;
      }
    }
    return 0;
  }

  private static int maxSide(long[] histogram) {
    for (int side = histogram.length - 1; side > 0; side--) {
      if (histogram[side] > 0) {
        return side;
      }
    }
    return 0;
  }

  private static String fileSystem(Path file) {
    try {
      return Files.getFileStore(file).type().toLowerCase(Locale.ROOT);
    } catch (IOException | SecurityException e) {
      return "unknown";
    }
  }

  /** MemAvailable of /proc/meminfo (Linux), else the JVM's view of free physical memory, else -1. */
  static long availableMemory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemAvailable:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: ask the JVM
    }
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getFreeMemorySize() : -1;
  }
}
