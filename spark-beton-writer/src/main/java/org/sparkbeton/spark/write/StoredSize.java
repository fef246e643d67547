package org.sparkbeton.spark.write;

/** The size an image is stored at, in pixels ({@link ImageEncoder#targetSize}: FFCV's resize rules applied). */
record StoredSize(int width, int height) {}
