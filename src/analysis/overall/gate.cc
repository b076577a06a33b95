#include "profdiff/analysis/overall/gate.h"

#include <algorithm>
#include <vector>
#include <cctype>
#include <cmath>
#include <tuple>
#include <set>
#include <string>

#include <fmt/format.h>

namespace profdiff::analysis {

std::string_view Name(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "pass";
    case Verdict::kRegression: return "regression";
    case Verdict::kIncomparable: return "incomparable";
  }
  return "incomparable";
}

int GateExitCode(Verdict v) {
  switch (v) {
    case Verdict::kPass: return 0;
    case Verdict::kRegression: return 1;
    case Verdict::kIncomparable: return 4;
  }
  return 4;
}

std::string_view Name(GateBasis b) {
  switch (b) {
    case GateBasis::kPerStep: return "per_step";
    case GateBasis::kWholeCapture: return "whole_capture";
    case GateBasis::kNone: return "none";
  }
  return "none";
}

std::string_view Name(GateCategory c) {
  switch (c) {
    case GateCategory::kE2e: return "e2e";
    case GateCategory::kComputing: return "computing";
    case GateCategory::kCommunication: return "communication";
    case GateCategory::kFree: return "free";
  }
  return "?";
}

namespace {

std::string SideName(const SideSummary& s, const char* role) {
  return s.label.empty() ? std::string(role) : fmt::format("{} ({})", role, s.label);
}

int64_t CategoryNs(const SideSummary& s, GateCategory c) {
  switch (c) {
    case GateCategory::kE2e: return s.e2e_ns;
    case GateCategory::kComputing: return s.computing_ns;
    case GateCategory::kCommunication: return s.uncovered_communication_ns;
    case GateCategory::kFree: return s.free_ns;
  }
  return 0;
}

// Why `side` cannot be gated on `c`; empty when it can.
std::string MissingFor(const SideSummary& side, const char* role, GateCategory c) {
  if (!side.has_overall) return fmt::format("{} has no end-to-end time", SideName(side, role));
  if (c == GateCategory::kComputing && side.hide_op_details) {
    return fmt::format("{} has no usable kernel details", SideName(side, role));
  }
  return {};
}

std::string FormatMs(int64_t ns) { return fmt::format("{:+.3f} ms", static_cast<double>(ns) / 1e6); }

// A side's value for `c` on the gate's basis: per step, E2E is the median ProfilerStep (the time an
// iteration takes, robust to a slow first step) and the other categories their mean over the step
// windows (step_split.h: measured inside each window; the capture total over the number of steps
// only when the side has no split, e.g. no overlap-analysis lane); else the capture totals.
int64_t BasisNs(const SideSummary& s, GateCategory c, const std::optional<StepStats>& steps,
                std::optional<int64_t> selected) {
  if (!steps) return CategoryNs(s, c);
  if (c == GateCategory::kE2e) return steps->median_ns;
  std::vector<StepSplit> splits = s.steps;
  if (selected) std::erase_if(splits, [&](const StepSplit& x) { return x.id != *selected; });
  if (const std::optional<StepMean> mean = MeanStep(splits)) {
    switch (c) {
      case GateCategory::kComputing: return mean->computing_ns;
      case GateCategory::kCommunication: return mean->communication_ns;
      case GateCategory::kFree: return mean->free_ns;
      case GateCategory::kE2e: break;
    }
  }
  return CategoryNs(s, c) / steps->count;
}

// Under a gate, a side without steps makes a per-step comparison impossible: why, naming the side(s).
std::string NoStepsReason(const ComparabilityInputs& in) {
  std::string sides = !in.base_step_stats && !in.comparison_step_stats ? "neither side has"
                      : !in.base_step_stats                            ? "base has no"
                                                                       : "comparison has no";
  return fmt::format("{} ProfilerStep markers, so steps cannot be compared (two captures of different "
                     "lengths say nothing about a step); pass --whole-capture to gate on the whole captures",
                     sides);
}

}  // namespace

