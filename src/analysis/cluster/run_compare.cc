// CompareRuns and EvaluateClusterGate (run_compare.h).
#include "profdiff/analysis/cluster/run_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace profdiff::analysis {
namespace {

// A run's steps over its ranks, in order of first appearance; each rank's values per step.
using RankValues = RankStepTimes;
struct RunSteps {
  std::vector<JobStep> steps;
  std::map<std::pair<std::string, int64_t>, RankValues> by_step_rank;  // (step, rank)
};

RunSteps MeasureRun(const std::vector<RankSummary>& ranks, const std::vector<StepStraggler>& slow) {
  RunSteps out;
  std::map<std::string, size_t> index;
  std::vector<RankValues> sums;
  for (const RankSummary& r : ranks) {
    for (const RankStep& s : r.steps) {
      const std::optional<RankValues> times = RankStepTimesOf(r, s);
      if (!times) continue;
      const RankValues& v = *times;
      auto [it, inserted] = index.try_emplace(s.step, out.steps.size());
      if (inserted) {
        out.steps.emplace_back().step = s.step;
        sums.emplace_back();
      }
      JobStep& j = out.steps[it->second];
      RankValues& sum = sums[it->second];
      ++j.ranks;
      j.step_ns = std::max(j.step_ns, v.step_ns);
      sum.computing_ns += v.computing_ns;
      sum.communication_ns += v.communication_ns;
      sum.free_ns += v.free_ns;
      out.by_step_rank[{s.step, r.rank}] = v;
    }
  }
  for (size_t i = 0; i < out.steps.size(); ++i) {
    JobStep& j = out.steps[i];
    j.computing_ns = sums[i].computing_ns / j.ranks;
    j.communication_ns = sums[i].communication_ns / j.ranks;
    j.free_ns = sums[i].free_ns / j.ranks;
    for (const StepStraggler& s : slow) {
      if (s.step != j.step || s.cause == SlowCause::kNone) continue;
      j.slow_rank = s.rank;
      j.slow_cause = s.cause;
      j.slow_excess_ns = s.work_ns - s.median_work_ns;
    }
  }
  return out;
}

// The compared steps: those with an id in both runs (in the base's order), else the i-th of each.
void PairSteps(const RunSteps& base, const RunSteps& comparison, ClusterRunComparison& out) {
  for (const JobStep& b : base.steps)
    for (const JobStep& c : comparison.steps)
      if (b.step == c.step) out.steps.push_back({b, c});
  if (!out.steps.empty() || base.steps.empty() || comparison.steps.empty()) return;
  out.steps_by_position = true;
  for (size_t i = 0; i < std::min(base.steps.size(), comparison.steps.size()); ++i)
    out.steps.push_back({base.steps[i], comparison.steps[i]});
  out.warnings.push_back(fmt::format("the runs have no step id in common (base steps {}..{}, comparison steps "
                                     "{}..{}): their steps are compared in order",
                                     base.steps.front().step, base.steps.back().step, comparison.steps.front().step,
                                     comparison.steps.back().step));
}

void CompareRanks(const std::vector<RankSummary>& base, const std::vector<RankSummary>& comparison,
                  const RunSteps& bs, const RunSteps& cs, ClusterRunComparison& out) {
  std::set<int64_t> b_ids, c_ids;
  for (const RankSummary& r : base) b_ids.insert(r.rank);
  for (const RankSummary& r : comparison) c_ids.insert(r.rank);
  for (int64_t id : b_ids) {
    if (c_ids.count(id)) {
      out.ranks.emplace_back().rank = id;
    } else {
      out.base_only_ranks.push_back(id);
    }
  }
  for (int64_t id : c_ids)
    if (!b_ids.count(id)) out.comparison_only_ranks.push_back(id);
  for (RankComparison& r : out.ranks) {
    RankValues b{}, c{};
    for (const StepComparison& s : out.steps) {
      auto bi = bs.by_step_rank.find({s.base.step, r.rank});
      auto ci = cs.by_step_rank.find({s.comparison.step, r.rank});
      if (bi == bs.by_step_rank.end() || ci == cs.by_step_rank.end()) continue;
      ++r.steps;
      for (auto [sum, v] : {std::pair{&b, &bi->second}, std::pair{&c, &ci->second}}) {
        sum->step_ns += v->step_ns;
        sum->computing_ns += v->computing_ns;
        sum->communication_ns += v->communication_ns;
        sum->free_ns += v->free_ns;
      }
    }
    if (r.steps == 0) continue;
    r.base_step_ns = b.step_ns / r.steps, r.comparison_step_ns = c.step_ns / r.steps;
    r.base_computing_ns = b.computing_ns / r.steps, r.comparison_computing_ns = c.computing_ns / r.steps;
    r.base_communication_ns = b.communication_ns / r.steps, r.comparison_communication_ns = c.communication_ns / r.steps;
    r.base_free_ns = b.free_ns / r.steps, r.comparison_free_ns = c.free_ns / r.steps;
  }
}

JobTotals Totals(const std::vector<StepComparison>& steps, JobStep StepComparison::*side) {
  JobTotals t;
  if (steps.empty()) return t;
  std::vector<int64_t> step_ns;
  const auto n = static_cast<int64_t>(steps.size());
  for (const StepComparison& s : steps) {
    const JobStep& j = s.*side;
    step_ns.push_back(j.step_ns);
    t.computing_ns += j.computing_ns;
    t.communication_ns += j.communication_ns;
    t.free_ns += j.free_ns;
    t.slow_excess_ns += j.slow_excess_ns;
  }
  std::sort(step_ns.begin(), step_ns.end());
  const size_t m = step_ns.size() / 2;
  t.step_ns = step_ns.size() % 2 ? step_ns[m] : (step_ns[m - 1] + step_ns[m]) / 2;
  t.computing_ns /= n, t.communication_ns /= n, t.free_ns /= n, t.slow_excess_ns /= n;
  return t;
}

void CompareSlowRanks(ClusterRunComparison& out) {
  std::map<int64_t, SlowRankChange> by_rank;
  for (const StepComparison& s : out.steps) {
    if (s.base.slow_rank) ++by_rank[*s.base.slow_rank].base_steps;
    if (s.comparison.slow_rank) ++by_rank[*s.comparison.slow_rank].comparison_steps;
  }
  for (auto& [rank, c] : by_rank) {
    c.rank = rank;
    c.status = c.base_steps == 0 ? "new" : c.comparison_steps == 0 ? "resolved" : "persisting";
    out.slow_ranks.push_back(c);
  }
  auto order = [](const SlowRankChange& c) { return c.status == "new" ? 0 : c.status == "persisting" ? 1 : 2; };
  std::stable_sort(out.slow_ranks.begin(), out.slow_ranks.end(),
                   [&](const SlowRankChange& a, const SlowRankChange& b) { return order(a) < order(b); });
}

std::string RanksText(const std::vector<int64_t>& ranks) {
  std::string s;
  for (int64_t r : ranks) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

}  // namespace

std::optional<RankStepTimes> RankStepTimesOf(const RankSummary& rank, const RankStep& step) {
  RankStepTimes v{step.step_time_ns, step.Value(rank.columns, kColComputing),
                  step.Value(rank.columns, kColCommNotOverlapped), step.Value(rank.columns, kColFree)};
  if (v.computing_ns == kAbsentNs || v.communication_ns == kAbsentNs || v.free_ns == kAbsentNs) return std::nullopt;
  if (v.step_ns == kAbsentNs) v.step_ns = v.computing_ns + v.communication_ns + v.free_ns;
  return v;
}

ClusterRunComparison CompareRuns(const std::vector<RankSummary>& base, const std::vector<StepStraggler>& base_slow,
                                 const std::vector<RankSummary>& comparison,
                                 const std::vector<StepStraggler>& comparison_slow) {
  ClusterRunComparison out;
  const RunSteps bs = MeasureRun(base, base_slow), cs = MeasureRun(comparison, comparison_slow);
  PairSteps(bs, cs, out);
  CompareRanks(base, comparison, bs, cs, out);
  out.base = Totals(out.steps, &StepComparison::base);
  out.comparison = Totals(out.steps, &StepComparison::comparison);
  CompareSlowRanks(out);
  if (!out.base_only_ranks.empty() || !out.comparison_only_ranks.empty()) {
    out.warnings.push_back(fmt::format(
        "the runs have different ranks ({} in the base, {} in the comparison; base only: {}; comparison only: "
        "{}): the job's step and the mean rank are compared, the per-rank table holds the ranks of both",
        base.size(), comparison.size(), out.base_only_ranks.empty() ? "none" : RanksText(out.base_only_ranks),
        out.comparison_only_ranks.empty() ? "none" : RanksText(out.comparison_only_ranks)));
  }
  for (auto [steps, name] : {std::pair{&bs, "base"}, std::pair{&cs, "comparison"}}) {
    if (steps->steps.empty())
      out.incomparable.push_back(fmt::format("the {} run has no step with Computing, Communication(Not "
                                             "Overlapped) and Free on any rank",
                                             name));
  }
  return out;
}

GateResult EvaluateClusterGate(const ClusterRunComparison& cmp, const GateOptions& options) {
  GateResult r;
  r.warnings = cmp.warnings;
  r.incomparable_reasons = cmp.incomparable;
  r.noise_floor_ms = std::isfinite(options.noise_floor_ms) && options.noise_floor_ms > 0 ? options.noise_floor_ms : 0;
  r.noise_floor_ns = std::llround(r.noise_floor_ms * 1e6);
  r.ran = options.any();
  r.basis = cmp.steps.empty() ? GateBasis::kNone : GateBasis::kPerStep;
  if (!r.ran) return r;
  const std::tuple<GateCategory, const std::optional<double>*, int64_t JobTotals::*> wanted[] = {
      {GateCategory::kE2e, &options.e2e_pct, &JobTotals::step_ns},
      {GateCategory::kComputing, &options.compute_pct, &JobTotals::computing_ns},
      {GateCategory::kCommunication, &options.comm_pct, &JobTotals::communication_ns},
      {GateCategory::kFree, &options.free_pct, &JobTotals::free_ns},
  };
  bool any_regression = false, any_incomparable = false;
  for (const auto& [category, pct, field] : wanted) {
    if (!pct->has_value()) continue;
    GateCheck g;
    g.category = category;
    g.threshold_pct = **pct;
    if (cmp.steps.empty() || !std::isfinite(g.threshold_pct)) {
      g.verdict = Verdict::kIncomparable;
      g.reason = cmp.steps.empty() ? fmt::format("cannot gate {}: the runs have no step to compare", Name(category))
                                   : std::string("threshold is not a finite number");
      any_incomparable = true;
      r.checks.push_back(std::move(g));
      continue;
    }
    g.base_ns = cmp.base.*field;
    g.comparison_ns = cmp.comparison.*field;
    JudgeGateCheck(g, r.noise_floor_ns, category == GateCategory::kE2e ? " (job step)" : " (mean rank)");
    any_regression |= g.verdict == Verdict::kRegression;
    r.checks.push_back(std::move(g));
  }
  r.verdict = !r.incomparable_reasons.empty() ? Verdict::kIncomparable
              : any_regression                ? Verdict::kRegression
              : any_incomparable              ? Verdict::kIncomparable
                                              : Verdict::kPass;
  return r;
}

}  // namespace profdiff::analysis
