package org.sparkbeton.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkbeton.loader.decoders.CenterCropRgbDecoder;
import org.sparkbeton.loader.pipeline.BadSampleException;
import org.sparkbeton.loader.pipeline.Operation;
import org.sparkbeton.loader.pipeline.SampleContext;
import org.sparkbeton.loader.pipeline.TensorSpec;

/**
 * An epoch's failure reaches the consumer as a {@link LoaderFailedException} that says where it happened and
 * whether the data caused it, so a caller tells a damaged dataset from a bug without unwrapping causes.
 */
class LoaderFailedExceptionTest {
  @TempDir Path tmp;

  /** 8 photos; sample 5's metadata claims a size its JPEG frame does not have. */
  private Path dataset() throws Exception {
    List<Object[]> samples = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      samples.add(i == 5 ? PhotoDatasets.lyingSize(4, i, i, 77, 55) : PhotoDatasets.sample(4, i, i));
    }
    return PhotoDatasets.write(tmp.resolve("ds"), List.of(samples));
  }

  private static LoaderFailedException firstEpochFailure(Loader loader) {
    return catchThrowableOfType(() -> {
      for (Batch ignored : loader) {
        // read until the failure
      }
    }, LoaderFailedException.class);
  }

  @Test
  void aBadSampleIsADataErrorNamingEpochBatchSampleAndOutput() throws Exception {
    try (Loader loader = Loader.builder(dataset()).batchSize(4).numThreads(2)
        .pipeline("image", new CenterCropRgbDecoder(16, 16, 0.875)).build()) {
      LoaderFailedException e = firstEpochFailure(loader);
      assertThat(e).isNotNull();
      assertThat(e.isDataError()).isTrue();
      assertThat(e.getCause()).isInstanceOf(BadSampleException.class);
      assertThat(e.epoch()).isZero();
      assertThat(e.batch()).isEqualTo(1);
      assertThat(e.sample()).isEqualTo(5);
      assertThat(e.output()).isEqualTo("image");
      assertThat(e.where()).isEqualTo("Loader failed in epoch 0, batch 1, sample 5, output 'image'");
      assertThat(e).hasMessage(e.where() + ": " + e.getCause());
      assertThat(e.getCause().getMessage()).contains("part-00000.beton, sample 5, field 'image'");
      // thrown with the consumer's stack (this test's loop), the worker's in its cause
      assertThat(e.getStackTrace()).anyMatch(f -> f.getMethodName().equals("firstEpochFailure"));
      assertThat(e.getCause().getStackTrace()).noneMatch(f -> f.getMethodName().equals("firstEpochFailure"));
    }
  }

  @Test
  void anOperationsOwnFailureIsNoDataError() throws Exception {
    try (Loader loader = Loader.builder(dataset()).batchSize(4).numThreads(1).indices(new int[] {0, 1, 2, 3})
        .pipeline("image", new CenterCropRgbDecoder(16, 16, 0.875), new FailsOnSample(2)).build()) {
      LoaderFailedException e = firstEpochFailure(loader);
      assertThat(e).isNotNull();
      assertThat(e.isDataError()).isFalse();
      assertThat(e.getCause()).isInstanceOf(NullPointerException.class).hasMessage("a bug at sample 2");
      assertThat(e).hasMessage("Loader failed in epoch 0, batch 0, sample 2, output 'image':"
          + " java.lang.NullPointerException: a bug at sample 2");
    }
  }

  /** An operation with a bug: a NullPointerException at one sample, the values passed through otherwise. */
  private record FailsOnSample(int sample) implements Operation {
    @Override
    public Stage plan(TensorSpec input) {
      return new Stage() {
        @Override
        public TensorSpec output() {
          return input;
        }

        @Override
        public void apply(ByteBuffer in, int inOffset, ByteBuffer out, int outOffset, SampleContext ctx) {
          if (ctx.sample() == sample) {
            throw new NullPointerException("a bug at sample " + sample);
          }
          for (int i = 0; i < input.bytes(); i++) {
            out.put(outOffset + i, in.get(inOffset + i));
          }
        }
      };
    }
  }
}
