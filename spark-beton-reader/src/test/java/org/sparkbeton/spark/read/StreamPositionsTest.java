package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkbeton.spark.read.StreamPositions.Position;

/** A stream's offsets found again in later manifests: after appends by name, after a compaction by sample count. */
class StreamPositionsTest {
  static final String ID = "7f3a";

  static StreamPositions manifest(String id, Object... nameAndSamples) {
    List<DatasetInputs.Shard> shards = new ArrayList<>();
    for (int i = 0; i < nameAndSamples.length; i += 2) {
      shards.add(new DatasetInputs.Shard("hdfs://nn/ds/" + nameAndSamples[i], (Integer) nameAndSamples[i + 1], 100,
          Map.of(), true));
    }
    return new StreamPositions("hdfs://nn/ds", shards, id);
  }

  @Test
  void anOffsetIsFoundByItsShardsNamesAfterAppends() {
    StreamPositions before = manifest(ID, "a", 5, "b", 5, "c", 5);
    ShardOffset afterB = before.offset(new Position(2, 0));
    assertThat(afterB.json()).isEqualTo("{\"shards\":2,\"last\":\"b\",\"samples\":10,\"dataset\":\"7f3a\"}");

    StreamPositions appended = manifest(ID, "a", 5, "b", 5, "c", 5, "d", 7);
    assertThat(appended.find(afterB)).isEqualTo(new Position(2, 0));
    assertThat(appended.find(ShardOffset.parse(afterB.json()))).isEqualTo(new Position(2, 0));
    // offsets made before datasets had an identity are found the same way
    assertThat(appended.find(new ShardOffset(3, "c"))).isEqualTo(new Position(3, 0));
    assertThat(appended.find(ShardOffset.START)).isEqualTo(new Position(0, 0));
    assertThat(appended.samplesBefore(appended.end())).isEqualTo(22);
  }

  @Test
  void afterACompactionAnOffsetIsFoundByItsSampleCountInsideOrAtTheEndOfAMergedShard() {
    StreamPositions before = manifest(ID, "a", 5, "b", 5, "c", 5, "d", 7);
    ShardOffset afterB = before.offset(new Position(2, 0));
    ShardOffset afterD = before.offset(before.end());

    StreamPositions compacted = manifest(ID, "a", 5, "bcd", 17, "e", 3);
    Position inside = compacted.find(afterB);
    assertThat(inside).isEqualTo(new Position(1, 5));
    assertThat(compacted.samplesBefore(inside)).isEqualTo(10);
    assertThat(compacted.find(afterD)).isEqualTo(new Position(2, 0));

    // an offset inside a shard names it, and is found by name, or after another compaction by its count
    ShardOffset insideOffset = compacted.offset(inside);
    assertThat(insideOffset.json()).isEqualTo(
        "{\"shards\":1,\"last\":\"a\",\"into\":5,\"next\":\"bcd\",\"samples\":10,\"dataset\":\"7f3a\"}");
    assertThat(compacted.find(ShardOffset.parse(insideOffset.json()))).isEqualTo(inside);
    StreamPositions again = manifest(ID, "abcde", 25);
    assertThat(again.find(insideOffset)).isEqualTo(new Position(0, 10));
    assertThat(again.find(afterD)).isEqualTo(new Position(0, 22));
  }

  @Test
  void aReplacedDatasetIsNoPlaceForAnOffset() {
    ShardOffset afterB = manifest(ID, "a", 5, "b", 5).offset(new Position(2, 0));
    assertThatThrownBy(() -> manifest("other", "x", 5, "y", 5, "z", 5).find(afterB))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The dataset hdfs://nn/ds was replaced after this stream read it: its manifest (of 3 shards now)"
            + " no longer lists b as shard 2, and it is another dataset than the one the stream read (other, not 7f3a) (an overwrite,"
            + " or a dataset written anew at the path; a compaction keeps a stream's place). A stream reads appends"
            + " only; start a new query (a new checkpointLocation) to read the dataset as it is now");
    // without identities, renamed shards cannot be told from a replaced dataset
    assertThatThrownBy(() -> manifest(null, "ab", 10).find(new ShardOffset(2, "b")))
        .hasMessageStartingWith("The dataset hdfs://nn/ds was replaced after this stream read it: its manifest (of 1"
            + " shard now) no longer lists b as shard 2 (an overwrite");
    // fewer samples than the offset counts: not the same dataset, whatever it says
    assertThatThrownBy(() -> manifest(ID, "a", 5).find(afterB)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void samplesPositionsSkipEmptyShards() {
    StreamPositions m = manifest(ID, "a", 3, "empty", 0, "b", 2);
    assertThat(m.atSamples(0)).isEqualTo(new Position(0, 0));
    assertThat(m.atSamples(2)).isEqualTo(new Position(0, 2));
    assertThat(m.atSamples(3)).isEqualTo(new Position(2, 0));
    assertThat(m.atSamples(5)).isEqualTo(m.end()).isEqualTo(new Position(3, 0));
    assertThat(manifest(null).offset(new Position(0, 0))).isEqualTo(ShardOffset.START);
  }
}
