package org.sparkbeton.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonStringsTest {
  @Test
  void quotesAsPythonsJsonDumps() {
    assertThat(JsonStrings.quote("part-00001-a.beton")).isEqualTo("\"part-00001-a.beton\"");
    assertThat(JsonStrings.quote("")).isEqualTo("\"\"");
    assertThat(JsonStrings.quote(" ~")).isEqualTo("\" ~\"");
    assertThat(JsonStrings.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(JsonStrings.quote("t\ta\nb\u0001")).isEqualTo("\"t\\ta\\nb\\u0001\"");
    assertThat(JsonStrings.quote("é\u007f")).isEqualTo("\"\\u00e9\\u007f\"");
  }
}
