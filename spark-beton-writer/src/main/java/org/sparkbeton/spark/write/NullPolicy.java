package org.sparkbeton.spark.write;

/** Option {@link BetonWriteOptions#NULL_POLICY}: what happens to a row with a null value. */
enum NullPolicy {
  /** the task fails, naming the row and column */
  FAIL,
  /** the row is left out and counted */
  SKIP
}
