#include "profdiff/report/json_report.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace profdiff::report {
namespace {

using json = nlohmann::ordered_json;

json Num(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  return v;
}

double Ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string_view FillName(analysis::RowFill f) {
  switch (f) {
    case analysis::RowFill::kBlue: return "blue";
    case analysis::RowFill::kLightBlue: return "light_blue";
    case analysis::RowFill::kNone: return "none";
  }
  return "none";
}

json Side(const analysis::SideSummary& s) {
  json j;
  j["device"] = std::string(Name(s.device));
  j["label"] = s.label;
  j["has_overall"] = s.has_overall;
  j["hide_op_details"] = s.hide_op_details;
  auto put = [&](const char* key, int64_t ns) {
    j[std::string(key) + "_ns"] = ns;
    j[std::string(key) + "_ms"] = Ms(ns);
  };
  put("e2e", s.e2e_ns);
  put("computing", s.computing_ns);
  put("uncovered_communication", s.uncovered_communication_ns);
  put("wait", s.wait_ns);
  put("free", s.free_ns);
  put("sdma", s.sdma_ns);
  json split = json::array();
  for (const auto& [key, ns] : s.computing_split_ns) {
    json e{{"category", key}, {"ns", ns}, {"ms", Ms(ns)}, {"count", nullptr}};
    for (const auto& [ckey, count] : s.computing_split_count) {
      if (ckey == key) e["count"] = count;
    }
    split.push_back(std::move(e));
  }
  // Counts whose category has no duration entry.
  for (const auto& [ckey, count] : s.computing_split_count) {
    bool found = false;
    for (const auto& [key, ns] : s.computing_split_ns) found = found || key == ckey;
    if (!found) split.push_back({{"category", ckey}, {"ns", nullptr}, {"ms", nullptr}, {"count", count}});
  }
  j["computing_split"] = std::move(split);
  j["memory_used_gib"] = Num(s.memory_used_gib);
  j["rdma_bandwidth_gb_s"] = s.rdma_bandwidth_gb_s ? Num(*s.rdma_bandwidth_gb_s) : json(nullptr);
  j["sdma_bandwidth_gb_s"] = s.sdma_bandwidth_gb_s ? Num(*s.sdma_bandwidth_gb_s) : json(nullptr);
  j["warnings"] = s.warnings;
  return j;
}

json Cell(const analysis::MetricCell& m) {
  json j;
  j["present"] = m.present;
  j["duration_ms"] = Num(m.present ? m.duration_ms : 0);
  j["duration_ratio"] = Num(m.present ? m.duration_ratio : 0);
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
                    {"delta_ms", Ms(d)}});
  };
  add("computing", b.computing_ns, c.computing_ns);
  add("uncovered_communication", b.uncovered_communication_ns, c.uncovered_communication_ns);
  add("free", b.free_ns, c.free_ns);
  // Whatever the three categories do not explain (0 whenever each side's categories sum to its e2e),
  // so that the categories always add up to the e2e delta exactly.
  const int64_t rest_b = b.e2e_ns - b.computing_ns - b.uncovered_communication_ns - b.free_ns;
  const int64_t rest_c = c.e2e_ns - c.computing_ns - c.uncovered_communication_ns - c.free_ns;
  add("unattributed", rest_b, rest_c);
  json j;
  j["e2e_delta_ns"] = e2e_delta;
  j["e2e_delta_ms"] = Ms(e2e_delta);
  j["e2e_delta_pct"] = b.e2e_ns != 0 ? json(100.0 * static_cast<double>(e2e_delta) /
                                            static_cast<double>(b.e2e_ns))
                                      : json(nullptr);
  j["categories"] = std::move(cats);
  j["categories_sum_ns"] = sum;
  return j;
}

json Verdict(const analysis::GateResult& g) {
  json j;
  j["result"] = std::string(analysis::Name(g.verdict));
  j["exit_code"] = analysis::GateExitCode(g.verdict);
  j["noise_floor_ms"] = g.noise_floor_ms;
  j["noise_floor_ns"] = g.noise_floor_ns;
  json thresholds = json::object();
  json checks = json::array();
  for (const analysis::GateCheck& c : g.checks) {
    thresholds[std::string(analysis::Name(c.category)) + "_pct"] = Num(c.threshold_pct);
    json e;
    e["category"] = std::string(analysis::Name(c.category));
    e["threshold_pct"] = Num(c.threshold_pct);
    e["evaluated"] = c.evaluated;
    e["result"] = std::string(analysis::Name(c.verdict));
    if (c.evaluated) {
      e["base_ns"] = c.base_ns;
      e["comparison_ns"] = c.comparison_ns;
      e["delta_ns"] = c.delta_ns;
      e["delta_ms"] = Ms(c.delta_ns);
      e["delta_pct"] = c.delta_pct ? Num(*c.delta_pct) : json(nullptr);
    } else {
      e["base_ns"] = nullptr;
      e["comparison_ns"] = nullptr;
      e["delta_ns"] = nullptr;
      e["delta_ms"] = nullptr;
      e["delta_pct"] = nullptr;
    }
    e["reason"] = c.reason;
    checks.push_back(std::move(e));
  }
  j["thresholds"] = std::move(thresholds);
  j["checks"] = std::move(checks);
  return j;
}

