#include "profdiff/analysis/overall/gate.h"

#include <algorithm>
#include <map>
#include <vector>
#include <cmath>
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
int64_t BasisNs(const SideSummary& s, GateCategory c, const std::optional<StepStats>& steps) {
  if (!steps) return CategoryNs(s, c);
  if (c == GateCategory::kE2e) return steps->median_ns;
  if (const std::optional<StepMean> mean = MeanStep(s.steps)) {
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

std::vector<std::string> ComparabilityWarnings(const OverallComparison& cmp,
                                               const ComparabilityInputs& inputs) {
  std::vector<std::string> w;
  const SideSummary& b = cmp.base;
  const SideSummary& c = cmp.comparison;
  if (b.device != c.device) {
    w.push_back(fmt::format("different devices: base is {}, comparison is {}", profdiff::Name(b.device),
                            profdiff::Name(c.device)));
  }
  if (inputs.base_steps && inputs.comparison_steps && *inputs.base_steps != *inputs.comparison_steps) {
    w.push_back(fmt::format("different step counts: base has {} step(s), comparison has {}",
                            *inputs.base_steps, *inputs.comparison_steps));
  }
  if (b.hide_op_details != c.hide_op_details) {
    w.push_back(fmt::format("{} has no usable kernel details; its computing split is unknown",
                            b.hide_op_details ? "base" : "comparison"));
  }
  if (!b.has_overall) w.push_back("base has no end-to-end time");
  if (!c.has_overall) w.push_back("comparison has no end-to-end time");
  std::set<std::string> seen(w.begin(), w.end());
  for (const auto* side : {&b, &c}) {
    const char* role = side == &b ? "base" : "comparison";
    for (const std::string& s : side->warnings) {
      std::string line = fmt::format("{}: {}", role, s);
      if (seen.insert(line).second) w.push_back(std::move(line));
    }
  }
  return w;
}

GateResult EvaluateGate(const OverallComparison& cmp, const GateOptions& options,
                        const ComparabilityInputs& inputs) {
  GateResult r;
  r.warnings = ComparabilityWarnings(cmp, inputs);
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
    g.base_ns = BasisNs(cmp.base, category, per_step ? inputs.base_step_stats : std::nullopt);
    g.comparison_ns = BasisNs(cmp.comparison, category, per_step ? inputs.comparison_step_stats : std::nullopt);
    g.delta_ns = g.comparison_ns - g.base_ns;
    if (g.base_ns != 0) {
      g.delta_pct = 100.0 * static_cast<double>(g.delta_ns) / static_cast<double>(g.base_ns);
    }
    // delta > PCT% of base, compared without dividing (base may be 0).
    const long double limit =
        static_cast<long double>(g.threshold_pct) * static_cast<long double>(g.base_ns) / 100.0L;
    const bool over_pct = static_cast<long double>(g.delta_ns) > limit;
    const bool over_floor = g.delta_ns > r.noise_floor_ns;
    const std::string pct_text =
        g.delta_pct ? fmt::format("{:+.2f}%", *g.delta_pct) : std::string("base is 0");
    if (over_pct && over_floor) {
      g.verdict = Verdict::kRegression;
      any_regression = true;
      g.reason = fmt::format("{}{} {} ({}) exceeds {:.2f}% and the {:.3f} ms noise floor",
                             Name(category), per_step ? " per step" : "", FormatMs(g.delta_ns), pct_text,
                             g.threshold_pct, floor_ms);
    } else {
      g.verdict = Verdict::kPass;
      g.reason = fmt::format("{}{} {} ({}) within {}", Name(category), per_step ? " per step" : "",
                             FormatMs(g.delta_ns), pct_text,
                             over_pct ? fmt::format("the {:.3f} ms noise floor", floor_ms)
                                      : fmt::format("{:.2f}%", g.threshold_pct));
    }
    r.checks.push_back(std::move(g));
  }
  r.verdict = any_regression     ? Verdict::kRegression
              : any_incomparable ? Verdict::kIncomparable
                                 : Verdict::kPass;
  return r;
}

std::optional<StepStats> StepDurations(const Timeline& timeline, std::optional<int64_t> only_step) {
  std::map<int64_t, std::pair<int64_t, int64_t>> spans;  // step id -> [first start, last end]
  for (const Step& s : timeline.steps) {
    if (only_step && s.id != *only_step) continue;
    auto [it, inserted] = spans.try_emplace(s.id, s.start_ns, s.end_ns);
    if (!inserted) {
      it->second.first = std::min(it->second.first, s.start_ns);
      it->second.second = std::max(it->second.second, s.end_ns);
    }
  }
  if (spans.empty()) return std::nullopt;
  std::vector<int64_t> d;
  for (const auto& [id, span] : spans) d.push_back(span.second - span.first);
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
