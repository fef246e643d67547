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
  void refusesAnotherSourcesOffset() {
    for (String json : new String[] {"{\"logOffset\":4}", "{\"shards\":-1,\"last\":null}",
        "{\"shards\":2,\"last\":null}", "{\"shards\":0,\"last\":\"x\"}", "[1]", "{\"shards\":1.5,\"last\":\"x\"}",
        "not json"}) {
      assertThatThrownBy(() -> ShardOffset.parse(json)).as(json)
          .hasMessageContaining("not a beton stream's: " + json).hasMessageContaining("its own checkpointLocation");
    }
  }
}
