package org.sparkbeton.format.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The manifest's checksum of its own content: edits are refused, version 1 manifests are read unchecked. */
class ManifestChecksumTest {
  private static final PageChecksums PAGES = new PageChecksums(1 << 21, 1065, 1105, 2000, 2048,
      new int[] {0x01020304, 0xa0b0c0d0, 0x0badf00d, 0xffffffff});

  private static DatasetManifest withPages() {
    DatasetManifest m = DatasetManifestTest.sample();
    java.util.List<ShardEntry> shards = new java.util.ArrayList<>(m.shards());
    ShardEntry first = shards.get(0);
    shards.set(0, new ShardEntry(first.path(), first.samples(), 2048, first.checksum(), first.stats(), PAGES));
    return new DatasetManifest(m.fields(), shards, m.recipe(), m.createdBy());
  }

  @Test
  void pageChecksumsRoundTripAndTheChecksumIsWrittenLast() {
    DatasetManifest m = withPages();
    String json = m.toJson();
    DatasetManifest back = DatasetManifest.parse(json);
    assertThat(back).isEqualTo(m);
    assertThat(back.shards().get(0).pageChecksums()).isEqualTo(PAGES);
    assertThat(back.shards().get(1).pageChecksums()).isNull();
    assertThat(back.hasContentChecksum()).isTrue();
    assertThat(back.hasPageChecksums()).isFalse();
    assertThat(json).contains("\"values\": \"01020304a0b0c0d00badf00dffffffff\"").contains("\"page_size\": 2097152,")
        .contains("\"metadata_start\": 1065,").contains("\"allocation_table_start\": 2000,");
    assertThat(json.substring(json.indexOf("\"recipe\""))).contains("\"manifest_checksum\": {");
  }

  @Test
  void anyEditOfTheContentIsRefused() {
    String good = withPages().toJson();
    // each edit leaves a valid manifest: only the checksum can tell
    String[] edits = {
        good.replace("\"max\": 9", "\"max\": 999"),                       // wrong label max: filters would prune
        good.replace("\"samples\": 10", "\"samples\": 11").replace("\"total_samples\": 15", "\"total_samples\": 16"),
        good.replace("\"part-00002-c.beton\"", "\"part-00002-d.beton\""),  // another file
        good.replace("0badf00d", "0badf00e"),                             // a page checksum
        good.replace("\"page_size\": \"8388608\"", "\"page_size\": \"4194304\"")};
    for (String edited : edits) {
      assertThat(edited).isNotEqualTo(good);
      assertThatThrownBy(() -> DatasetManifest.parse(edited))
          .isInstanceOf(ManifestFormatException.class)
          .hasMessageContaining("Invalid manifest at $.manifest_checksum:")
          .hasMessageContaining("does not match its checksum")
          .hasMessageContaining("edited or damaged after it was written");
    }
    String checksum = good.substring(good.indexOf("\"value\": \"", good.indexOf("manifest_checksum")) + 10);
    checksum = checksum.substring(0, 64);
    String forged = good.replace(checksum, "0".repeat(64));
    assertThatThrownBy(() -> DatasetManifest.parse(forged)).hasMessageContaining("the manifest says " + "0".repeat(64));
  }

  @Test
  void anEditedShardCountLeadsWithTheEditAndSaysWhichCountsDisagree() {
    String good = withPages().toJson();
    String edited = good.replace("\"samples\": 10", "\"samples\": 9"); // a shard's count, not the total
    assertThatThrownBy(() -> DatasetManifest.parse(edited))
        .isInstanceOf(ManifestFormatException.class)
        .hasMessageStartingWith("Invalid manifest at $.manifest_checksum: the manifest's content does not match its"
            + " checksum (its SHA-256 is ")
        .hasMessageContaining("it was edited or damaged after it was written, so neither its shards nor its counts"
            + " and statistics can be trusted; total_samples says 15 but its shards hold 14 samples (the sum of"
            + " $.shards[*].samples): the total or a shard's count was changed. Restore it from a copy, or rewrite"
            + " the dataset");
  }

  @Test
  void whitespaceIsNotContent() {
    DatasetManifest m = withPages();
    String reformatted = m.toJson().replace("\n", "\r\n\t").replace(": ", ":");
    assertThat(DatasetManifest.writtenContentSha256(reformatted)).isNull(); // so the content is written again
    assertThat(DatasetManifest.parse(reformatted)).isEqualTo(m);
    String reindented = m.toJson().replace("\n    ", "\n     "); // nested lines only: the top level as written
    assertThat(DatasetManifest.writtenContentSha256(reindented)).isNotNull().isNotEqualTo(m.contentSha256());
    assertThat(DatasetManifest.parse(reindented)).isEqualTo(m);
  }

