package org.sparkbeton.spark.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkbeton.format.BetonFormatException;
import org.sparkbeton.format.BetonReader;
import org.sparkbeton.format.FieldTypes;
import org.sparkbeton.format.fields.RgbImageField;
import org.sparkbeton.format.io.BetonSource;

/**
 * {@code GROUP BY} over scalar columns with {@code COUNT}, {@code MIN} and {@code MAX}, computed from the
 * shards' metadata records alone: header, descriptors and the fixed-width records, never a data page or the
 * allocation table. The Spark reader runs it on the driver for datasets small enough (a few dozen bytes per
 * sample), which turns a label histogram into one sequential read of the metadata instead of a Spark job
 * with a shuffle.
 *
 * <p>Semantics follow Spark's: groups compare floating keys after turning -0.0 into 0.0 and every NaN into
 * one NaN; {@code MIN}/{@code MAX} order doubles with NaN above everything and -0.0 equal to 0.0; with no
 * grouping column the result is one row even for an empty input ({@code COUNT} 0, {@code MIN}/{@code MAX}
 * null). beton values are never null, so {@code COUNT(column)} equals {@code COUNT(*)}. A corrupt shard
 * fails the run with the format core's message, or with {@code ignoreCorruptFiles} is left out whole.
 */
final class MetadataAggregation {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataAggregation.class);

  /** The aggregate functions it computes. */
  enum Function { COUNT, MIN, MAX }

  /** One aggregate: {@code column} is null for {@code COUNT(*)}. */
  record Aggregate(Function function, BetonSchema.Column column) {}

  /** How a column's value sits in a record, as the 64 bits the accumulators keep. */
  private enum Kind { LONG, DOUBLE, UNSIGNED_SHORT }

  private final BetonSchema schema;
  private final List<BetonSchema.Column> groupBy;
  private final List<Aggregate> aggregates;
  private long bytesRead;
  private long samplesRead;
  private long corruptShardsSkipped;
  private long missingShardsSkipped;

  MetadataAggregation(BetonSchema schema, List<BetonSchema.Column> groupBy, List<Aggregate> aggregates) {
    for (BetonSchema.Column c : groupBy) {
      requireScalar(c);
    }
    for (Aggregate a : aggregates) {
      if (a.column() != null) {
        requireScalar(a.column());
      } else if (a.function() != Function.COUNT) {
        throw new IllegalArgumentException(a.function() + " needs a column");
      }
    }
    this.schema = schema;
    this.groupBy = List.copyOf(groupBy);
    this.aggregates = List.copyOf(aggregates);
  }

  /**
   * What this aggregation computes, in its own terms: {@code GROUP BY label, image_width: COUNT(*), MIN(score)}
   * ({@code GROUP BY ()} for none; {@code COUNT(column)} is {@code COUNT(*)}, beton values are never null). Two
   * aggregations over the same records give the same rows exactly when they describe themselves alike, so the
   * driver's memo ({@link MetadataAnswers}) keys on this, never on Spark's rendering of the query, which is
   * Spark's to change between releases.
   */
  String describe() {
    StringBuilder b = new StringBuilder("GROUP BY ");
    b.append(groupBy.isEmpty() ? "()" : String.join(", ", groupBy.stream().map(BetonSchema.Column::name).toList()));
    String sep = ": ";
    for (Aggregate a : aggregates) {
      b.append(sep).append(a.function()).append('(').append(a.column() == null ? "*" : a.column().name()).append(')');
      sep = ", ";
    }
    return b.toString();
  }

  /** True when {@code column} is a value this class can read from a record: Int, Float, image width/height. */
  static boolean supports(BetonSchema.Column column) {
    return kind(column) != null;
  }

  private static Kind kind(BetonSchema.Column c) {
    if (c.part() == BetonSchema.Part.WIDTH || c.part() == BetonSchema.Part.HEIGHT) {
      return Kind.UNSIGNED_SHORT;
    }
    if (c.part() != BetonSchema.Part.VALUE) {
      return null;
    }
    return switch (c.field().typeId()) {
      case FieldTypes.INT -> Kind.LONG;
      case FieldTypes.FLOAT -> Kind.DOUBLE;
      default -> null;
    };
  }

  private static void requireScalar(BetonSchema.Column c) {
    if (!supports(c)) {
      throw new IllegalArgumentException("column '" + c.name() + "' is not an Int, Float or image size column");
    }
  }

  /**
   * Reads every shard's records and returns one row per group: the grouping values, then the aggregates,
   * as their columns' Spark values ({@code Long} for counts and Int fields, {@code Double} for Float fields, the
   * narrower type where the dataset's writer recorded one, {@code Integer} for image sizes);
   * {@code MIN}/{@code MAX} of an empty input are null.
   */
  List<Object[]> run(List<DatasetInputs.Shard> shards, ReadConf conf, Configuration hadoopConf) throws IOException {
    Map<Key, long[]> groups = new LinkedHashMap<>();
    Key probe = new Key(new long[groupBy.size()]);
    for (DatasetInputs.Shard shard : shards) {
      BetonSource source = null;
      // with ignoreCorruptFiles each shard is aggregated on its own and merged once whole, so a corrupt one can be
      // left out whole; without it a corrupt shard fails the run, and the records go straight into the total
      Map<Key, long[]> shardGroups = conf.ignoreCorruptFiles() ? new LinkedHashMap<>() : groups;
      try {
        source = HadoopBetonSource.open(new Path(shard.path()), hadoopConf,
            ShardOpener.checksPages(shard.pages(), conf));
        try (BetonReader reader = ShardOpener.open(source, shard.bytes(),
            shard.listedInManifest() ? shard.samples() : -1, shard.pages(), schema, conf, true)) {
          aggregate(reader, shardGroups, probe);
        }
        if (shardGroups != groups) {
          merge(shardGroups, groups);
        }
      } catch (java.io.FileNotFoundException e) {
        if (!conf.ignoreMissingFiles()) {
          throw e;
        }
        LOG.warn("Skipping missing shard {} in an aggregate because {} is set: {}", shard.path(),
            BetonReadOptions.IGNORE_MISSING_FILES, e.getMessage());
        missingShardsSkipped++;
      } catch (BetonFormatException | IOException | java.io.UncheckedIOException e) {
        if (!conf.ignoreCorruptFiles()) {
          throw e;
        }
        // as a scan with ignoreCorruptFiles would: leave the shard out (here nothing of it is counted)
        LOG.warn("Skipping corrupt shard {} in an aggregate because {} is set: {}", shard.path(),
            BetonReadOptions.IGNORE_CORRUPT_FILES, e.getMessage());
        corruptShardsSkipped++;
      } finally {
        if (source != null) {
          bytesRead += source.bytesRead();
        }
      }
    }
    List<Object[]> rows = new ArrayList<>(Math.max(1, groups.size()));
    if (groups.isEmpty() && groupBy.isEmpty()) {
      Object[] row = new Object[aggregates.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = aggregates.get(i).function() == Function.COUNT ? (Object) 0L : null;
      }
      rows.add(row);
      return rows;
    }
    for (Map.Entry<Key, long[]> g : groups.entrySet()) {
      Object[] row = new Object[groupBy.size() + aggregates.size()];
      for (int i = 0; i < groupBy.size(); i++) {
        row[i] = box(groupBy.get(i), g.getKey().values[i]);
      }
      for (int i = 0; i < aggregates.size(); i++) {
        Aggregate a = aggregates.get(i);
        long v = g.getValue()[i];
        row[groupBy.size() + i] = a.function() == Function.COUNT ? (Object) v : box(a.column(), v);
      }
      rows.add(row);
    }
    return rows;
  }

  /** Shards left out as corrupt (only with {@code ignoreCorruptFiles}). */
  long corruptShardsSkipped() {
    return corruptShardsSkipped;
  }

  /** Shards left out as missing (only with {@code ignoreMissingFiles}). */
  long missingShardsSkipped() {
    return missingShardsSkipped;
  }

  /** Adds one shard's groups into the total: counts add up, MIN/MAX keep the better. */
  private void merge(Map<Key, long[]> shard, Map<Key, long[]> total) {
    for (Map.Entry<Key, long[]> e : shard.entrySet()) {
      long[] into = total.putIfAbsent(e.getKey(), e.getValue());
      if (into == null) {
        continue;
      }
      long[] from = e.getValue();
      for (int a = 0; a < aggregates.size(); a++) {
        Aggregate agg = aggregates.get(a);
        if (agg.function() == Function.COUNT) {
          into[a] += from[a];
        } else if (better(agg.function(), kind(agg.column()), from[a], into[a])) {
          into[a] = from[a];
        }
      }
    }
  }

  /** Bytes the last {@link #run} read from the shards (header, descriptors, records). */
  long bytesRead() {
    return bytesRead;
  }

  long samplesRead() {
    return samplesRead;
  }

  private void aggregate(BetonReader reader, Map<Key, long[]> groups, Key probe) {
    int[] keyAt = offsets(reader, groupBy);
    Kind[] keyKind = groupBy.stream().map(MetadataAggregation::kind).toArray(Kind[]::new);
    List<BetonSchema.Column> aggColumns = aggregates.stream().map(Aggregate::column).toList();
    int[] aggAt = offsets(reader, aggColumns);
    Kind[] aggKind = aggColumns.stream().map(c -> c == null ? null : kind(c)).toArray(Kind[]::new);
    Function[] fn = aggregates.stream().map(Aggregate::function).toArray(Function[]::new);

    long n = reader.numSamples();
    RecordWindow records = new RecordWindow(reader, n);
    for (long s = 0; s < n; s++) {
      ByteBuffer chunk = records.bufferFor(s);
      int rec = records.offset(s);
      for (int k = 0; k < keyAt.length; k++) {
        probe.values[k] = groupingBits(keyKind[k], read(keyKind[k], chunk, rec + keyAt[k]));
      }
      long[] acc = groups.get(probe);
      boolean first = acc == null;
      if (first) {
        acc = new long[fn.length];
        groups.put(new Key(probe.values.clone()), acc);
      }
      for (int a = 0; a < fn.length; a++) {
        if (fn[a] == Function.COUNT) {
          acc[a]++;
          continue;
        }
        long v = read(aggKind[a], chunk, rec + aggAt[a]);
        if (first || better(fn[a], aggKind[a], v, acc[a])) {
          acc[a] = v;
        }
      }
    }
    samplesRead += n;
  }

  /** Byte offset inside a record of each column's value (image sizes: inside the image field's metadata). */
  private static int[] offsets(BetonReader reader, List<BetonSchema.Column> columns) {
    int[] at = new int[columns.size()];
    for (int i = 0; i < at.length; i++) {
      BetonSchema.Column c = columns.get(i);
      if (c == null) {
        continue;
      }
      int base = reader.layout().offset(reader.fieldIndex(c.field().name()));
      at[i] = switch (c.part()) {
        case WIDTH -> base + RgbImageField.WIDTH;
        case HEIGHT -> base + RgbImageField.HEIGHT;
        default -> base;
      };
    }
    return at;
  }

  private static long read(Kind kind, ByteBuffer chunk, int at) {
    return switch (kind) {
      case LONG -> chunk.getLong(at);
      case DOUBLE -> Double.doubleToRawLongBits(chunk.getDouble(at));
      case UNSIGNED_SHORT -> Short.toUnsignedInt(chunk.getShort(at));
    };
  }

  /** Spark groups -0.0 with 0.0 and all NaNs together (its NormalizeFloatingNumbers rule). */
  private static long groupingBits(Kind kind, long bits) {
    if (kind != Kind.DOUBLE) {
      return bits;
    }
    double d = Double.longBitsToDouble(bits);
    if (Double.isNaN(d)) {
      return Double.doubleToLongBits(Double.NaN);
    }
    return d == 0.0 ? 0L : bits;
  }

  /** True when {@code v} replaces {@code current} as the MIN or MAX so far. */
  private static boolean better(Function fn, Kind kind, long v, long current) {
    int cmp = kind == Kind.DOUBLE
        ? compareDoubles(Double.longBitsToDouble(v), Double.longBitsToDouble(current))
        : Long.compare(v, current);
    return fn == Function.MIN ? cmp < 0 : cmp > 0;
  }

  /** Spark's double ordering: NaN above everything, -0.0 equal to 0.0. */
  static int compareDoubles(double x, double y) {
    return x == y ? 0 : Double.compare(x, y);
  }

  /**
   * Column {@code c}'s value from its bits: as its Spark type, which for Int and Float fields may be the narrower one
   * the dataset's writer recorded ({@link BetonSchema}); a value outside it fails, as the rows' read would.
   */
  private static Object box(BetonSchema.Column c, long bits) {
    Kind kind = kind(c);
    if (kind == Kind.UNSIGNED_SHORT) {
      return (int) bits;
    }
    DataType type = c.structField().dataType();
    if (kind == Kind.DOUBLE) {
      double d = Double.longBitsToDouble(bits);
      if (type instanceof DecimalType decimal) {
        // the float64s of a decimal column order as its decimals do, and each gives back its decimal
        Decimal value = NarrowColumn.decimal(d, decimal);
        requireFits(value != null, c, d);
        return value;
      }
      if (type != DataTypes.FloatType) {
        return d;
      }
      requireFits(NarrowColumn.floatFits(d), c, d);
      return (float) d;
    }
    NarrowColumn narrow = NarrowColumn.ofInteger(type);
    if (narrow == null) {
      return bits;
    }
    requireFits(narrow.fits(bits), c, bits);
    return narrow.value(bits);
  }

  private static void requireFits(boolean fits, BetonSchema.Column c, Object value) {
    if (!fits) {
      throw new IllegalStateException("Field '" + c.field().name() + "' holds " + value + ", which is not a "
          + c.structField().dataType().simpleString() + ", the column type the dataset's manifest records for it");
    }
  }

  /** A group's key: the grouping values' bits. Mutable only as the lookup probe, never once stored. */
  private static final class Key {
    final long[] values;

    Key(long[] values) {
      this.values = values;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(values, k.values);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(values);
    }
  }
}
