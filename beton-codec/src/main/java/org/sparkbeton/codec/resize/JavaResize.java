package org.sparkbeton.codec.resize;

import java.nio.ByteBuffer;

import static org.sparkbeton.codec.resize.Resizer.MAX_PREC_X;
import static org.sparkbeton.codec.resize.Resizer.MAX_PREC_Y;
import static org.sparkbeton.codec.resize.Resizer.MID_BITS;
import static org.sparkbeton.codec.resize.Resizer.PREC;

/**
 * The Java twin of the native resize: {@link Resizer}'s integer area and bilinear passes over heap or direct
 * buffers, with their weight tables and row scratch, grown only when a larger image arrives so that steady-state
 * calls do not allocate. One per {@link Resizer}, so one per thread. Arguments arrive checked.
 */
final class JavaResize {
  private int[] xIdx = new int[0];
  private int[] xWeight = new int[0];
  private int[] xStart = new int[1];
  private int[] yIdx = new int[0];
  private int[] yWeight = new int[0];
  private double[] wScratch = new double[0];
  private int[] acc = new int[0];
  private byte[] row0 = new byte[0];
  private byte[] row1 = new byte[0];
  private byte[] outRow = new byte[0];

  /**
   * Area resize of {@code ch} interleaved channels (3 or 1). {@code base} is the byte offset of global source
   * pixel (0, 0), possibly outside the buffer; output column/row i of the window is window column/row
   * {@code columns[i]}/{@code rows[i]} (null: i); output rows are {@code dstStride} bytes apart.
   */
  void area(ByteBuffer src, int base, int srcStride, int ch, int w, int h, double sx, double sy,
      int outX, int outY, ByteBuffer dst, int dstOffset, int dstStride, int outW, int outH, int[] columns,
      int[] rows) {
    // an axis whose last window runs past the edge (areaPlane's registered chroma) can leave one pixel the whole
    // weight, which only PREC bits hold in a 16-bit lane
    int precX = (outX + outW) * sx > w + 1e-9 ? PREC : Resizer.areaPrecision(sx, MAX_PREC_X);
    int precY = (outY + outH) * sy > h + 1e-9 ? PREC : Resizer.areaPrecision(sy, MAX_PREC_Y);
    buildAreaTable(w, ch, outX, outW, sx, precX, columns);
    int c0 = Integer.MAX_VALUE;
    int c1 = 0;
    for (int ox = 0; ox < outW; ox++) {
      c0 = Math.min(c0, xIdx[xStart[ox]]);
      c1 = Math.max(c1, xIdx[xStart[ox + 1] - 1] + ch);
    }
    int rowLen = c1 - c0;
    int maxRows = (int) sy + 2;
    yIdx = grow(yIdx, maxRows);
    yWeight = grow(yWeight, maxRows);
    wScratch = grow(wScratch, maxRows);
    row0 = grow(row0, rowLen);
    acc = grow(acc, rowLen);
    outRow = grow(outRow, outW * ch);
    byte[] row = row0;
    int[] a = acc;
    int[] starts = xStart;
    int[] idx = xIdx;
    int[] wts = xWeight;
    int vShift = precY - MID_BITS;
    int hShift = precX + MID_BITS;
    int out = dstOffset;
    for (int j = 0; j < outH; j++) {
      int oy = outY + (rows == null ? j : rows[j]);
      int n = areaTaps(oy * sy, (oy + 1) * sy, h, sy, precY, yIdx, yWeight, 0);
      // vertical pass: weighted sum of the contributing source rows over the needed columns, 7 fraction bits
      java.util.Arrays.fill(a, 0, rowLen, 1 << (vShift - 1));
      for (int k = 0; k < n; k++) {
        int wy = yWeight[k];
        src.get(base + yIdx[k] * srcStride + c0, row, 0, rowLen);
        for (int i = 0; i < rowLen; i++) {
          a[i] += wy * (row[i] & 0xFF);
        }
      }
      for (int i = 0; i < rowLen; i++) {
        a[i] >>= vShift;
      }
      // horizontal pass: the output pixel's taps over that row
      byte[] o = outRow;
      int bias = 1 << (hShift - 1);
      if (ch == 1) {
        for (int ox = 0; ox < outW; ox++) {
          int v = bias;
          for (int k = starts[ox]; k < starts[ox + 1]; k++) {
            v += wts[k] * a[idx[k] - c0];
          }
          o[ox] = (byte) Math.min(v >> hShift, 255);
        }
      } else {
        for (int ox = 0; ox < outW; ox++) {
          int cr = bias;
          int cg = bias;
          int cb = bias;
          for (int k = starts[ox]; k < starts[ox + 1]; k++) {
            int p = idx[k] - c0;
            int wx = wts[k];
            cr += wx * a[p];
            cg += wx * a[p + 1];
            cb += wx * a[p + 2];
          }
          o[ox * 3] = (byte) Math.min(cr >> hShift, 255);
          o[ox * 3 + 1] = (byte) Math.min(cg >> hShift, 255);
          o[ox * 3 + 2] = (byte) Math.min(cb >> hShift, 255);
        }
      }
      dst.put(out, o, 0, outW * ch);
      out += dstStride;
    }
  }

