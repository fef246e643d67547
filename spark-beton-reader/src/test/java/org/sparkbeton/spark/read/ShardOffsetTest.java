package org.sparkbeton.spark.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A streaming read's offsets as Spark keeps them in a checkpoint: one line of JSON each, read back as written. */
class ShardOffsetTest {
  @Test
  void writesOneLineAndReadsItBack() {
    ShardOffset offset = new ShardOffset(3, "part-00002-\"odd\" name.beton");
    assertThat(offset.json()).isEqualTo("{\"shards\":3,\"last\":\"part-00002-\\\"odd\\\" name.beton\"}");
    ShardOffset back = ShardOffset.parse(offset.json());
    assertThat(back.shards()).isEqualTo(3);
    assertThat(back.last()).isEqualTo("part-00002-\"odd\" name.beton");
    assertThat(back).isEqualTo(offset); // Spark compares offsets by their JSON
    assertThat(ShardOffset.parse(ShardOffset.START.json()).shards()).isZero();
    assertThat(ShardOffset.START.json()).isEqualTo("{\"shards\":0,\"last\":null}");
  }

  @Test
  void anOffsetInsideAShardOfADatasetWithAnIdentityReadsBack() {
    ShardOffset offset = new ShardOffset(2, "b.beton", 7, "c.beton", 17, "0f0f");
    assertThat(offset.json()).isEqualTo("{\"shards\":2,\"last\":\"b.beton\",\"into\":7,\"next\":\"c.beton\","
        + "\"samples\":17,\"dataset\":\"0f0f\"}");
    ShardOffset back = ShardOffset.parse(offset.json());
    assertThat(back).isEqualTo(offset);
    assertThat(back.into()).isEqualTo(7);
    assertThat(back.next()).isEqualTo("c.beton");
    assertThat(back.samples()).isEqualTo(17);
    assertThat(back.dataset()).isEqualTo("0f0f");
    // offsets checkpointed before these members read as boundaries without an identity
    ShardOffset old = ShardOffset.parse("{\"shards\":3,\"last\":\"x\"}");
    assertThat(old.into()).isZero();
    assertThat(old.dataset()).isNull();
    assertThat(old.samples()).isEqualTo(-1);
  }

  @Test
  void refusesAnotherSourcesOffset() {
    for (String json : new String[] {"{\"logOffset\":4}", "{\"shards\":-1,\"last\":null}",
        "{\"shards\":2,\"last\":null}", "{\"shards\":0,\"last\":\"x\"}", "[1]", "{\"shards\":1.5,\"last\":\"x\"}",
        "not json", "{\"shards\":1,\"last\":\"x\",\"into\":0,\"next\":\"y\"}",
        "{\"shards\":1,\"last\":\"x\",\"into\":2}", "{\"shards\":1,\"last\":\"x\",\"dataset\":\"d\"}",
        "{\"shards\":1,\"last\":\"x\",\"samples\":-4,\"dataset\":\"d\"}"}) {
      assertThatThrownBy(() -> ShardOffset.parse(json)).as(json)
          .hasMessageContaining("not a beton stream's: " + json).hasMessageContaining("its own checkpointLocation");
    }
  }
}
