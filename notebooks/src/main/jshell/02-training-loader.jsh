// # 02 · Feed a training loop with the loader
//
// The training side: `Loader` is FFCV's loader on the JVM. It reads the dataset notebook 01 wrote
// straight from its shard files (no Spark), decodes and augments on worker threads, and hands out
// batches as little-endian tensors ready to copy to a GPU. Run 01 first, then
// `bin/beton-notebook 02-training-loader.jsh` (under a minute).

import java.nio.ByteBuffer;
import java.nio.file.*;
import org.sparkbeton.codec.jpeg.JpegCodecs;
import org.sparkbeton.format.fields.Float16;
import org.sparkbeton.loader.*;
import org.sparkbeton.loader.decoders.*;
import org.sparkbeton.loader.order.OrderOption;
import org.sparkbeton.loader.pipeline.*;
import org.sparkbeton.loader.transforms.*;
import org.sparkbeton.notebooks.Notebook;
import static org.sparkbeton.notebooks.Notebook.check;

// ## 1. The dataset
// A dataset directory is opened through its `_manifest.json`: its shards become one index space.
Path dataset = Notebook.workDir().resolve("shapes-beton");
check(Files.exists(dataset.resolve("_manifest.json")), "dataset of notebook 01 found in " + dataset);
System.out.println("JPEG codec: " + JpegCodecs.description());

// Two helpers to print what a batch holds: its shape with the batch dimension first, and the mean of
// each colour channel (the loader's tensors are little-endian; float16 values are IEEE half floats).
String shape(Batch b, String output) {
  TensorSpec s = b.spec(output);
  return s.dtype().name().toLowerCase() + "[" + b.size() + ", " +
      Arrays.stream(s.shape()).mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining(", ")) + "]";
}
double[] channelMeans(Batch b, boolean channelsFirst) {
  ByteBuffer px = b.data("image");
  TensorSpec s = b.spec("image");
  int plane = channelsFirst ? s.dim(1) * s.dim(2) : s.dim(0) * s.dim(1);
  double[] sum = new double[3];
  for (int i = 0; i < b.size() * 3 * plane; i++) {
    int c = channelsFirst ? i / plane % 3 : i % 3;
    sum[c] += s.dtype() == DType.UINT8 ? px.get(i) & 0xff : Float16.toFloat(px.getShort(2 * i));
  }
  return Arrays.stream(sum).map(v -> v / ((double) b.size() * plane)).toArray();
}

// ## 2. Random crops: RandomResizedCrop 224 + horizontal flip, uint8
// The crop decoder draws torchvision's box, decodes only that box of the JPEG at the smallest DCT scale
// still at least 224 px, and resizes it (INTER_AREA) into the batch. Every random draw comes from
// (seed, epoch, sample index), never from thread timing. Batches are views into a ring of reused
// slots: read them before asking for the batch two after.
Loader crops = Loader.builder(dataset).batchSize(64).numThreads(2).order(OrderOption.RANDOM).seed(7).
    pipeline("image", new RandomResizedCropRgbDecoder(224, 224), new RandomHorizontalFlip()).
    pipeline("label", new IntDecoder()).
    build();
System.out.printf("%d samples per epoch in %d batches of 64 (the partial last batch is dropped, as in FFCV)%n",
    crops.samplesPerEpoch(), crops.length());
String cropShape = null;
int cropBatches = 0;
for (Batch b : crops) {
  if (cropBatches++ == 0) {
    cropShape = shape(b, "image");
    long[] labels = new long[8];
    for (int i = 0; i < 8; i++) labels[i] = b.data("label").getLong(8 * i);
    System.out.printf("batch 0: image %s, label %s, first labels %s, RGB means %s%n", cropShape, shape(b, "label"),
        Arrays.toString(labels), Arrays.toString(Arrays.stream(channelMeans(b, false)).mapToLong(Math::round).toArray()));
  }
}
check(cropShape.equals("uint8[64, 224, 224, 3]") && cropBatches == crops.length(),
    cropBatches + " batches of uint8[64, 224, 224, 3]");
crops.close();

// ## 3. Training tensors: + NormalizeImage float16 + ToChannelsFirst
// What a PyTorch model takes: (value - mean) / std per channel, half precision, channels first. The
// flip, the normalisation and the layout change are fused into one pass per image (`describeSteps`).
double[] mean = {0.485 * 255, 0.456 * 255, 0.406 * 255};
double[] std = {0.229 * 255, 0.224 * 255, 0.225 * 255};
Loader trainLoader(long seed, int threads) throws IOException {
  return Loader.builder(dataset).batchSize(64).numThreads(threads).order(OrderOption.RANDOM).seed(seed).
      pipeline("image", new RandomResizedCropRgbDecoder(224, 224), new RandomHorizontalFlip(),
          new NormalizeImage(mean, std, DType.FLOAT16), new ToChannelsFirst()).
      pipeline("label", new IntDecoder()).
      build();
}
Loader train = trainLoader(7, 2);
train.pipelines().forEach(p -> System.out.println("  " + p.output() + " -> " + p.spec() + ": " + p.describeSteps()));

// Two epochs, as a training loop would run them (the first one includes JIT warm-up).
String trainShape = null;
Set<Integer> seen = new HashSet<>();
for (int epoch = 0; epoch < 2; epoch++) {
  long t0 = System.nanoTime();
  int images = 0;
  for (Batch b : train) {
    if (epoch == 0 && b.index() == 0) {
      trainShape = shape(b, "image");
      System.out.printf("batch 0: image %s, channel means %s%n", trainShape,
          Arrays.toString(Arrays.stream(channelMeans(b, true)).map(v -> Math.round(v * 1000) / 1000.0).toArray()));
    }
    for (int i = 0; i < b.size(); i++) if (epoch == 0) seen.add(b.sample(i));
    images += b.size();
  }
  double s = (System.nanoTime() - t0) / 1e9;
  System.out.printf("epoch %d: %d images in %.2f s, %.0f images/s%n", epoch, images, s, images / s);
}
check(trainShape.equals("float16[64, 3, 224, 224]"), "training batches are float16[64, 3, 224, 224]");
check(seen.size() == 64 * train.length(), "epoch 0 read " + seen.size() + " distinct samples");
train.close();

// ## 4. Same seed, same batch
// The first batch's bytes, hashed: the same seed gives the same batch even with another thread count
// (resumable, reproducible runs); another seed gives other crops and order.
String firstBatch(Loader l) {
  try (l) {
    Batch b = l.iterator().next();
    return Notebook.sha256(b.data("image")).substring(0, 16) + " (samples " + b.sample(0) + ", " + b.sample(1) + ", ...)";
  }
}
String seed7 = firstBatch(trainLoader(7, 2));
String seed7OneThread = firstBatch(trainLoader(7, 1));
String seed8 = firstBatch(trainLoader(8, 2));
System.out.printf("seed 7, 2 threads: %s%nseed 7, 1 thread:  %s%nseed 8, 2 threads: %s%n", seed7, seed7OneThread, seed8);
check(seed7.equals(seed7OneThread) && !seed7.equals(seed8), "same seed, same batch; another seed, another batch");

// Each check above must have run and passed: a step that failed to compile or threw skips its check.
/exit Notebook.exitCode(5)
