// bench/halide_peer.cc — the Halide peer (see halide_peer.h).
//
// Each pipeline states its output's extents (set_estimate) so that Adams2019
// can schedule it; MachineParams tells it the threads it may use, and
// HL_NUM_THREADS (set by the caller's environment) sizes Halide's pool. The
// reduction is its own Func under an output that copies it, the form
// Adams2019 needs to compute it in register tiles of the output (a lone
// reduction Func gets a vectorized loop and no tiling: 13x slower on a
// 512x512x512 product here). The plugin's default search (beam size 1)
// chose the same schedules here as HL_BEAM_SIZE=32, in seconds instead of
// minutes.
#include "bench/halide_peer.h"

#include <Halide.h>

#include <cstdio>
#include <exception>

#include "bench/timing.h"

namespace accelc::bench {

namespace {

/// Where Debian's libhalide14-0-dev puts the Adams2019 autoscheduler.
constexpr const char* kAdams2019 = "/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_adams2019.so";

/// Schedules an output copying `reduction` with Adams2019, compiles it and times it into `into`.
double scheduleAndTime(Halide::Func reduction, Halide::Buffer<float>& into, int threads) {
  static const bool loaded = [] {
    Halide::load_plugin(kAdams2019);
    return true;
  }();
  (void)loaded;
  Halide::Func out("out");
  out(Halide::_) = reduction(Halide::_);
  for (int d = 0; d < into.dimensions(); ++d) out.set_estimate(out.args()[static_cast<size_t>(d)], 0, into.dim(d).extent());
  Halide::Pipeline p(out);
  const Halide::Target t = Halide::get_jit_target_from_environment();
  p.auto_schedule("Adams2019", t, Halide::MachineParams(threads, 32 << 20, 40));
  p.compile_jit(t);
  return medianMs([&] { p.realize(into); });
}

template <typename F>
double guarded(F f) {
  try {
    return f();
  } catch (const std::exception& e) {  // Halide reports its errors as exceptions
    std::fprintf(stderr, "Halide: %s\n", e.what());
    return -1;
  }
}

}  // namespace

double halideConv(const runtime::Tensor& x, const runtime::Tensor& w, const runtime::Tensor& b, int64_t stride,
                  int64_t group, int threads, runtime::Tensor& y) {
  return guarded([&] {
    const int c = static_cast<int>(x.dim(1)), h = static_cast<int>(x.dim(2)), wd = static_cast<int>(x.dim(3));
    const int m = static_cast<int>(w.dim(0)), k = static_cast<int>(w.dim(3)), cg = c / static_cast<int>(group);
    const int mg = m / static_cast<int>(group), pad = k / 2, s = static_cast<int>(stride);
    const int oh = static_cast<int>(y.dim(2)), ow = static_cast<int>(y.dim(3));
    // Halide's first dimension is the innermost: NCHW is (w, h, c).
    Halide::Buffer<float> in(const_cast<float*>(x.data<float>()), wd, h, c);
    Halide::Buffer<float> wt(const_cast<float*>(w.data<float>()), k, k, cg, m);
    Halide::Buffer<float> bias(const_cast<float*>(b.data<float>()), m);
    Halide::Buffer<float> out(y.data<float>(), ow, oh, m);
    Halide::Func padded = Halide::BoundaryConditions::constant_exterior(in, 0.0f);
    Halide::Var ox("ox"), oy("oy"), om("om");
    Halide::RDom r(0, k, 0, k, 0, cg);
    Halide::Func conv("conv");
    conv(ox, oy, om) = bias(om);
    conv(ox, oy, om) += wt(r.x, r.y, r.z, om) * padded(ox * s + r.x - pad, oy * s + r.y - pad, (om / mg) * cg + r.z);
    return scheduleAndTime(conv, out, threads);
  });
}

double halideMatmul(const runtime::Tensor& a, const runtime::Tensor& b, int threads, runtime::Tensor& y) {
  return guarded([&] {
    const int m = static_cast<int>(a.dim(0)), k = static_cast<int>(a.dim(1)), n = static_cast<int>(b.dim(1));
    Halide::Buffer<float> ha(const_cast<float*>(a.data<float>()), k, m), hb(const_cast<float*>(b.data<float>()), n, k);
    Halide::Buffer<float> out(y.data<float>(), n, m);
    Halide::Var j("j"), i("i");
    Halide::RDom r(0, k);
    Halide::Func mm("matmul");
    mm(j, i) = 0.0f;
    mm(j, i) += ha(r, i) * hb(j, r);
    return scheduleAndTime(mm, out, threads);
  });
}

}  // namespace accelc::bench