  @Test
  void theTextAsWrittenHasTheContentChecksumWithoutWritingTheContentAgain() {
    for (DatasetManifest m : new DatasetManifest[] {withPages(), DatasetManifestTest.sample()}) {
      String json = m.toJson();
      assertThat(DatasetManifest.writtenContentSha256(json)).isEqualTo(m.contentSha256());
      assertThat(json).contains("\"value\": \"" + m.contentSha256() + "\"");
    }
    // a member after the checksum (here a second recipe) is refused by the parser, so it can never be outside the
    // text the checksum covers
    String good = withPages().toJson();
    String trailing = good.substring(0, good.lastIndexOf("\n}")) + ",\n  \"recipe\": {}\n}\n";
    assertThatThrownBy(() -> DatasetManifest.parse(trailing)).isInstanceOf(ManifestFormatException.class)
        .hasMessageContaining("duplicate key \"recipe\"");
  }

  @Test
  void aVersion2ManifestNeedsItsChecksum() {
    String good = withPages().toJson();
    String stripped = good.substring(0, good.lastIndexOf(",\n  \"manifest_checksum\"")) + "\n}\n";
    assertThatThrownBy(() -> DatasetManifest.parse(stripped))
        .hasMessageContaining("Invalid manifest at $:").hasMessageContaining("missing required key \"manifest_checksum\"");
  }

  @Test
  void version1ManifestsAreReadUncheckedAndCannotHoldChecksums() {
    DatasetManifest m = DatasetManifestTest.sample();
    String good = m.toJson();
    String v1 = good.substring(0, good.lastIndexOf(",\n  \"manifest_checksum\"")).replace("\"format_version\": 2",
        "\"format_version\": 1") + "\n}\n";
    DatasetManifest back = DatasetManifest.parse(v1);
    assertThat(back).isEqualTo(m);
    assertThat(back.hasContentChecksum()).isFalse();
    // unchecked: an edit passes, as it did before checksums
    assertThat(DatasetManifest.parse(v1.replace("\"max\": 9", "\"max\": 999")).shards().get(0).stats("label").max())
        .isEqualTo(999L);
    String withPages = withPages().toJson();
    String v1WithPages = withPages.substring(0, withPages.lastIndexOf(",\n  \"manifest_checksum\""))
        .replace("\"format_version\": 2", "\"format_version\": 1") + "\n}\n";
    assertThatThrownBy(() -> DatasetManifest.parse(v1WithPages))
        .hasMessageContaining("$.shards[0]").hasMessageContaining("unknown key \"page_checksums\"");
    String v1WithChecksum = good.replace("\"format_version\": 2", "\"format_version\": 1");
    assertThatThrownBy(() -> DatasetManifest.parse(v1WithChecksum))
        .hasMessageContaining("unknown key \"manifest_checksum\"");
  }

  @Test
  void pageChecksumsAreValidated() {
    String good = withPages().toJson();
    assertThatThrownBy(() -> DatasetManifest.parse(good.replace("01020304a0b0c0d00badf00dffffffff", "01020304")))
        .hasMessageContaining("$.shards[0].page_checksums").hasMessageContaining("4 checksum units, but 1 checksums");
    assertThat(good.indexOf("\"crc32c\"")).isLessThan(good.indexOf("deadbeef")); // the first is shard 0's pages
    assertThatThrownBy(() -> DatasetManifest.parse(good.replaceFirst("\"crc32c\"", "\"xxhash\"")))
        .hasMessageContaining("$.shards[0].page_checksums.algorithm")
        .hasMessageContaining("expected \"crc32c\"");
    assertThatThrownBy(() -> DatasetManifest.parse(good.replace("\"data_start\": 1105", "\"data_start\": 1000")))
        .hasMessageContaining("regions must follow one another");
    assertThatThrownBy(() -> new ShardEntry("a.beton", 1, 2047, new ShardChecksum("crc32c", "01234567"), Map.of(),
        PAGES)).hasMessageContaining("Shard 'a.beton' is 2047 bytes but its page checksums describe 2048");
  }
}
