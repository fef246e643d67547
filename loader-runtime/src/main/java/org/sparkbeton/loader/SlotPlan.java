package org.sparkbeton.loader;

import java.util.ArrayList;
import java.util.List;
import org.sparkbeton.loader.pipeline.BatchOperation;
import org.sparkbeton.loader.pipeline.PlannedPipeline;

/**
 * Slot regions of each output: where the per-sample rows go, and each batch step's input and output.
 * Regions 0..n-1 hold each output's final rows; an output whose batch tail works out of place gets
 * extra regions for the rows before it and between its steps, chosen so the tail ends in region o.
 *
 * @param rowBytes bytes of one row of each region (the slot ring's layout)
 * @param perSample region the per-sample steps of output o write
 * @param tailIn region batch step j of output o reads
 * @param tailOut region batch step j of output o writes
 */
record SlotPlan(int[] rowBytes, int[] perSample, int[][] tailIn, int[][] tailOut) {

  static SlotPlan of(List<PlannedPipeline> planned) {
    List<Integer> rowList = new ArrayList<>();
    for (PlannedPipeline p : planned) {
      rowList.add(p.spec().bytes());
    }
    int n = planned.size();
    int[] perSample = new int[n];
    int[][] tailIn = new int[n][];
    int[][] tailOut = new int[n][];
    for (int o = 0; o < n; o++) {
      List<BatchOperation.BatchStage> tail = planned.get(o).tail();
      int lastOutOfPlace = -1;
      for (int j = 0; j < tail.size(); j++) {
        lastOutOfPlace = tail.get(j).inPlace() ? lastOutOfPlace : j;
      }
      int cur = o;
      if (lastOutOfPlace >= 0) {
        cur = rowList.size();
        rowList.add(planned.get(o).rowSpec().bytes());
      }
      perSample[o] = cur;
      tailIn[o] = new int[tail.size()];
      tailOut[o] = new int[tail.size()];
      for (int j = 0; j < tail.size(); j++) {
        tailIn[o][j] = cur;
        if (!tail.get(j).inPlace()) {
          if (j == lastOutOfPlace) {
            cur = o;
          } else {
            cur = rowList.size();
            rowList.add(tail.get(j).output().bytes());
          }
        }
        tailOut[o][j] = cur;
      }
    }
    return new SlotPlan(rowList.stream().mapToInt(Integer::intValue).toArray(), perSample, tailIn, tailOut);
  }
}
