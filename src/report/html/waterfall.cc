#include "profdiff/report/html/waterfall.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include <fmt/format.h>

namespace profdiff::report::html {
namespace {

int64_t IntOr0(const OrderedJson& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return 0;
  return it->get<int64_t>();
}

std::string StrOr(const OrderedJson& j, const char* key, const std::string& fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::string CategoryLabel(const std::string& category) {
  if (category == "computing") return "computing";
  if (category == "uncovered_communication") return "uncovered communication";
  if (category == "free") return "free";
  return category;
}

}  // namespace

Waterfall CategoryWaterfall(const OrderedJson& deltas) {
  Waterfall w;
  w.title = "E2E change by category";
  w.total_label = "\xCE\x94" "E2E";  // ΔE2E
  w.total_ns = IntOr0(deltas, "e2e_delta_ns");
  int64_t sum = 0;
  auto cats = deltas.find("categories");
  if (cats != deltas.end() && cats->is_array()) {
    for (const OrderedJson& c : *cats) {
      const std::string name = StrOr(c, "category", "?");
      const int64_t d = IntOr0(c, "delta_ns");
      sum += d;
      if (name == "unattributed" && d == 0) continue;
      w.parts.push_back({CategoryLabel(name), d});
    }
  }
  if (sum != w.total_ns) w.parts.push_back({"unattributed", w.total_ns - sum});
  return w;
}

std::optional<Waterfall> ItemWaterfall(const OrderedJson& operators, size_t top_n) {
  if (!operators.is_object()) return std::nullopt;
  const bool modules = StrOr(operators, "kind", "") == "module";
  auto rows = operators.find(modules ? "module_statistic" : "operator_statistic");
  if (rows == operators.end() || !rows->is_array() || rows->empty()) return std::nullopt;
  std::vector<WaterfallPart> items;
  for (const OrderedJson& r : *rows) {
    WaterfallPart p;
    if (modules) {
      p.label = StrOr(r, "module_name", StrOr(r, "module_class", "?"));
      p.delta_ns = IntOr0(r, "comparison_self_ns") - IntOr0(r, "base_self_ns");  // the exact ns, no double
    } else {
      p.label = StrOr(r, "name", "?");
      p.delta_ns = IntOr0(r, "comparison_ns") - IntOr0(r, "base_ns");
    }
    items.push_back(std::move(p));
  }
  Waterfall w;
  w.title = modules ? "Module self-time change: the largest modules" :
                      "Operator device-time change: the largest operators";
  w.total_label = modules ? "\xCE\x94 module self time" : "\xCE\x94 operator time";
  w.total_ns = std::accumulate(items.begin(), items.end(), int64_t{0},
                               [](int64_t a, const WaterfallPart& p) { return a + p.delta_ns; });
  std::stable_sort(items.begin(), items.end(), [](const WaterfallPart& a, const WaterfallPart& b) {
    return std::llabs(a.delta_ns) > std::llabs(b.delta_ns);
  });
  const size_t shown = std::min(top_n, items.size());
  int64_t shown_sum = 0;
  for (size_t i = 0; i < shown; ++i) {
    shown_sum += items[i].delta_ns;
    w.parts.push_back(std::move(items[i]));
  }
  if (shown < items.size()) {
    w.parts.push_back({fmt::format("other ({} {})", items.size() - shown,
                                   modules ? "modules" : "operators"),
                       w.total_ns - shown_sum});
  }
  return w;
}

}  // namespace profdiff::report::html
