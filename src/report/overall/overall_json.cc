#include "profdiff/report/overall/overall_json.h"

#include <string>
#include <string_view>

#include "profdiff/base/time.h"

namespace profdiff::report {
namespace {

using json = OrderedJson;

std::string_view FillName(analysis::RowFill f) {
  switch (f) {
    case analysis::RowFill::kBlue:
      return "blue";
    case analysis::RowFill::kLightBlue:
      return "light_blue";
    case analysis::RowFill::kNone:
      return "none";
  }
  return "none";
}

// The computing split: one entry per category with a duration (with its count when there is one),
// then the counts whose category has no duration.
json ComputingSplit(const analysis::SideSummary& s) {
  json split = json::array();
  for (const auto& [key, ns] : s.computing_split_ns) {
    json e{{"category", key}, {"ns", ns}, {"ms", NsToMs(ns)}, {"count", nullptr}};
    for (const auto& [ckey, count] : s.computing_split_count) {
      if (ckey == key) e["count"] = count;
    }
    split.push_back(std::move(e));
  }
  for (const auto& [ckey, count] : s.computing_split_count) {
    bool found = false;
    for (const auto& [key, ns] : s.computing_split_ns) found = found || key == ckey;
    if (!found)
      split.push_back({{"category", ckey}, {"ns", nullptr}, {"ms", nullptr}, {"count", count}});
  }
  return split;
}

// NPU: each communication group's uncovered communication, split exactly (docs/deviations.md
// row 12): transmit + wait + idle = uncovered.
json CommunicationGroups(const analysis::SideSummary& s) {
  json groups = json::array();
  for (const analysis::CommunicationGroupSplit& g : s.communication_groups) {
    groups.push_back({{"group", g.group},
                      {"uncovered_ns", g.uncovered_ns},
                      {"transmit_ns", g.transmit_ns},
                      {"wait_ns", g.wait_ns},
                      {"idle_ns", g.idle_ns}});
  }
  return groups;
}

// Each ProfilerStep window's exact split (analysis/overall/step_split.h), by step id.
json Steps(const analysis::SideSummary& s) {
  json steps = json::array();
  for (const analysis::StepSplit& st : s.steps) {
    steps.push_back({{"step", st.id},
                     {"start_ns", st.start_ns},
                     {"e2e_ns", st.e2e_ns},
                     {"computing_ns", st.computing_ns},
                     {"uncovered_communication_ns", st.communication_ns},
                     {"free_ns", st.free_ns}});
  }
  return steps;
}

json Side(const analysis::SideSummary& s) {
  json j;
  j["device"] = std::string(Name(s.device));
  j["label"] = s.label;
  j["has_overall"] = s.has_overall;
  j["hide_op_details"] = s.hide_op_details;
  // A side without an end-to-end time (no device data) has unknown times: null, never 0.
  auto put = [&](const char* key, int64_t ns) {
    j[std::string(key) + "_ns"] = s.has_overall ? json(ns) : json(nullptr);
    j[std::string(key) + "_ms"] = s.has_overall ? json(NsToMs(ns)) : json(nullptr);
  };
  put("e2e", s.e2e_ns);
  put("computing", s.computing_ns);
  put("uncovered_communication", s.uncovered_communication_ns);
  put("wait", s.wait_ns);
  put("free", s.free_ns);
  put("sdma", s.sdma_ns);
  j["computing_split"] = ComputingSplit(s);
  if (s.device == DeviceKind::kNpu) j["communication_groups"] = CommunicationGroups(s);
  j["steps"] = Steps(s);
  // What the step windows are (analysis/timeline/device_steps.h) and how much device time they hold.
  j["step_windows"] = {
      {"source", std::string(analysis::Name(s.step_source))},
      {"excludes", s.device == DeviceKind::kNpu && s.step_source != analysis::StepWindowSource::kHostMarkers &&
                           s.step_source != analysis::StepWindowSource::kNone
                       ? json("Preparing (host time before a step's first device task)")
                       : json(nullptr)},
      {"busy_ns", s.step_coverage.busy_ns},
      {"busy_outside_steps_ns", s.step_coverage.outside_ns}};
  j["memory_used_gib"] = s.memory_known ? JsonNumber(s.memory_used_gib) : json(nullptr);
  j["rdma_bandwidth_gb_s"] =
      s.rdma_bandwidth_gb_s ? JsonNumber(*s.rdma_bandwidth_gb_s) : json(nullptr);
  j["sdma_bandwidth_gb_s"] =
      s.sdma_bandwidth_gb_s ? JsonNumber(*s.sdma_bandwidth_gb_s) : json(nullptr);
  j["warnings"] = s.warnings;
  return j;
}

json Cell(const analysis::MetricCell& m) {
  json j;
  j["present"] = m.present;
  j["duration_ms"] = JsonNumber(m.present ? m.duration_ms : 0);
  j["duration_ratio"] = JsonNumber(m.present ? m.duration_ratio : 0);
  j["number"] = m.present && m.number ? json(*m.number) : json(nullptr);
  return j;
}

json Deltas(const analysis::OverallComparison& cmp) {
  const analysis::SideSummary& b = cmp.base;
  const analysis::SideSummary& c = cmp.comparison;
  const int64_t e2e_delta = c.e2e_ns - b.e2e_ns;
  json cats = json::array();
  int64_t sum = 0;
  auto add = [&](const char* name, int64_t bns, int64_t cns) {
    const int64_t d = cns - bns;
    sum += d;
    cats.push_back({{"category", name},
                    {"base_ns", bns},
                    {"comparison_ns", cns},
                    {"delta_ns", d},
                    {"delta_ms", NsToMs(d)}});
  };
  add("computing", b.computing_ns, c.computing_ns);
  add("uncovered_communication", b.uncovered_communication_ns, c.uncovered_communication_ns);
  add("free", b.free_ns, c.free_ns);
  // Whatever the three categories do not explain (0 whenever each side's categories sum to its
  // e2e), so that the categories always add up to the e2e delta exactly.
  const int64_t rest_b = b.e2e_ns - b.computing_ns - b.uncovered_communication_ns - b.free_ns;
  const int64_t rest_c = c.e2e_ns - c.computing_ns - c.uncovered_communication_ns - c.free_ns;
  add("unattributed", rest_b, rest_c);
  json j;
  j["e2e_delta_ns"] = e2e_delta;
  j["e2e_delta_ms"] = NsToMs(e2e_delta);
  j["e2e_delta_pct"] =
      b.e2e_ns != 0 ? json(100.0 * static_cast<double>(e2e_delta) / static_cast<double>(b.e2e_ns))
                    : json(nullptr);
  j["categories"] = std::move(cats);
  j["categories_sum_ns"] = sum;
  return j;
}

json MetricRows(const analysis::OverallComparison& cmp) {
  json rows = json::array();
  for (const analysis::OverallRow& r : cmp.rows) {
    // The depth is `indent`; the reference's leading tabs stay under --reference-compat only.
    const std::string label =
        cmp.policy.overall_labels_keep_tabs ? r.label : r.label.substr(static_cast<size_t>(r.indent));
    rows.push_back({{"label", label},
                    {"indent", r.indent},
                    {"fill", std::string(FillName(r.fill))},
                    {"base", Cell(r.base)},
                    {"comparison", Cell(r.comparison)},
                    {"diff_ms", JsonNumber(r.diff_ms)},
                    {"diff_ratio", JsonNumber(r.diff_ratio)}});
  }
  return rows;
}

json Screen(const analysis::OverallComparison& cmp) {
  json columns = json::array();
  for (const analysis::ScreenColumn& c : cmp.screen) {
    columns.push_back(
        {{"header", c.header}, {"base", c.base_cell}, {"comparison", c.comparison_cell}});
  }
  return {{"title", cmp.screen_title}, {"columns", std::move(columns)}};
}

}  // namespace

OrderedJson OverallJsonSection(const analysis::OverallComparison& cmp) {
  json j;
  j["sides"] = {{"base", Side(cmp.base)}, {"comparison", Side(cmp.comparison)}};
  j["deltas"] = Deltas(cmp);
  j["overall_metrics"] = MetricRows(cmp);
  j["screen"] = Screen(cmp);
  return j;
}

}  // namespace profdiff::report
