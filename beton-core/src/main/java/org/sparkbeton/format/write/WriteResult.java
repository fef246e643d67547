package org.sparkbeton.format.write;

/**
 * What {@link BetonWriter#finish()} produced. {@code numPages}: pages holding data (FFCV layout: the
 * data region's whole pages; COMPACT: the pages its data touches, the first one shared with the
 * metadata). {@code dataStart}: the first data byte (FFCV: the page-aligned D0; COMPACT: the metadata
 * end, unless the first sample did not fit the rest of that page); the metadata end when there is no data.
 */
public record WriteResult(long numSamples, long numPages, long pageSize, long dataStart, long allocTablePtr,
    long allocationCount, long fileSize) {
}
