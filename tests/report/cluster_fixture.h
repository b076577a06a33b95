// A small cluster result for the workbook and page tests: two ranks, one step that rank 1 holds
// back by its computing (rank 0 waits 20 ms for it), two collectives that rank 1 arrives last at,
// and with `two_runs` a base run in which nobody was slow (nor late at a collective), compared, with a
// gate that says REGRESSION; its detail: the collectives' skew +20 ms each, the stage's computing and
// communication +20 ms.
#pragma once

#include <memory>

#include "profdiff/report/cluster/cluster_report.h"

namespace profdiff::report::testing {

inline analysis::MatchedCollective Collective(int64_t index, int64_t t0_ns) {
  analysis::MatchedCollective c;
  c.group = "g0";
  c.index = index;
  c.name = "allreduce";
  c.arrivals = {{0, t0_ns, t0_ns + 30'000'000, 20'000'000}, {1, t0_ns + 20'000'000, t0_ns + 30'000'000, 0}};
  c.last_rank = 1;
  c.skew_ns = 20'000'000;
  return c;
}

// The base run's collectives: both ranks arrive together and end 10 ms later (no skew).
inline analysis::MatchedCollective TogetherCollective(int64_t index, int64_t t0_ns) {
  analysis::MatchedCollective c = Collective(index, t0_ns);
  c.arrivals = {{0, t0_ns + 20'000'000, t0_ns + 30'000'000, 0}, {1, t0_ns + 20'000'000, t0_ns + 30'000'000, 0}};
  c.last_rank = 0;
  c.skew_ns = 0;
  return c;
}

inline ClusterResult ClusterFixture(bool two_runs) {
  ClusterResult r;
  r.run_path = "runs/slow";
  r.world_size = 2;
  r.step_table.columns = {"Computing", "Communication(Not Overlapped)", "Free"};
  r.step_table.rows = {{"7", false, "0", {10'000'000, 25'000'000, 5'000'000}, {}},
                       {"7", false, "1", {30'000'000, 5'000'000, 5'000'000}, {}},
                       {"7", true, "(0, 1)", {30'000'000, 25'000'000, 5'000'000}, {}}};
  for (int64_t rank : {0, 1}) {
    analysis::RankSummary s;
    s.rank = rank;
    s.export_kind = "kineto";
    s.columns = r.step_table.columns;
    analysis::RankStep step;
    step.step = "7";
    step.values_ns = r.step_table.rows[static_cast<size_t>(rank)].values_ns;
    s.steps.push_back(step);
    r.ranks.push_back(s);
  }
  analysis::StepStraggler st;
  st.step = "7";
  st.ranks = 2;
  st.rank = 1;
  st.work_ns = 35'000'000;
  st.median_work_ns = 15'000'000;
  st.computing_excess_ns = 20'000'000;
  st.cause = analysis::SlowCause::kComputing;
  st.waiters = {{0, 20'000'000}};
  st.saving_if_median_ns = 20'000'000;
  st.longest_step_rank = 0;
  st.longest_step_ns = 40'000'000;
  r.stragglers.push_back(st);
  r.collectives.collectives = {Collective(0, 1'000'000'000), Collective(1, 2'000'000'000)};
  r.late_ranks = {{1, 2, 40'000'000}};
  r.waits_on = {{0, 1, 40'000'000, 2}};
  if (!two_runs) return r;
  // The base run: both ranks compute 10 ms, communicate 5 ms and are free 5 ms; no skew.
  auto base = std::make_shared<ClusterResult>();
  base->run_path = "runs/base";
  base->ranks = r.ranks;
  for (analysis::RankSummary& s : base->ranks) s.steps[0].values_ns = {10'000'000, 5'000'000, 5'000'000};
  base->step_table.columns = r.step_table.columns;
  base->step_table.rows = {{"7", false, "0", {10'000'000, 5'000'000, 5'000'000}, {}, {0}},
                           {"7", false, "1", {10'000'000, 5'000'000, 5'000'000}, {}, {1}},
                           {"7", true, "(0, 1)", {10'000'000, 5'000'000, 5'000'000}, {}, {0, 1}}};
  base->collectives.collectives = {TogetherCollective(0, 1'000'000'000), TogetherCollective(1, 2'000'000'000)};
  r.step_table.rows[2].ranks = {0, 1};
  r.base_run = base;
  analysis::ClusterRunComparison c;
  c.base = {20'000'000, 10'000'000, 5'000'000, 5'000'000, 0};
  c.comparison = {40'000'000, 20'000'000, 15'000'000, 5'000'000, 20'000'000};
  analysis::StepComparison sc;
  sc.base = {"7", 2, 20'000'000, 10'000'000, 5'000'000, 5'000'000, std::nullopt, analysis::SlowCause::kNone, 0};
  sc.comparison = {"7", 2, 40'000'000, 20'000'000, 15'000'000, 5'000'000, 1, analysis::SlowCause::kComputing,
                   20'000'000};
  c.steps.push_back(sc);
  c.ranks = {{0, 1, 20'000'000, 40'000'000, 10'000'000, 10'000'000, 5'000'000, 25'000'000, 5'000'000, 5'000'000},
             {1, 1, 20'000'000, 40'000'000, 10'000'000, 30'000'000, 5'000'000, 5'000'000, 5'000'000, 5'000'000}};
  c.slow_ranks = {{1, "new", 0, 1}};
  r.run_comparison = c;
  r.run_detail = analysis::CompareRunDetails(c, {base->ranks, base->collectives, base->step_table},
                                             {r.ranks, r.collectives, r.step_table});
  r.gate.ran = true;
  r.gate.verdict = analysis::Verdict::kRegression;
  analysis::GateCheck check;
  check.category = analysis::GateCategory::kE2e;
  check.threshold_pct = 5;
  check.evaluated = true;
  check.base_ns = 20'000'000;
  check.comparison_ns = 40'000'000;
  check.delta_ns = 20'000'000;
  check.verdict = analysis::Verdict::kRegression;
  check.reason = "e2e grew 100%";
  r.gate.checks.push_back(check);
  return r;
}

}  // namespace profdiff::report::testing
