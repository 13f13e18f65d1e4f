// runtime/kernels/matmul.cc — MatMul (numpy broadcasting), Gemm, MatMulInteger
// and QLinearMatMul, all on one loop nest: y[i][j] += (a[i][k] - azp) · (b[k][j] - bzp[j]).
#include <cmath>

#include "runtime/internal/kernels.h"

namespace accelc::runtime::kernels {

namespace {

/// One matrix product; a is M×K (or K×M when transA), b is K×N (or N×K).
template <typename TA, typename TB, typename TC>
void mmCore(const TA* a, const TB* b, TC* y, int64_t m, int64_t k, int64_t n, bool ta, bool tb,
            const std::vector<TC>& azp, const std::vector<TC>& bzp) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const TC av = static_cast<TC>(ta ? a[p * m + i] : a[i * k + p]) - azp[azp.size() == 1 ? 0 : i];
      TC* row = y + i * n;
      if (tb) {
        for (int64_t j = 0; j < n; ++j) row[j] += av * (static_cast<TC>(b[j * k + p]) - bzp[j]);
      } else {
        const TB* brow = b + p * n;
        for (int64_t j = 0; j < n; ++j) row[j] += av * (static_cast<TC>(brow[j]) - bzp[j]);
      }
    }
}

/// The numpy matmul of inputs ia and ib into an accumulator tensor of dtype TC.
template <typename TC>
Status batchedMatmul(Ctx& c, int ia, int ib, const std::vector<TC>& azp, const std::vector<TC>& bzpIn, Tensor& y) {
  Shape sa = c.in(ia).shape(), sb = c.in(ib).shape();
  if (sa.empty() || sb.empty()) return c.fail("MatMul inputs must have rank at least 1");
  const bool vecA = sa.size() == 1, vecB = sb.size() == 1;
  if (vecA) sa.insert(sa.begin(), 1);
  if (vecB) sb.push_back(1);
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  if (sb[sb.size() - 2] != k)
    return c.fail("shapes " + support::shapeStr(c.in(ia).shape()) + " and " + support::shapeStr(c.in(ib).shape()) +
                  " cannot be multiplied");
  Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2), batch;
  if (!broadcastShape(ba, bb, batch)) return c.fail("batch dimensions do not broadcast");
  Shape outShape = batch;
  if (!vecA) outShape.push_back(m);
  if (!vecB) outShape.push_back(n);
  ACCELC_ASSIGN_OR_RETURN(y, c.alloc(dtypeOf<TC>(), outShape));
  std::vector<TC> bzp = bzpIn.size() == 1 ? std::vector<TC>(n, bzpIn[0]) : bzpIn;
  if (static_cast<int64_t>(bzp.size()) != n) return c.fail("b zero point has " + std::to_string(bzp.size()) + " values");
  if (azp.size() != 1 && static_cast<int64_t>(azp.size()) != m) return c.fail("a zero point has " + std::to_string(azp.size()) + " values");
  const int64_t nb = support::shapeElements(batch);
  const Shape stA = stridesOf(ba), stB = stridesOf(bb), stO = stridesOf(batch);
  visitDType(c.in(ia).dtype(), [&](auto ta) {
    visitDType(c.in(ib).dtype(), [&](auto tb) {
      using TA = decltype(ta);
      using TB = decltype(tb);
      for (int64_t bi = 0; bi < nb; ++bi) {
        int64_t oa = 0, ob = 0;  // batch offsets of a and b (broadcast dims stay 0)
        for (size_t d = 0; d < batch.size(); ++d) {
          const int64_t idx = (bi / stO[d]) % batch[d];
          const size_t da = d + ba.size() - batch.size(), db = d + bb.size() - batch.size();
          if (d >= batch.size() - ba.size() && ba[da] != 1) oa += idx * stA[da];
          if (d >= batch.size() - bb.size() && bb[db] != 1) ob += idx * stB[db];
        }
        mmCore<TA, TB, TC>(c.in(ia).data<TA>() + oa * m * k, c.in(ib).data<TB>() + ob * k * n,
                           y.data<TC>() + bi * m * n, m, k, n, false, false, azp, bzp);
      }
    });
  });
  return Status::ok();
}

Status gemm(const GemmAttrs& g, Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kFloat32}));
  ACCELC_TRY(c.expectType(1, {DType::kFloat32}));
  ACCELC_TRY(c.expectRank(0, 2));
  ACCELC_TRY(c.expectRank(1, 2));
  const Tensor &a = c.in(0), &b = c.in(1);
  const int64_t m = g.transA ? a.dim(1) : a.dim(0), k = g.transA ? a.dim(0) : a.dim(1);
  const int64_t n = g.transB ? b.dim(0) : b.dim(1);
  if ((g.transB ? b.dim(1) : b.dim(0)) != k)
    return c.fail("Gemm shapes " + support::shapeStr(a.shape()) + " and " + support::shapeStr(b.shape()) +
                  " do not agree");
  ACCELC_ASSIGN_OR_RETURN(Tensor y, c.alloc(DType::kFloat32, {m, n}));
  float* o = y.data<float>();
  mmCore<float, float, float>(a.data<float>(), b.data<float>(), o, m, k, n, g.transA, g.transB, {0.0f},
                              std::vector<float>(n, 0.0f));
  for (int64_t i = 0; i < m * n; ++i) o[i] *= g.alpha;
  if (c.has(2)) {
    Shape s;
    if (!broadcastShape(c.in(2).shape(), {m, n}, s) || s != Shape{m, n})
      return c.fail("Gemm C of shape " + support::shapeStr(c.in(2).shape()) + " does not broadcast to " +
                    support::shapeStr({m, n}));
    const Tensor& cc = c.in(2);
    const Shape cs = cc.shape();
    const int64_t cr = cs.size() == 2 ? cs[0] : 1, ccol = cs.empty() ? 1 : cs.back();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        o[i * n + j] += g.beta * static_cast<float>(cc.at((cr == 1 ? 0 : i) * ccol + (ccol == 1 ? 0 : j)));
  }
  c.out(0) = std::move(y);
  return Status::ok();
}