namespace {

// "GPU (NVIDIA H100 80GB HBM3)", "NPU (Huawei Ascend910B)", "GPU (AMD, model unknown)", "GPU".
std::string Describe(const DeviceIdentity& d) {
  if (d.model.empty() && d.vendor.empty()) return std::string(profdiff::Name(d.kind));
  std::string what = d.model.empty()                                                      ? d.vendor + ", model unknown"
                     : d.vendor.empty() || d.model.find(d.vendor) != std::string::npos ? d.model
                                                                                        : d.vendor + " " + d.model;
  return fmt::format("{} ({})", profdiff::Name(d.kind), what);
}

bool SameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// Different kinds, or vendors / models both known and different.
void CheckDevices(const OverallComparison& cmp, const ComparabilityInputs& in, const GateOptions& o, Comparability& c) {
  DeviceIdentity b = in.base_device, d = in.comparison_device;
  if (b.kind == DeviceKind::kUnknown) b.kind = cmp.base.device;
  if (d.kind == DeviceKind::kUnknown) d.kind = cmp.comparison.device;
  const bool differ = b.kind != d.kind || (!b.vendor.empty() && !d.vendor.empty() && !SameText(b.vendor, d.vendor)) ||
                      (!b.model.empty() && !d.model.empty() && !SameText(b.model, d.model));
  if (!differ) return;
  std::string w = fmt::format("different devices: base is {}, comparison is {}", Describe(b), Describe(d));
  if (o.allow_cross_device) {
    c.warnings.push_back(w + " (intended: --allow-cross-device)");
    return;
  }
  c.warnings.push_back(w);
  c.incomparable.push_back(w + "; pass --allow-cross-device if the comparison is intended (a migration)");
}

std::string Pct(uint64_t part, uint64_t whole) {
  return whole == 0 ? std::string("n/a") : fmt::format("{:.1f} %", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

void CheckMatch(const ComparabilityInputs& in, const GateOptions& o, Comparability& c) {
  if (!in.operator_match) return;
  const OperatorMatch& m = *in.operator_match;
  auto below = [&](uint64_t items) {
    return items > 0 && 100.0L * static_cast<long double>(m.matched) < o.min_match_pct * static_cast<long double>(items);
  };
  if (!below(m.base_items) && !below(m.comparison_items)) return;
  std::string w = fmt::format("operator match: {} of {} base ({}) and {} of {} comparison operators ({}) matched, "
                              "below --min-match {:g} %: the two runs are probably not the same workload",
                              m.matched, m.base_items, Pct(m.matched, m.base_items), m.matched,
                              m.comparison_items, Pct(m.matched, m.comparison_items), o.min_match_pct);
  c.warnings.push_back(w);
  c.incomparable.push_back(w);
}

// A side without device events: its time split is unknown, not 0.
void CheckDeviceData(const ComparabilityInputs& in, Comparability& c) {
  for (const auto& [events, format, role] :
       {std::tuple{in.base_device_events, in.base_format, "base"},
        std::tuple{in.comparison_device_events, in.comparison_format, "comparison"}}) {
    if (!events || *events > 0) continue;
    const std::string what = format == SourceFormat::kAscendDb ? "no device task (its TASK table is absent or empty)"
                             : format == SourceFormat::kKinetoJson
                                 ? "no kernel, memcpy or memset event (a CPU-only capture, or device activities not recorded)"
                                 : "no device task (no Ascend Hardware tasks)";
    std::string w = fmt::format("{} has no device data: {}; its computing, communication and free time are unknown",
                                role, what);
    c.warnings.push_back(w);
    c.incomparable.push_back(w);
  }
}

// Device busy time outside every step window, per side (per-step numbers leave it out).
void CheckStepCoverage(const OverallComparison& cmp, Comparability& c) {
  for (const auto* side : {&cmp.base, &cmp.comparison}) {
    const StepCoverage& k = side->step_coverage;
    if (side->steps.empty() || k.busy_ns <= 0 || k.outside_ns * 100 <= kMaxOutsideStepsPct * k.busy_ns) continue;
    std::string w = fmt::format(
        "{}: {:.1f} % of its device busy time ({:.3f} ms of {:.3f} ms) lies outside every step window: the "
        "per-step numbers leave it out",
        side == &cmp.base ? "base" : "comparison", 100.0 * static_cast<double>(k.outside_ns) / static_cast<double>(k.busy_ns),
        static_cast<double>(k.outside_ns) / 1e6, static_cast<double>(k.busy_ns) / 1e6);
    c.warnings.push_back(w);
    c.unsafe.push_back(w);
  }
}

const char* FormatFamily(SourceFormat f) {
  switch (f) {
    case SourceFormat::kAscendDb: return "DB";
    case SourceFormat::kAscendProfileDir:
    case SourceFormat::kAscendOutputDir: return "text";
    case SourceFormat::kAscendTraceView: return "trace-only";
    default: return nullptr;
  }
}

// Two Ascend exports of different kinds measure some rows differently.
void CheckFormats(const ComparabilityInputs& in, Comparability& c) {
  const char* b = FormatFamily(in.base_format);
  const char* d = FormatFamily(in.comparison_format);
  if (b == nullptr || d == nullptr || std::string_view(b) == d) return;
  c.warnings.push_back(fmt::format(
      "different export formats: base is a {} export, comparison a {} export; rows they measure differently may "
      "differ without a change: memory (the text export's memory_record.csv holds the APP component, the DB's "
      "MEMORY_RECORD the PTA and GE components){}",
      b, d, (std::string_view(b) == "trace-only" || std::string_view(d) == "trace-only")
                ? ", the computing split and bandwidths (a trace-only side has none)"
                : ""));
}

}  // namespace

Comparability AssessComparability(const OverallComparison& cmp, const ComparabilityInputs& inputs,
                                  const GateOptions& options) {
  Comparability c;
  const SideSummary& b = cmp.base;
  const SideSummary& d = cmp.comparison;
  CheckDevices(cmp, inputs, options, c);
  CheckMatch(inputs, options, c);
  if (!inputs.step_selected && inputs.base_steps && inputs.comparison_steps &&
      *inputs.base_steps != *inputs.comparison_steps) {
    c.warnings.push_back(fmt::format("different step counts: base has {} step(s), comparison has {}",
                                     *inputs.base_steps, *inputs.comparison_steps));
  }
  CheckFormats(inputs, c);
  CheckDeviceData(inputs, c);
  if (b.hide_op_details != d.hide_op_details) {
    c.warnings.push_back(fmt::format("{} has no usable kernel details; its computing split is unknown",
                                     b.hide_op_details ? "base" : "comparison"));
  }
  if (!b.has_overall) c.warnings.push_back("base has no end-to-end time");
  if (!d.has_overall) c.warnings.push_back("comparison has no end-to-end time");
  CheckStepCoverage(cmp, c);
  std::set<std::string> seen(c.warnings.begin(), c.warnings.end());
  for (const auto* side : {&b, &d}) {
    const char* role = side == &b ? "base" : "comparison";
    for (const std::string& s : side->warnings) {
      std::string line = fmt::format("{}: {}", role, s);
      if (seen.insert(line).second) c.warnings.push_back(std::move(line));
    }
  }
  return c;
}

std::vector<std::string> ComparabilityWarnings(const OverallComparison& cmp,
                                               const ComparabilityInputs& inputs) {
  return AssessComparability(cmp, inputs, GateOptions{}).warnings;
}

void JudgeGateCheck(GateCheck& g, int64_t noise_floor_ns, std::string_view basis) {
  const double floor_ms = static_cast<double>(noise_floor_ns) / 1e6;
  g.evaluated = true;
  g.delta_ns = g.comparison_ns - g.base_ns;
  g.delta_pct.reset();
  if (g.base_ns != 0) g.delta_pct = 100.0 * static_cast<double>(g.delta_ns) / static_cast<double>(g.base_ns);
  // delta > PCT% of base, compared without dividing (base may be 0).
  const long double limit = static_cast<long double>(g.threshold_pct) * static_cast<long double>(g.base_ns) / 100.0L;
  const bool over_pct = static_cast<long double>(g.delta_ns) > limit;
  const bool over_floor = g.delta_ns > noise_floor_ns;
  const std::string pct_text = g.delta_pct ? fmt::format("{:+.2f}%", *g.delta_pct) : std::string("base is 0");
  if (over_pct && over_floor) {
    g.verdict = Verdict::kRegression;
    g.reason = fmt::format("{}{} {} ({}) exceeds {:.2f}% and the {:.3f} ms noise floor", Name(g.category), basis,
                           FormatMs(g.delta_ns), pct_text, g.threshold_pct, floor_ms);
  } else {
    g.verdict = Verdict::kPass;
    g.reason = fmt::format("{}{} {} ({}) within {}", Name(g.category), basis, FormatMs(g.delta_ns), pct_text,
                           over_pct ? fmt::format("the {:.3f} ms noise floor", floor_ms)
                                    : fmt::format("{:.2f}%", g.threshold_pct));
  }
}

GateResult EvaluateGate(const OverallComparison& cmp, const GateOptions& options,
                        const ComparabilityInputs& inputs) {
  GateResult r;
  Comparability comparability = AssessComparability(cmp, inputs, options);
  r.warnings = std::move(comparability.warnings);
  r.incomparable_reasons = std::move(comparability.incomparable);
  r.unsafe_reasons = std::move(comparability.unsafe);
  const double floor_ms = std::isfinite(options.noise_floor_ms) && options.noise_floor_ms > 0
                              ? options.noise_floor_ms
                              : 0.0;
  r.noise_floor_ms = floor_ms;
  r.noise_floor_ns = std::llround(floor_ms * 1e6);
  r.ran = options.any();
  r.base_steps = inputs.base_step_stats;
  r.comparison_steps = inputs.comparison_step_stats;
  r.basis = inputs.base_step_stats && inputs.comparison_step_stats ? GateBasis::kPerStep
            : options.whole_capture                                 ? GateBasis::kWholeCapture
                                                                    : GateBasis::kNone;
  if (!r.ran) return r;
  const bool per_step = r.basis == GateBasis::kPerStep;

  const std::pair<GateCategory, const std::optional<double>*> wanted[] = {
      {GateCategory::kE2e, &options.e2e_pct},
      {GateCategory::kComputing, &options.compute_pct},
      {GateCategory::kCommunication, &options.comm_pct},
      {GateCategory::kFree, &options.free_pct},
  };
  bool any_regression = false;
  bool any_incomparable = false;
  for (const auto& [category, pct] : wanted) {
    if (!pct->has_value()) continue;
    GateCheck g;
    g.category = category;
    g.threshold_pct = **pct;
    std::string missing = MissingFor(cmp.base, "base", category);
    if (missing.empty()) missing = MissingFor(cmp.comparison, "comparison", category);
    if (missing.empty() && r.basis == GateBasis::kNone) missing = NoStepsReason(inputs);
    if (!missing.empty() || !std::isfinite(g.threshold_pct)) {
      g.evaluated = false;
      g.verdict = Verdict::kIncomparable;
      g.reason = missing.empty() ? std::string("threshold is not a finite number")
                                 : fmt::format("cannot gate {}: {}", Name(category), missing);
      any_incomparable = true;
      r.checks.push_back(std::move(g));
      continue;
    }
    g.evaluated = true;
    g.base_ns = BasisNs(cmp.base, category, per_step ? inputs.base_step_stats : std::nullopt,
                        inputs.base_selected_step);
    g.comparison_ns = BasisNs(cmp.comparison, category, per_step ? inputs.comparison_step_stats : std::nullopt,
                              inputs.comparison_selected_step);
    JudgeGateCheck(g, r.noise_floor_ns, per_step ? " per step" : "");
    any_regression |= g.verdict == Verdict::kRegression;
    r.checks.push_back(std::move(g));
  }
  // An incomparable pair is never judged; a per-step verdict that leaves device work out never passes.
  r.verdict = !r.incomparable_reasons.empty() ? Verdict::kIncomparable
              : any_regression                ? Verdict::kRegression
              : any_incomparable || (per_step && !r.unsafe_reasons.empty()) ? Verdict::kIncomparable
                                                              : Verdict::kPass;
  return r;
}

std::optional<StepStats> StepDurations(const Timeline& timeline, std::optional<int64_t> only_step) {
  std::vector<int64_t> d;
  for (const StepSpan& span : StepSpans(timeline.MeasuredSteps()))
    if (!only_step || span.id == *only_step) d.push_back(span.end_ns - span.start_ns);
  if (d.empty()) return std::nullopt;
  std::sort(d.begin(), d.end());
  StepStats st;
  st.count = static_cast<int64_t>(d.size());
  const size_t mid = d.size() / 2;
  st.median_ns = d.size() % 2 ? d[mid] : d[mid - 1] + (d[mid] - d[mid - 1]) / 2;
  int64_t sum = 0;
  for (int64_t x : d) sum += x;
  st.mean_ns = sum / st.count;
  st.min_ns = d.front();
  st.max_ns = d.back();
  return st;
}

std::optional<int64_t> CountProfilerSteps(const Timeline& timeline) {
  if (!timeline.step_ids.empty()) return static_cast<int64_t>(timeline.step_ids.size());
  const Profile& profile = timeline.p();
  if (profile.npu.step_trace.present) {
    std::set<std::string> steps(profile.npu.step_trace.steps.begin(),
                                profile.npu.step_trace.steps.end());
    return static_cast<int64_t>(steps.size());
  }
  return std::nullopt;
}

}  // namespace profdiff::analysis