  /**
   * Bilinear resize of {@code ch} interleaved channels (3 or 1) of the box whose first pixel is at byte
   * {@code base}; output rows {@code dstStride} bytes apart, maps as in {@link #area}.
   */
  void bilinear(ByteBuffer src, int base, int srcStride, int ch, int w, int h, ByteBuffer dst,
      int dstOffset, int dstStride, int outW, int outH, int[] columns, int[] rows) {
    double sx = (double) w / outW;
    double sy = (double) h / outH;
    int one = 1 << PREC;
    xIdx = grow(xIdx, outW * 2);
    xWeight = grow(xWeight, outW);
    for (int ox = 0; ox < outW; ox++) {
      double fx = ((columns == null ? ox : columns[ox]) + 0.5) * sx - 0.5;
      int x0 = (int) Math.floor(fx);
      double ax = fx - x0;
      if (x0 < 0) {
        x0 = 0;
        ax = 0;
      }
      if (x0 >= w - 1) {
        x0 = w - 1;
        ax = 0;
      }
      xIdx[2 * ox] = x0 * ch;
      xIdx[2 * ox + 1] = Math.min(x0 + 1, w - 1) * ch;
      xWeight[ox] = (int) Math.floor(ax * one + 0.5);
    }
    int rowLen = w * ch;
    row0 = grow(row0, rowLen);
    row1 = grow(row1, rowLen);
    acc = grow(acc, rowLen);
    outRow = grow(outRow, outW * ch);
    byte[] o = outRow;
    int vShift = PREC - MID_BITS;
    int hShift = PREC + MID_BITS;
    int out = dstOffset;
    int loaded0 = -1;
    int loaded1 = -1;
    for (int oy = 0; oy < outH; oy++) {
      double fy = ((rows == null ? oy : rows[oy]) + 0.5) * sy - 0.5;
      int y0 = (int) Math.floor(fy);
      double ay = fy - y0;
      if (y0 < 0) {
        y0 = 0;
        ay = 0;
      }
      if (y0 >= h - 1) {
        y0 = h - 1;
        ay = 0;
      }
      int y1 = Math.min(y0 + 1, h - 1);
      if (loaded0 != y0) {
        if (loaded1 == y0) {
          byte[] t = row0;
          row0 = row1;
          row1 = t;
          loaded1 = -1;
        } else {
          src.get(base + y0 * srcStride, row0, 0, rowLen);
        }
        loaded0 = y0;
      }
      if (loaded1 != y1) {
        src.get(base + y1 * srcStride, row1, 0, rowLen);
        loaded1 = y1;
      }
      // vertical blend of the two rows first (7 fraction bits kept), then horizontal per output pixel
      int qy = (int) Math.floor(ay * one + 0.5);
      int wy0 = one - qy;
      byte[] a = row0;
      byte[] b = row1;
      int[] v = acc;
      int vBias = 1 << (vShift - 1);
      for (int i = 0; i < rowLen; i++) {
        v[i] = (wy0 * (a[i] & 0xFF) + qy * (b[i] & 0xFF) + vBias) >> vShift;
      }
      int hBias = 1 << (hShift - 1);
      for (int ox = 0; ox < outW; ox++) {
        int p0 = xIdx[2 * ox];
        int p1 = xIdx[2 * ox + 1];
        int qx = xWeight[ox];
        int wx0 = one - qx;
        for (int c = 0; c < ch; c++) {
          o[ox * ch + c] = (byte) Math.min((wx0 * v[p0 + c] + qx * v[p1 + c] + hBias) >> hShift, 255);
        }
      }
      dst.put(out, o, 0, outW * ch);
      out += dstStride;
    }
  }

  private void buildAreaTable(int w, int ch, int outX, int outW, double sx, int prec, int[] columns) {
    int maxTaps = (int) sx + 2; // a window of width sx >= 1 touches at most floor(sx) + 2 source pixels
    xIdx = grow(xIdx, outW * maxTaps);
    xWeight = grow(xWeight, outW * maxTaps);
    xStart = grow(xStart, outW + 1);
    wScratch = grow(wScratch, maxTaps);
    int k = 0;
    for (int ox = 0; ox < outW; ox++) {
      xStart[ox] = k;
      int col = outX + (columns == null ? ox : columns[ox]);
      int n = areaTaps(col * sx, (col + 1) * sx, w, sx, prec, xIdx, xWeight, k);
      for (int t = k; t < k + n; t++) {
        xIdx[t] *= ch; // column -> byte offset
      }
      k += n;
    }
    xStart[outW] = k;
  }

  /**
   * The source pixels (columns or rows below {@code limit}) the output window {@code [f0, f1)} covers, from
   * index {@code at} of {@code idx}, with their weights {@code cover / scale} quantised to {@code prec} bits
   * in {@code q}. Returns how many. Uses {@link #wScratch}, which must hold {@code (int) scale + 2}.
   */
  private int areaTaps(double f0, double f1, int limit, double scale, int prec, int[] idx, int[] q, int at) {
    int i0 = (int) f0;
    int i1 = Math.min(limit, (int) Math.ceil(f1 - 1e-9));
    double[] wt = wScratch;
    int n = 0;
    for (int i = i0; i < i1; i++) {
      double cover = Math.min(f1, i + 1) - Math.max(f0, i);
      if (cover > 1e-9) {
        idx[at + n] = i;
        wt[n] = cover / scale;
        n++;
      }
    }
    if (n > 0) {
      Resizer.quantize(wt, n, prec, q, at);
    }
    return n;
  }

  private static int[] grow(int[] a, int n) {
    return a.length >= n ? a : new int[Math.max(n, a.length * 3 / 2)];
  }

  private static double[] grow(double[] a, int n) {
    return a.length >= n ? a : new double[Math.max(n, a.length * 3 / 2)];
  }

  private static byte[] grow(byte[] a, int n) {
    return a.length >= n ? a : new byte[Math.max(n, a.length * 3 / 2)];
  }
}
