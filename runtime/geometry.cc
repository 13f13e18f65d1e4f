// runtime/geometry.cc — convolution and pool geometry (see geometry.h).
#include "runtime/geometry.h"

#include <algorithm>

namespace accelc::runtime {

void autoPadding(AutoPad mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t& begin, int64_t& end) {
  if (mode == AutoPad::kValid || mode == AutoPad::kNotSet) {
    begin = end = 0;
    return;
  }
  const int64_t out = (in + s - 1) / s, total = std::max<int64_t>(0, (out - 1) * s + (k - 1) * d + 1 - in);
  begin = mode == AutoPad::kSameLower ? total - total / 2 : total / 2;
  end = total - begin;
}

std::string convGeometry(const ConvAttrs& a, const Shape& x, const Shape& w, ConvGeometry& g) {
  const size_t r = x.size();
  if ((r != 3 && r != 4) || w.size() != r)
    return "only 1-D and 2-D convolutions are supported (input rank " + std::to_string(r) + ", weight rank " +
           std::to_string(w.size()) + ")";
  const bool twoD = r == 4;
  g.n = x[0], g.c = x[1], g.h = twoD ? x[2] : 1, g.w = x[r - 1];
  g.m = w[0], g.group = a.group, g.kh = twoD ? w[2] : 1, g.kw = w[r - 1];
  if (g.group < 1 || g.c % g.group || g.m % g.group || w[1] != g.c / g.group)
    return "weight shape " + support::shapeStr(w) + " does not match " + std::to_string(g.c) + " input channels in " +
           std::to_string(g.group) + " groups";
  auto get = [&](const Ints& v, size_t i, int64_t def) { return v.empty() ? def : v[i]; };
  const size_t sp = twoD ? 2 : 1;
  if ((!a.strides.empty() && a.strides.size() != sp) || (!a.dilations.empty() && a.dilations.size() != sp) ||
      (!a.pads.empty() && a.pads.size() != 2 * sp))
    return "strides, dilations or pads do not match the " + std::to_string(sp) + " spatial axes";
  g.sh = twoD ? get(a.strides, 0, 1) : 1, g.sw = get(a.strides, sp - 1, 1);
  g.dh = twoD ? get(a.dilations, 0, 1) : 1, g.dw = get(a.dilations, sp - 1, 1);
  for (int64_t v : {g.sh, g.sw, g.dh, g.dw})
    if (v < 1) return "strides and dilations must be at least 1";
  for (int64_t p : a.pads)
    if (p < 0) return "pads must not be negative";
  if (a.autoPad != AutoPad::kNotSet) {
    if (twoD) autoPadding(a.autoPad, g.h, g.kh, g.sh, g.dh, g.pt, g.pb);
    autoPadding(a.autoPad, g.w, g.kw, g.sw, g.dw, g.pl, g.pr);
  } else if (!a.pads.empty()) {
    g.pt = twoD ? a.pads[0] : 0, g.pl = a.pads[sp - 1], g.pb = twoD ? a.pads[2] : 0, g.pr = a.pads[2 * sp - 1];
  }
  // Checked before dividing: C++ division truncates toward zero, so a room of -1 would give one output.
  const int64_t roomH = g.h + g.pt + g.pb - ((g.kh - 1) * g.dh + 1),
                roomW = g.w + g.pl + g.pr - ((g.kw - 1) * g.dw + 1);
  if (roomH < 0 || roomW < 0) return "the kernel does not fit the padded input";
  g.oh = roomH / g.sh + 1, g.ow = roomW / g.sw + 1;
  return "";
}

std::string poolAxis(const PoolAttrs& a, int64_t in, size_t i, size_t sp, PoolAxis& x) {
  if (a.kernelShape.size() != sp || (!a.strides.empty() && a.strides.size() != sp) ||
      (!a.dilations.empty() && a.dilations.size() != sp) || (!a.pads.empty() && a.pads.size() != 2 * sp))
    return "kernel_shape, strides, dilations and pads must match the " + std::to_string(sp) + " spatial axes";
  x.in = in, x.k = a.kernelShape[i];
  x.s = a.strides.empty() ? 1 : a.strides[i];
  x.d = a.dilations.empty() ? 1 : a.dilations[i];
  if (x.k < 1 || x.s < 1 || x.d < 1) return "kernel_shape, strides and dilations must be at least 1";
  if (a.autoPad == AutoPad::kSameUpper || a.autoPad == AutoPad::kSameLower) {
    autoPadding(a.autoPad, in, x.k, x.s, x.d, x.pb, x.pe);
  } else if (a.autoPad == AutoPad::kNotSet && !a.pads.empty()) {
    x.pb = a.pads[i], x.pe = a.pads[i + sp];
    if (x.pb < 0 || x.pe < 0) return "pads must not be negative";
  }
  const int64_t span = (x.k - 1) * x.d + 1, room = in + x.pb + x.pe - span;
  if (room < 0) return "the pooling window does not fit the padded input";
  x.out = (a.ceilMode ? (room + x.s - 1) / x.s : room / x.s) + 1;
  if (a.ceilMode && (x.out - 1) * x.s >= in + x.pb) --x.out;  // the last window must start inside
  return "";
}

std::string sliceGeometry(const Shape& x, const Ints& starts, const Ints& ends, Ints axes, Ints steps, SliceGeometry& g) {
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return "Slice starts, ends, axes and steps differ in length";
  const int64_t r = static_cast<int64_t>(x.size());
  g.begin.assign(x.size(), 0), g.step.assign(x.size(), 1), g.out = x;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = axes[i] < 0 ? axes[i] + r : axes[i];
    if (ax < 0 || ax >= r || steps[i] == 0) return "Slice axis out of range or step 0";
    const int64_t d = x[static_cast<size_t>(ax)], s = steps[i];
    auto clampIdx = [&](int64_t v, bool isEnd) {  // ONNX: negative steps clamp starts to [0, d-1], ends to [-1, d-1]
      if (v < 0) v += d;
      if (s > 0) return std::clamp<int64_t>(v, 0, d);
      return d == 0 ? int64_t{isEnd ? -1 : 0} : std::clamp<int64_t>(v, isEnd ? -1 : 0, d - 1);
    };
    const int64_t b = clampIdx(starts[i], false), e = clampIdx(ends[i], true);
    g.begin[static_cast<size_t>(ax)] = b, g.step[static_cast<size_t>(ax)] = s;
    g.out[static_cast<size_t>(ax)] = s > 0 ? std::max<int64_t>(0, (e - b + s - 1) / s) : std::max<int64_t>(0, (b - e - s - 1) / -s);
  }
  return "";
}

}  // namespace accelc::runtime
