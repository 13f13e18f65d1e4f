// compiler/quant/quantize.h — post-training quantization to accelc's integer graph.
//
// The flow: a float graph whose activation values carry quantization
// parameters (from the Q/DQ pairs of an imported int8 model — stripQdq — or
// from calibration — calibrate) becomes an integer graph: QuantizeLinear at the
// inputs, int8 QConv/QGemm/QAdd/MaxPool/Flatten/Reshape on the accelerator-
// friendly path, DequantizeLinear where a float op or a graph output needs
// float. Weights are symmetric int8 per output channel, activations int8 per
// tensor; a uint8 activation with zero point z is stored as int8 with zero
// point z - 128 (uint8 - 128), exactly; padding uses the zero point
// (QConv's pad_value) and the rest of the zero point is folded into the bias,
// exactly. Requantization is the normative mulq + rounding shift + clamp.
#ifndef ACCELC_COMPILER_QUANT_QUANTIZE_H_
#define ACCELC_COMPILER_QUANT_QUANTIZE_H_

#include <string>
#include <vector>

#include "compiler/graph/graph.h"
#include "support/status.h"

namespace accelc::compiler {

/// A factor whose unshifted Q31 multiplier round(real · 2^31) is at least
/// 2^kShiftlessBits (over 20 significant bits) needs no shift.
inline constexpr int kShiftlessBits = 20;
/// A Q31 multiplier and right shift: real ≈ mult · 2^-31 · 2^-shift. Either
/// shift 0 (the accelerator then skips the rounding shift), or mult normalized
/// to [2^30, 2^31) with shift in [1, 31].
struct Requant {
  int32_t mult = 0;   ///< Q31 multiplier
  int32_t shift = 0;  ///< rounding right shift
};
/// The requantization of a real factor in (0, 1); nullopt outside what the
/// ALU can express (factor >= 1 or below 2^-32).
std::optional<Requant> requantOf(double real);

/// Removes the Q/DQ pairs of an imported int8 (QDQ) model: every activation
/// between a QuantizeLinear and its DequantizeLinear keeps the pair's scale and
/// zero point as its `quant`, and every dequantized constant becomes a float
/// constant that remembers its scale (so its integers are recovered exactly).
support::Status stripQdq(Graph& g);

/// Runs the float graph on every calibration input and gives each activation
/// value symmetric int8 parameters from its observed range: the maximum of
/// |min| and |max|, or with `percentile` < 100 that percentile of |x|. A max
/// pool's, reshape's or slice's output shares its input's parameters (it only
/// moves values), and the inputs of a Concat that only it reads share the
/// Concat's, so that it copies (and on the accelerator, costs nothing); each
/// group of values joined so takes the widest range among them.
support::Status calibrate(Graph& g, const std::vector<std::vector<Tensor>>& samples, double percentile = 100.0);

/// The integer graph of a float graph whose activations carry quantization
/// parameters. Layers that cannot be quantized stay float (and say why in
/// `notes`, one line per layer).
support::Expected<Graph> quantizeGraph(const Graph& g, std::vector<std::string>* notes = nullptr);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_QUANT_QUANTIZE_H_
