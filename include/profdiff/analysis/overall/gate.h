// CI gate (README.md#profdiff-compare): decides whether the comparison side regressed against the
// base. A category regresses when (comparison - base) > PCT% of base AND > the noise floor. The
// verdict is pass | regression | incomparable; a gate that cannot be evaluated (a side lacks what
// it needs) makes the verdict incomparable, never pass. Exit-code mapping: pass 0, regression 1,
// incomparable 4.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/overall/overall.h"
#include "profdiff/analysis/timeline/device_identity.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

enum class Verdict : uint8_t { kPass, kRegression, kIncomparable };
std::string_view Name(Verdict v);  // "pass" | "regression" | "incomparable"
int GateExitCode(Verdict v);       // 0 | 1 | 4 (cli::ExitCode values)

enum class GateCategory : uint8_t { kE2e, kComputing, kCommunication, kFree };
// JSON/CLI names: "e2e", "computing", "communication" (uncovered communication), "free".
std::string_view Name(GateCategory c);

struct GateOptions {
  std::optional<double> e2e_pct;      // --gate-e2e PCT
  std::optional<double> compute_pct;  // --gate-compute PCT
  std::optional<double> comm_pct;     // --gate-comm PCT
  std::optional<double> free_pct;     // --gate-free PCT
  double noise_floor_ms = 0.05;       // --noise-floor-ms
  // --whole-capture: gate on the whole captures when a side has no ProfilerStep markers (else such
  // a gate is incomparable: two captures of different lengths say nothing about a step).
  bool whole_capture = false;
  // --allow-cross-device: two different device models, vendors or kinds are an intended comparison
  // (a migration, GPU -> NPU), not an incomparable pair.
  bool allow_cross_device = false;
  // --min-match PCT: below this share of either side's top-level operators matched, the two runs are
  // not the same workload and a gate is incomparable.
  double min_match_pct = 50.0;
  bool any() const { return e2e_pct || compute_pct || comm_pct || free_pct; }
};

// The duration of each step of a side (one per distinct ProfilerStep id: from the first start to the
// last end of its markers), summarised. Exact int64 ns; the median of an even count is the mean of
// the two middle steps (rounded down).
struct StepStats {
  int64_t count = 0;
  int64_t median_ns = 0;
  int64_t mean_ns = 0;  // rounded down
  int64_t min_ns = 0;
  int64_t max_ns = 0;
};
// nullopt when the side has no ProfilerStep marker. `only_step`: that step alone (a side restricted
// to one step by --base_step / --comparison_step).
std::optional<StepStats> StepDurations(const Timeline& timeline, std::optional<int64_t> only_step = std::nullopt);

// How many top-level operators of each side the operator pairing matched.
struct OperatorMatch {
  uint64_t base_items = 0, comparison_items = 0, matched = 0;
};

// Facts about the inputs that OverallComparison does not carry (the CLI fills them from the
// timelines, e.g. with CountProfilerSteps).
struct ComparabilityInputs {
  DeviceIdentity base_device, comparison_device;
  SourceFormat base_format = SourceFormat::kUnknown, comparison_format = SourceFormat::kUnknown;
  std::optional<OperatorMatch> operator_match;  // nullopt: the operators were not paired
  bool step_selected = false;                   // --base_step / --comparison_step
  // The step each side's per-step numbers read (the gate's basis): nullopt for all of them.
  std::optional<int64_t> base_selected_step, comparison_selected_step;
  // Device events (kernels, tasks) of each side (DeviceSteps::device_events); nullopt: not known.
  std::optional<int64_t> base_device_events, comparison_device_events;
  std::optional<int64_t> base_steps;
  std::optional<int64_t> comparison_steps;
  // ProfilerStep markers' durations per side (StepDurations): with both, the gate compares per step.
  std::optional<StepStats> base_step_stats;
  std::optional<StepStats> comparison_step_stats;
};

struct GateCheck {
  GateCategory category = GateCategory::kE2e;
  double threshold_pct = 0;
  bool evaluated = false;  // false: a side lacks the data (verdict kIncomparable)
  int64_t base_ns = 0;
  int64_t comparison_ns = 0;
  int64_t delta_ns = 0;               // comparison - base
  std::optional<double> delta_pct;    // 100 * delta / base; nullopt when base == 0
  Verdict verdict = Verdict::kPass;
  std::string reason;  // human explanation
};

enum class GateBasis : uint8_t {
  kPerStep,       // both sides have steps: E2E = the median step, other categories = mean over the step windows
  kWholeCapture,  // --whole-capture: the captures' totals
  kNone,          // a side has no steps and --whole-capture was not given: nothing is gated
};
std::string_view Name(GateBasis b);  // "per_step" | "whole_capture" | "none"

struct GateResult {
  bool ran = false;  // at least one gate was asked for
  GateBasis basis = GateBasis::kNone;
  std::optional<StepStats> base_steps, comparison_steps;
  Verdict verdict = Verdict::kPass;
  double noise_floor_ms = 0.05;
  int64_t noise_floor_ns = 50000;
  std::vector<GateCheck> checks;      // in the order e2e, computing, communication, free
  std::vector<std::string> warnings;  // comparability warnings (also computed when no gate ran)
  // Why the pair cannot be gated at all (different devices, a low operator match, a side without
  // device data): a gate's verdict is then incomparable whatever its checks say.
  std::vector<std::string> incomparable_reasons;
  // Why the per-step numbers cannot pass (device work outside every step window): a gate that would
  // pass is incomparable instead; a regression stays one.
  std::vector<std::string> unsafe_reasons;
};

// The comparability of a pair: every warning, and which of them make a gate incomparable or unable
// to pass (GateResult::incomparable_reasons, unsafe_reasons).
struct Comparability {
  std::vector<std::string> warnings;
  std::vector<std::string> incomparable;
  std::vector<std::string> unsafe;
};
Comparability AssessComparability(const OverallComparison& cmp, const ComparabilityInputs& inputs,
                                  const GateOptions& options);

// The share of device busy time outside every step window above which a per-step verdict is unsafe.
inline constexpr int64_t kMaxOutsideStepsPct = 5;

// Warnings that make a comparison questionable: different devices (kind, vendor or model), a low
// operator match, different step counts without a selected step, different export formats, a side
// without device data, kernel details (hide_op_details) or e2e, device work outside the step windows,
// plus the sides' own warnings (AssessComparability(...).warnings with the default options).
std::vector<std::string> ComparabilityWarnings(const OverallComparison& cmp,
                                               const ComparabilityInputs& inputs = {});

// Evaluates every requested gate. Overall verdict: regression if any check regressed, else
// incomparable if any check could not be evaluated, else pass. With no gate requested, ran == false
// and the verdict is pass (warnings are still filled).
GateResult EvaluateGate(const OverallComparison& cmp, const GateOptions& options,
                        const ComparabilityInputs& inputs = {});

// Judges one check whose category, threshold_pct, base_ns and comparison_ns are set: its delta, and
// a regression when the delta exceeds threshold_pct % of the base and the noise floor (in words:
// "<category><basis> +1.234 ms (+5.00%) exceeds ..."). EvaluateGate and the cluster gate share it.
void JudgeGateCheck(GateCheck& g, int64_t noise_floor_ns, std::string_view basis);

// Number of distinct profiler steps of a side: distinct ids of its "ProfilerStep#N" step markers
// (Timeline::step_ids), or the distinct steps of step_trace_time.csv when there are no markers;
// nullopt when neither exists.
std::optional<int64_t> CountProfilerSteps(const Timeline& timeline);

}  // namespace profdiff::analysis