/// QLinearMatMul: requantize a·b with a_scale·b_scale[j]/y_scale, rounding half to even.
Status qlinearMatmul(Ctx& c) {
  ACCELC_TRY(c.expectType(0, {DType::kInt8, DType::kUint8}));
  ACCELC_TRY(c.expectType(3, {DType::kInt8, DType::kUint8}));
  const Tensor& bs = c.in(4);
  std::vector<int32_t> azp, bzp;
  for (int64_t j = 0; j < c.in(2).numel(); ++j) azp.push_back(static_cast<int32_t>(c.in(2).intAt(j)));
  for (int64_t j = 0; j < c.in(5).numel(); ++j) bzp.push_back(static_cast<int32_t>(c.in(5).intAt(j)));
  Tensor acc;
  ACCELC_TRY(batchedMatmul<int32_t>(c, 0, 3, azp, bzp, acc));
  if (acc.rank() < 1 || (bs.numel() != 1 && bs.numel() != acc.dim(-1)) ||
      (c.in(1).numel() != 1 && (acc.rank() < 2 || c.in(1).numel() != acc.dim(-2))))
    return c.fail("QLinearMatMul scales do not match the output's rows and columns");
  const float ys = static_cast<float>(c.in(6).at(0));
  const int64_t rows = acc.rank() >= 2 ? acc.dim(-2) : 1;
  const int32_t yzp = static_cast<int32_t>(c.in(7).intAt(0));
  const DType yt = c.in(7).dtype();
  const int32_t lo = yt == DType::kUint8 ? 0 : -128, hi = yt == DType::kUint8 ? 255 : 127;
  const int64_t n = acc.dim(-1);
  ACCELC_ASSIGN_OR_RETURN(Tensor out, c.alloc(yt, acc.shape()));
  for (int64_t i = 0; i < acc.numel(); ++i) {
    const float as = static_cast<float>(c.in(1).at(c.in(1).numel() == 1 ? 0 : (i / n) % rows));
    const float mult = as * static_cast<float>(bs.at(bs.numel() == 1 ? 0 : i % n)) / ys;
    const float r = std::nearbyint(static_cast<float>(acc.data<int32_t>()[i]) * mult) + static_cast<float>(yzp);
    out.bytes()[i] = static_cast<uint8_t>(std::isnan(r) ? yzp : r < lo ? lo : r > hi ? hi : static_cast<int32_t>(r));
  }
  c.out(0) = std::move(out);
  return Status::ok();
}

}  // namespace

Status matmul(OpKind k, const GemmAttrs& a, Ctx& c) {
  if (k == OpKind::kGemm) return gemm(a, c);
  if (k == OpKind::kQLinearMatMul) return qlinearMatmul(c);
  if (k == OpKind::kMatMulInteger) {
    ACCELC_TRY(c.expectType(0, {DType::kInt8, DType::kUint8}));
    ACCELC_TRY(c.expectType(1, {DType::kInt8, DType::kUint8}));
    std::vector<int32_t> bzp{0};
    if (c.has(3)) {
      bzp.clear();
      for (int64_t j = 0; j < c.in(3).numel(); ++j) bzp.push_back(static_cast<int32_t>(c.in(3).intAt(j)));
    }
    std::vector<int32_t> azp{0};
    if (c.has(2)) {
      azp.clear();
      for (int64_t j = 0; j < c.in(2).numel(); ++j) azp.push_back(static_cast<int32_t>(c.in(2).intAt(j)));
    }
    return batchedMatmul<int32_t>(c, 0, 1, azp, bzp, c.out(0));
  }
  if (c.in(0).dtype() != c.in(1).dtype()) return c.fail("MatMul inputs have different dtypes");
  if (c.in(0).dtype() == DType::kFloat32) return batchedMatmul<float>(c, 0, 1, {0.0f}, {0.0f}, c.out(0));
  if (c.in(0).dtype() == DType::kInt32) return batchedMatmul<int32_t>(c, 0, 1, {0}, {0}, c.out(0));
  if (c.in(0).dtype() == DType::kInt64) return batchedMatmul<int64_t>(c, 0, 1, {0}, {0}, c.out(0));
  return c.expectType(0, {DType::kFloat32, DType::kInt32, DType::kInt64});
}

}  // namespace accelc::runtime::kernels
