// A duration sum kept two ways at once: exactly (int64, units of 1e-5 ns, so Ascend's sub-ns digits
// are kept) and as the reference computes it (Python floats added in its order). Which one a result
// shows is the policy's `float_us_sums`; callers never branch on the mode themselves.
#pragma once

#include <cstdint>

#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/analysis/common/reference_policy.h"

namespace profdiff::analysis {

// 1e-5 ns ("e5") conversions. E5ToNs rounds half away from zero.
inline constexpr int64_t kE5PerNs = 100000;
inline double E5ToUs(int64_t v) { return static_cast<double>(v) / 1e8; }
inline double E5ToMs(int64_t v) { return static_cast<double>(v) / 1e11; }
inline double E5ToS(int64_t v) { return static_cast<double>(v) / 1e14; }
inline int64_t E5ToNs(int64_t v) { return v >= 0 ? (v + 50000) / 100000 : -((-v + 50000) / 100000); }

struct DualSum {
  int64_t e5 = 0;        // exact: Σ durations, 1e-5 ns
  int64_t count = 0;     // number of durations added
  double ref_us = 0;     // reference: Σ (duration in µs as a double), in the order added
  double ref_ms = 0;     // reference: Σ (duration in µs / 1000), in the order added (its ms sums)

  // Adds one duration given in 1e-5 ns (Slice::dur_e5()).
  void AddE5(int64_t dur_e5) {
    e5 += dur_e5;
    ++count;
    const double us = E5ToUs(dur_e5);
    ref_us += us;
    ref_ms += us / 1000;
  }
  // Adds one duration given in whole ns.
  void AddNs(int64_t dur_ns) {
    e5 += dur_ns * kE5PerNs;
    ++count;
    const double us = static_cast<double>(dur_ns) / 1e3;
    ref_us += us;
    ref_ms += us / 1000;
  }
  // Adds a duration that the exact sum counts in whole ns (`dur_ns`, as the overall comparison's
  // default does: each Ascend duration rounded once by the loader) while the reference's float sums
  // see all of its digits (`ref_dur_e5`, Slice::dur_e5()).
  void AddNsRefE5(int64_t dur_ns, int64_t ref_dur_e5) {
    e5 += dur_ns * kE5PerNs;
    ++count;
    const double us = E5ToUs(ref_dur_e5);
    ref_us += us;
    ref_ms += us / 1000;
  }
  // Adds a duration that the exact sum counts in whole ns while the reference's float sums add
  // `ref_us`, a µs value the reference computed otherwise (e.g. as a difference of two floats).
  void AddNsRefUs(int64_t dur_ns, double ref_us_value) {
    e5 += dur_ns * kE5PerNs;
    ++count;
    ref_us += ref_us_value;
    ref_ms += ref_us_value / 1000;
  }
  // Adds another sum (the reference adds its partial float sums the same way).
  DualSum& operator+=(const DualSum& o) {
    e5 += o.e5;
    count += o.count;
    ref_us += o.ref_us;
    ref_ms += o.ref_ms;
    return *this;
  }
  // Subtracts another sum, field by field (the reference subtracts its float sums in the same order,
  // e.g. free = e2e - compute - lccl - uncovered communication). `count` is meaningless afterwards.
  DualSum& operator-=(const DualSum& o) {
    e5 -= o.e5;
    count -= o.count;
    ref_us -= o.ref_us;
    ref_ms -= o.ref_ms;
    return *this;
  }

  // Adds another sum the way the reference adds a finished µs total converted to ms (Σ (µs sum / 1000),
  // e.g. the module statistics' per-instance times), rather than each duration's ms.
  DualSum& AddUsSumAsMs(const DualSum& o) {
    e5 += o.e5;
    count += o.count;
    ref_us += o.ref_us;
    ref_ms += o.ref_us / 1000;
    return *this;
  }

  int64_t Ns() const { return E5ToNs(e5); }
  // The value a result shows, per the policy: the reference's float sum, or the exact sum converted once.
  double Us(const ReferencePolicy& p) const { return p.float_us_sums ? ref_us : E5ToUs(e5); }
  double Ms(const ReferencePolicy& p) const { return p.float_us_sums ? ref_ms : E5ToMs(e5); }

  // The reference's two ways of turning its float µs sum into ms: divided by 1000 once (category,
  // MC2 and SDMA-stream sums), or to seconds first and back (compute, uncovered communication, e2e
  // and free time: µs / 1e6 * 1e3). The last bit can differ between the two, so each has its own
  // accessor; the exact side is the same either way.
  double RefMsFromUsSum() const { return ref_us / 1e3; }
  double RefMsThroughSeconds() const { return UsToMsViaSeconds(ref_us); }
  double MsFromUsSum(const ReferencePolicy& p) const { return p.float_us_sums ? RefMsFromUsSum() : E5ToMs(e5); }
  double MsThroughSeconds(const ReferencePolicy& p) const {
    return p.float_us_sums ? RefMsThroughSeconds() : E5ToMs(e5);
  }
  // Seconds: the reference's µs sum / 1e6, or the exact sum converted once.
  double Seconds(const ReferencePolicy& p) const { return p.float_us_sums ? ref_us / 1e6 : E5ToS(e5); }
};

// comparison − base of two sums, in ms or µs: the reference's round(c - b, 2) of its shown values
// under policy.rounded_diffs_and_ratios, else the exact difference of the sums converted once.
inline double DiffMs(const DualSum& base, const DualSum& comparison, const ReferencePolicy& p) {
  return p.rounded_diffs_and_ratios ? DiffMs(base.Ms(p), comparison.Ms(p)) : E5ToMs(comparison.e5 - base.e5);
}
inline double DiffUs(const DualSum& base, const DualSum& comparison, const ReferencePolicy& p) {
  return p.rounded_diffs_and_ratios ? PyRound(comparison.Us(p) - base.Us(p), 2) : E5ToUs(comparison.e5 - base.e5);
}

}  // namespace profdiff::analysis
