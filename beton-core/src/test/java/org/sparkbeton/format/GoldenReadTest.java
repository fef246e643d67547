package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkbeton.format.dump.SampleJson;
import org.sparkbeton.format.fields.NdArrayField;
import org.sparkbeton.format.testing.GoldenFiles;

/** Every value of every FFCV-written golden file reads back as its expected.json says. */
class GoldenReadTest {

  static Iterable<String> names() {
    return GoldenFiles.NAMES;
  }

  @ParameterizedTest
  @MethodSource("names")
  void headerAndFieldsMatch(String name) throws Exception {
    JsonNode expected = GoldenFiles.expected(name);
    try (BetonReader r = BetonReader.open(GoldenFiles.path(name))) {
      assertThat(r.numSamples()).isEqualTo(expected.get("num_samples").asLong());
      assertThat(r.pageSize()).isEqualTo(expected.get("page_size").asLong());
      JsonNode fields = expected.get("fields");
      assertThat(r.fields()).hasSize(fields.size());
      for (int i = 0; i < fields.size(); i++) {
        JsonNode f = fields.get(i);
        BetonField field = r.fields().get(i);
        assertThat(field.name()).isEqualTo(f.get("name").asText());
        assertThat(field.typeId()).isEqualTo(f.get("type_id").asInt());
        if (f.has("dtype")) {
          NdArrayField nd = (NdArrayField) field.codec();
          assertThat(nd.dtype().typestr()).isEqualTo(f.get("dtype").asText());
          long[] shape = new long[f.get("shape").size()];
          for (int d = 0; d < shape.length; d++) {
            shape[d] = f.get("shape").get(d).asLong();
          }
          assertThat(nd.shape()).containsExactly(shape);
        }
      }
    }
  }

  @ParameterizedTest
  @MethodSource("names")
  void everySampleMatches(String name) throws Exception {
    JsonNode samples = GoldenFiles.expected(name).get("samples");
    try (BetonReader r = BetonReader.open(GoldenFiles.path(name))) {
      SampleJson json = new SampleJson(r, null);
      for (int s = 0; s < samples.size(); s++) {
        JsonNode actual = GoldenFiles.parse(json.row(s));
        JsonNode want = withoutJpegPixels(samples.get(s).deepCopy(), actual);
        assertThat(actual).as("sample %d of %s", s, name).isEqualTo(want);
      }
    }
  }

  /** JPEG pixel hashes need the codec layer; its own tests check them. Raw images keep theirs. */
  private static JsonNode withoutJpegPixels(JsonNode row, JsonNode actual) {
    for (Iterator<JsonNode> it = row.elements(); it.hasNext(); ) {
      JsonNode v = it.next();
      if (v.isObject() && "jpg".equals(v.path("mode").asText())) {
        ((ObjectNode) v).remove("rgb_sha256");
      }
    }
    return row;
  }
}
