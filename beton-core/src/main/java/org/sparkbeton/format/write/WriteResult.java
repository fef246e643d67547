package org.sparkbeton.format.write;

/** What {@link BetonWriter#finish()} produced. */
public record WriteResult(long numSamples, long numPages, long pageSize, long dataStart, long allocTablePtr,
    long allocationCount, long fileSize) {
}
