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

  @Test
  void unquoteGivesBackWhatQuoteStored() {
    for (String s : new String[] {"", "s0", "a\"b\\c", "t\ta\nb\u0001\b\f\r", "é 照片 😀", "{\"a\": 1}", " "}) {
      assertThat(JsonStrings.unquote(JsonStrings.quote(s))).as(s).isEqualTo(s);
    }
    assertThat(JsonStrings.unquote(" \"x\"\n")).isEqualTo("x");
    assertThat(JsonStrings.unquote("\"a\\/b\\u00E9\"")).isEqualTo("a/bé");
  }

  @Test
  void unquoteIsNullForAnyOtherJsonText() {
    for (String text : new String[] {"{\"a\": \"b\"}", "[\"a\"]", "3", "null", "true", "\"a\" \"b\"", "\"a\"b\"",
        "\"", "\"abc", "\"a\\\"", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"tab\tinside\"", ""}) {
      assertThat(JsonStrings.unquote(text)).as(text).isNull();
    }
  }
}
