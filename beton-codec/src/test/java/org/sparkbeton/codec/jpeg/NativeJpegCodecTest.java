package org.sparkbeton.codec.jpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.sparkbeton.codec.TestImages;

class NativeJpegCodecTest extends JpegCodecContractTest {
  @BeforeAll
  static void nativeLoaded() {
    assumeTrue(NativeJpegCodec.isAvailable(), "native library not loaded");
  }

  @Override
  JpegCodec newCodec() {
    return new NativeJpegCodec();
  }

  @Override
  int regionMaxDiff() {
    // fancy upsampling treats the crop/skip edge differently: a few pixels on the box border differ
    return 16;
  }

  @Override
  double regionMeanDiff() {
    return 0.1;
  }

  @Override
  boolean paddedRowsExpected() {
    return true;
  }

  @Test
  void goldenJpegsDecodeToFfcvPixelsExactly() {
    for (TestImages.Golden g : TestImages.golden()) {
      byte[] rgb = decodeFull(g.bytes(), 8, Idct.FAST);
      assertThat(TestImages.sha256(rgb)).as(g.name()).isEqualTo(g.rgbSha256());
    }
  }

  @Test
  void accurateIdctDiffersFromFfcvPixelsButOnlySlightly() {
    TestImages.Golden g = TestImages.golden().get(39);
    byte[] fast = decodeFull(g.bytes(), 8, Idct.FAST);
    byte[] accurate = decodeFull(g.bytes(), 8, Idct.ACCURATE);
    assertThat(TestImages.sha256(accurate)).isNotEqualTo(g.rgbSha256());
    double[] d = TestImages.diff(fast, accurate);
    assertThat(d[0]).isBetween(1.0, 8.0);
    assertThat(d[1]).isLessThan(2.0);
  }

  @Test
  void fastestIsNativeWhenTheLibraryLoads() {
    try (JpegCodec c = JpegCodecs.fastest()) {
      assertThat(c.isNative()).isTrue();
      assertThat(c).isInstanceOf(NativeJpegCodec.class);
    }
  }

  @Test
  void heapDestinationGetsTheSameRegionAsDirect() {
    byte[] jpeg = TestImages.image("texture-420.jpg");
    ByteBuffer heap = ByteBuffer.allocate(100 * 80 * 3);
    ByteBuffer direct = ByteBuffer.allocateDirect(100 * 80 * 3);
    long a = codec.decodeRegion(ByteBuffer.wrap(jpeg), 50, 40, 100, 80, 8, Idct.FAST, heap, 0);
    long b = codec.decodeRegion(ByteBuffer.wrap(jpeg), 50, 40, 100, 80, 8, Idct.FAST, direct, 0);
    assertThat(a).isEqualTo(b).isEqualTo(ImageSize.pack(100, 80));
    assertThat(TestImages.bytes(heap, 0, heap.capacity())).isEqualTo(TestImages.bytes(direct, 0, direct.capacity()));
  }

  @Test
  void closeFreesTheHandleOnce() {
    int before = NativeJpegCodec.liveHandles();
    NativeJpegCodec c = new NativeJpegCodec();
    assertThat(NativeJpegCodec.liveHandles()).isEqualTo(before + 1);
    c.close();
    c.close();
    assertThat(NativeJpegCodec.liveHandles()).isEqualTo(before);
  }

  @Test
  void handlesOfDeadThreadsAreFreedWithoutClose() throws Exception {
    int before = NativeJpegCodec.liveHandles();
    ThreadLocal<JpegCodec> perThread = ThreadLocal.withInitial(NativeJpegCodec::new);
    Thread[] threads = new Thread[8];
    // the threads stay alive until their handles are counted: a dead thread's handle may be freed at any GC
    java.util.concurrent.CountDownLatch decoded = new java.util.concurrent.CountDownLatch(threads.length);
    java.util.concurrent.CountDownLatch counted = new java.util.concurrent.CountDownLatch(1);
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(() -> {
        ByteBuffer dst = ByteBuffer.allocateDirect(64 * 48 * 3);
        perThread.get().decode(ByteBuffer.wrap(TestImages.image("quad-420.jpg")), 8, Idct.FAST, dst, 0);
        decoded.countDown();
        try {
          counted.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      threads[i].start();
    }
    decoded.await();
    assertThat(NativeJpegCodec.liveHandles()).isGreaterThanOrEqualTo(before + 8);
    counted.countDown();
    for (Thread t : threads) {
      t.join();
    }
    threads = null;
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (NativeJpegCodec.liveHandles() > before && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(50);
    }
    assertThat(NativeJpegCodec.liveHandles()).as("handles left after the threads died").isEqualTo(before);
  }

  @Test
  void progressiveHeaderClaimingHugeDimensionsDoesNotAllocateThem() {
    byte[] jpeg = CorruptInputContractTest.resized(TestImages.image("texture-progressive.jpg"), 65500, 65500);
    ByteBuffer dst = ByteBuffer.allocateDirect(64 * 64 * 3);
    // a 16x16 box at 1/8 needs a tiny destination, but progressive decoding would buffer every coefficient
    // of a 65500x65500 image (~13 GB): the pixel limit refuses it from the header
    assertThatThrownBy(() -> codec.decodeRegion(ByteBuffer.wrap(jpeg), 0, 0, 16, 16, 1, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class).hasMessage("Native JPEG decode failed: image is too large to decode:"
            + " 65500x65500 = 4.3 gigapixels (the limit is 268 megapixels)");
  }

  /**
   * Under the pixel limit, a progressive 4:4:4 JPEG of 225 megapixels still needs more coefficient memory than
   * libjpeg-turbo's 1 GiB: its "Backing store not supported" is said in plain words, with the size.
   */
  @Test
  void progressiveImageOverLibjpegsMemoryIsTooLargeToDecode() {
    byte[] jpeg = CorruptInputContractTest.resized(TestImages.image("texture-progressive.jpg"), 15000, 15000);
    jpeg[CorruptInputContractTest.sofOffset(jpeg) + 11] = 0x11; // luma sampled 1x1 as the chroma: 4:4:4
    ByteBuffer dst = ByteBuffer.allocateDirect(1875 * 1875 * 3);
    assertThatThrownBy(() -> codec.decode(ByteBuffer.wrap(jpeg), 1, Idct.FAST, dst, 0))
        .isInstanceOf(JpegException.class)
        .hasMessage("Native JPEG decode failed: image is too large to decode: 15000x15000 = 225 megapixels, needing"
            + " more than libjpeg-turbo's 1 GiB of working memory (libjpeg: Backing store not supported)");
  }
}