json Diags(const Diagnostics* d) {
  json arr = json::array();
  if (d == nullptr) return arr;
  for (size_t i = 0; i < kDiagCount; ++i) {
    const auto id = static_cast<DiagId>(i);
    const Diagnostics::Entry& e = d->entry(id);
    if (e.count == 0) continue;
    const DiagInfo& info = GetDiagInfo(id);
    json ex = json::array();
    for (const auto& x : e.examples) ex.push_back({{"where", x.where.ToString()}, {"detail", x.detail}});
    arr.push_back({{"id", std::string(info.name)},
                   {"severity", std::string(SeverityName(info.severity))},
                   {"description", std::string(info.description)},
                   {"count", e.count},
                   {"examples", std::move(ex)}});
  }
  return arr;
}

json Input(const JsonInput& in) {
  return {{"path", in.path}, {"format", in.format}, {"device", in.device}};
}

}  // namespace

JsonInput JsonInputFromProfile(const Profile& profile) {
  JsonInput in;
  in.path = profile.meta.input_path;
  in.format = std::string(Name(profile.meta.format));
  in.device = std::string(Name(profile.meta.device));
  return in;
}

// Defined in operator_sheets.cc (its header is not included here: its report::Cell would clash with
// this file's Cell()).
std::string OpArgText(const Profile& profile, SliceId op, ArgKey key);

namespace {

// ---- Operator and module comparison ("operators") --------------------------------------------------

std::string_view AlgorithmName(analysis::MatchAlgorithm a) {
  switch (a) {
    case analysis::MatchAlgorithm::kLcs: return "lcs";
    case analysis::MatchAlgorithm::kReferenceCompat: return "reference-compat";
    case analysis::MatchAlgorithm::kNone: return "none";
  }
  return "none";
}

int64_t NsE5(int64_t e5) { return analysis::E5ToNs(e5); }

json OpSide(const Profile& p, const analysis::OperatorSide& s) {
  if (!s.present) return nullptr;
  return {{"name", std::string(s.name)},
          {"input_shape", OpArgText(p, s.slice, ArgKey::kInputDims)},
          {"input_type", OpArgText(p, s.slice, ArgKey::kInputType)},
          {"kernels", s.kernels.size()},
          {"device_ns", NsE5(s.device_e5)},
          {"device_us", Num(s.device_us)}};
}

json ModSide(const analysis::ModuleSide& m) {
  if (!m.present) return nullptr;
  return {{"module_class", m.module_class}, {"module_level", m.level},     {"module_name", m.display_name},
          {"self_ns", NsE5(m.self_e5)},           {"self_us", Num(m.self_us)},   {"total_ns", NsE5(m.total_e5)},
          {"total_us", Num(m.total_us)}};
}

json Operators(const analysis::OperatorComparison& oc) {
  json j;
  j["kind"] = oc.kind == analysis::OperatorCompareKind::kModule     ? "module"
              : oc.kind == analysis::OperatorCompareKind::kOperator ? "operator"
                                                                    : "none";
  j["matching"] = std::string(AlgorithmName(oc.algorithm));
  j["details"] = oc.details;
  auto rate = [](uint64_t m, uint64_t n) { return n ? json(static_cast<double>(m) / static_cast<double>(n)) : json(nullptr); };
  j["match_rate"] = {{"base_items", oc.base_items},
                     {"comparison_items", oc.comparison_items},
                     {"matched", oc.matched},
                     {"base", rate(oc.matched, oc.base_items)},
                     {"comparison", rate(oc.matched, oc.comparison_items)}};
  constexpr size_t kTop = 10;
  json top = json::array();
  if (oc.kind == analysis::OperatorCompareKind::kOperator) {
    json stats = json::array();
    for (const analysis::OperatorStatRow& r : oc.operator_stats)
      stats.push_back({{"name", std::string(r.name)},
                       {"base_ms", Num(r.base_ms)},
                       {"base_count", r.base_count},
                       {"comparison_ms", Num(r.comparison_ms)},
                       {"comparison_count", r.comparison_count},
                       {"diff_ms", Num(r.diff_ms)},
                       {"diff_ratio", Num(r.ratio)}});
    for (size_t i = 0; i < stats.size() && i < kTop; ++i) top.push_back(stats[i]);
    j["operator_statistic"] = std::move(stats);
    json rows = json::array();
    for (const analysis::OperatorRow& r : oc.operator_rows)
      rows.push_back({{"base", OpSide(*oc.base, r.base)},
                      {"comparison", OpSide(*oc.comparison, r.comparison)},
                      {"diff_us", Num(r.diff_us)},
                      {"diff_ratio", Num(r.ratio)}});
    j["operator_rows"] = std::move(rows);
  } else if (oc.kind == analysis::OperatorCompareKind::kModule) {
    json stats = json::array();
    std::vector<std::pair<double, size_t>> order;
    for (const analysis::ModuleStatBlock& b : oc.module_stats) {
      json ops = json::array();
      for (const analysis::ModuleStatOpRow& r : b.ops)
        ops.push_back({{"name", std::string(r.name)},
                       {"base_self_ms", Num(r.base.device_ms)},
                       {"base_count", r.base.count},
                       {"comparison_self_ms", Num(r.comparison.device_ms)},
                       {"comparison_count", r.comparison.count},
                       {"self_diff_ms", Num(r.self_diff_ms)},
                       {"diff_ratio", Num(r.ratio)}});
      order.push_back({b.total_diff_ms, stats.size()});
      stats.push_back({{"module_class", b.module_class},
                       {"module_level", b.level},
                       {"module_name", b.display_name},
                       {"base_self_ms", Num(b.base.self_ms)},
                       {"base_total_ms", Num(b.base.total_ms)},
                       {"base_count", b.base.count},
                       {"comparison_self_ms", Num(b.comparison.self_ms)},
                       {"comparison_total_ms", Num(b.comparison.total_ms)},
                       {"comparison_count", b.comparison.count},
                       {"total_diff_ms", Num(b.total_diff_ms)},
                       {"self_diff_ms", Num(b.self_diff_ms)},
                       {"diff_total_ratio", Num(b.total_ratio)},
                       {"operators", std::move(ops)}});
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < order.size() && i < kTop; ++i) {
      json t = stats[order[i].second];
      t.erase("operators");
      top.push_back(std::move(t));
    }
    j["module_statistic"] = std::move(stats);
    json rows = json::array();
    for (const analysis::ModuleBlock& b : oc.module_blocks) {
      json ops = json::array();
      for (const analysis::ModuleOpRow& r : b.ops) {
        auto side = [](const analysis::ModuleOpSide& s) -> json {
          if (!s.present) return nullptr;
          return {{"name", std::string(s.name)}, {"kernels", s.kernels.size()}, {"self_ns", NsE5(s.device_e5)},
                  {"self_us", Num(s.device_us)}};
        };
        ops.push_back({{"base", side(r.base)},
                       {"comparison", side(r.comparison)},
                       {"self_diff_us", Num(r.self_diff_us)},
                       {"diff_ratio", Num(r.ratio)}});
      }
      rows.push_back({{"base", ModSide(b.base)},
                      {"comparison", ModSide(b.comparison)},
                      {"total_diff_us", Num(b.total_diff_us)},
                      {"self_diff_us", Num(b.self_diff_us)},
                      {"diff_total_ratio", Num(b.total_ratio)},
                      {"operators", std::move(ops)}});
    }
    j["module_rows"] = std::move(rows);
  }
  j["top_by_diff"] = std::move(top);
  j["warnings"] = oc.warnings;
  return j;
}

}  // namespace

