// A rank summary made of step rows alone, for the cluster analyses' tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis::testing {

inline constexpr int64_t kMs = 1'000'000;

// A rank whose steps (ids first_step, first_step + 1, ...) hold Computing, Communication(Not
// Overlapped), Free in ms; its step time is their sum.
inline RankSummary Rank(int64_t rank, const std::vector<std::vector<int64_t>>& steps_ms, int64_t first_step = 1) {
  RankSummary r;
  r.rank = rank;
  r.columns = {std::string(kColComputing), std::string(kColCommNotOverlapped), std::string(kColFree)};
  int64_t id = first_step;
  for (const auto& v : steps_ms) {
    RankStep s;
    s.step = std::to_string(id++);
    for (int64_t ms : v) s.values_ns.push_back(ms * kMs);
    s.values_us_float.assign(3, NAN);
    s.step_time_ns = (v[0] + v[1] + v[2]) * kMs;
    r.steps.push_back(s);
  }
  return r;
}

}  // namespace profdiff::analysis::testing
