// ap_int.h — the part of Vitis HLS's arbitrary-precision integers that the
// generated accelerator uses, for C-simulation with g++ (accelc's HLS engine).
//
// Vitis HLS puts its own ap_int.h first on the include path; this one is
// found only where that is absent. ap_uint<W> holds W bits in 64-bit words,
// least significant first; range(hi, lo) reads or writes bits hi..lo (at
// most 64 of them) as an unsigned value, as Vitis's range reference does.
#ifndef ACCELC_CSIM_AP_INT_H_
#define ACCELC_CSIM_AP_INT_H_

#include <cstdint>

template <int W>
class ap_uint {
  static_assert(W > 0, "ap_uint needs at least one bit");

 public:
  static const int kWords = (W + 63) / 64;

  /// A reference to bits [lo, hi] of an ap_uint.
  class range_ref {
   public:
    range_ref(ap_uint& v, int hi, int lo) : v_(v), hi_(hi), lo_(lo) {}
    unsigned long long to_uint64() const { return v_.get(hi_, lo_); }
    long long to_int64() const { return static_cast<long long>(v_.get(hi_, lo_)); }
    operator unsigned long long() const { return to_uint64(); }
    range_ref& operator=(unsigned long long x) {
      v_.set(hi_, lo_, x);
      return *this;
    }

   private:
    ap_uint& v_;
    int hi_, lo_;
  };

  ap_uint() {
    for (int i = 0; i < kWords; ++i) w_[i] = 0;
  }
  ap_uint(unsigned long long x) {
    for (int i = 0; i < kWords; ++i) w_[i] = 0;
    w_[0] = x;
    trim();
  }
  ap_uint(unsigned int x) : ap_uint(static_cast<unsigned long long>(x)) {}
  ap_uint(int x) : ap_uint(static_cast<unsigned long long>(static_cast<long long>(x))) {}
  ap_uint(long long x) : ap_uint(static_cast<unsigned long long>(x)) {}
  ap_uint(unsigned long x) : ap_uint(static_cast<unsigned long long>(x)) {}
  ap_uint(long x) : ap_uint(static_cast<unsigned long long>(x)) {}

  /// Bits [lo, hi] of a constant value.
  struct const_range {
    unsigned long long v;
    unsigned long long to_uint64() const { return v; }
    operator unsigned long long() const { return v; }
  };

  range_ref range(int hi, int lo) { return range_ref(*this, hi, lo); }
  const_range range(int hi, int lo) const { return const_range{get(hi, lo)}; }
  unsigned long long to_uint64() const { return get(W < 64 ? W - 1 : 63, 0); }
  bool operator==(const ap_uint& o) const {
    for (int i = 0; i < kWords; ++i)
      if (w_[i] != o.w_[i]) return false;
    return true;
  }
  bool operator!=(const ap_uint& o) const { return !(*this == o); }

  /// Bits [lo, hi] (hi - lo < 64) as an unsigned value.
  unsigned long long get(int hi, int lo) const {
    const int n = hi - lo + 1, word = lo / 64, bit = lo % 64;
    unsigned long long v = w_[word] >> bit;
    if (bit && bit + n > 64 && word + 1 < kWords) v |= w_[word + 1] << (64 - bit);
    return n == 64 ? v : v & ((1ull << n) - 1);
  }
  /// Sets bits [lo, hi] (hi - lo < 64) to the low bits of x.
  void set(int hi, int lo, unsigned long long x) {
    const int n = hi - lo + 1, word = lo / 64, bit = lo % 64;
    const unsigned long long mask = n == 64 ? ~0ull : (1ull << n) - 1;
    x &= mask;
    w_[word] = (w_[word] & ~(mask << bit)) | (x << bit);
    if (bit && bit + n > 64 && word + 1 < kWords) {
      const int spill = bit + n - 64;
      const unsigned long long m2 = (1ull << spill) - 1;
      w_[word + 1] = (w_[word + 1] & ~m2) | (x >> (64 - bit));
    }
  }

 private:
  void trim() {
    if (W % 64) w_[kWords - 1] &= (1ull << (W % 64)) - 1;
  }
  unsigned long long w_[kWords];
};

#endif  // ACCELC_CSIM_AP_INT_H_