std::string RenderJsonReport(const analysis::OverallComparison& cmp, const JsonReportContext& ctx) {
  json j;
  j["schema"] = kJsonSchema;
  j["tool"] = {{"name", "profdiff"}, {"version", ctx.tool_version}};
  j["mode"] = analysis::PolicyModeName(cmp.policy);
  j["inputs"] = {{"base", Input(ctx.base)}, {"comparison", Input(ctx.comparison)}};
  j["sides"] = {{"base", Side(cmp.base)}, {"comparison", Side(cmp.comparison)}};
  j["deltas"] = Deltas(cmp);

  json rows = json::array();
  for (const analysis::OverallRow& r : cmp.rows) {
    rows.push_back({{"label", r.label},
                    {"indent", r.indent},
                    {"fill", std::string(FillName(r.fill))},
                    {"base", Cell(r.base)},
                    {"comparison", Cell(r.comparison)},
                    {"diff_ms", Num(r.diff_ms)},
                    {"diff_ratio", Num(r.diff_ratio)}});
  }
  j["overall_metrics"] = std::move(rows);

  json screen = json::array();
  for (const analysis::ScreenColumn& c : cmp.screen) {
    screen.push_back({{"header", c.header}, {"base", c.base_cell}, {"comparison", c.comparison_cell}});
  }
  j["screen"] = {{"title", cmp.screen_title}, {"columns", std::move(screen)}};

  const bool gate_ran = ctx.gate != nullptr && ctx.gate->ran;
  j["verdict"] = gate_ran ? Verdict(*ctx.gate) : json(nullptr);
  j["comparability_warnings"] =
      ctx.gate != nullptr ? ctx.gate->warnings : analysis::ComparabilityWarnings(cmp);
  j["warnings"] = ctx.warnings;
  j["diagnostics"] = {{"base", Diags(ctx.base_diagnostics)},
                      {"comparison", Diags(ctx.comparison_diagnostics)}};
  j["outputs"] = ctx.outputs;
  j["operators"] = ctx.operators != nullptr ? Operators(*ctx.operators) : json(nullptr);
  // Invalid UTF-8 in labels or paths is replaced rather than aborting the dump.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace profdiff::report
