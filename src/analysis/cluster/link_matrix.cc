// LinksFromMatrixJson, LinksFromMatrixTable (link_matrix.h).
#include "profdiff/analysis/cluster/link_matrix.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>

namespace profdiff::analysis {
namespace {

constexpr std::string_view kTotal = "Total Op Info";

std::optional<int64_t> RankOf(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

double Number(const nlohmann::ordered_json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The links of each transport between two ranks, their median bandwidth (the lower middle one).
void FindSlowLinks(LinkMatrix& m) {
  std::map<std::string, std::vector<double>> by_transport;
  for (const RunLink& l : m.links)
    if (l.src != l.dst) by_transport[l.transport].push_back(l.bandwidth_gbps);
  std::map<std::string, double> median;
  for (auto& [transport, bw] : by_transport) {
    std::sort(bw.begin(), bw.end());
    median[transport] = bw[(bw.size() - 1) / 2];
  }
  for (const RunLink& l : m.links) {
    if (l.src == l.dst) continue;
    const double med = median[l.transport];
    if (l.bandwidth_gbps < 0.5 * med) m.slow.push_back({l, med});
  }
  std::stable_sort(m.slow.begin(), m.slow.end(),
                   [](const SlowLink& a, const SlowLink& b) { return a.link.bandwidth_gbps < b.link.bandwidth_gbps; });
}

void AddJsonTotal(const std::string& step, const std::string& group, const nlohmann::ordered_json& links, LinkMatrix& m) {
  for (const auto& [key, info] : links.items()) {
    const size_t dash = key.find('-');
    const auto src = RankOf(std::string_view(key).substr(0, dash));
    const auto dst = dash == std::string::npos ? std::nullopt : RankOf(std::string_view(key).substr(dash + 1));
    if (!src || !dst || !info.is_object()) {
      m.notes.push_back(fmt::format("{}: {} {}: not a src-dst link", m.source, step, key));
      continue;
    }
    auto transport = info.find("Transport Type");
    m.links.push_back({step, group, *src, *dst, transport != info.end() && transport->is_string() ? transport->get<std::string>() : "",
                       Number(info, "Transit Size(MB)"), Number(info, "Transit Time(ms)"), Number(info, "Bandwidth(GB/s)")});
  }
}

}  // namespace

LinkMatrix LinksFromMatrixJson(std::string_view json_text) {
  LinkMatrix m;
  m.source = "cluster_communication_matrix.json";
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    m.notes.push_back(m.source + ": not a JSON object");
    return m;
  }
  // {rank tuple: {step: {op@group: {src-dst: {...}}}}}: the "Total Op Info@<group>" entries.
  for (const auto& [ranks, steps] : doc.items()) {
    if (!steps.is_object()) continue;
    for (const auto& [step, ops] : steps.items()) {
      if (!ops.is_object()) continue;
      for (const auto& [op, links] : ops.items()) {
        if (!std::string_view(op).starts_with(kTotal) || !links.is_object()) continue;
        const size_t at = op.rfind('@');
        AddJsonTotal(step, at == std::string::npos ? ranks : op.substr(at + 1), links, m);
      }
    }
  }
  FindSlowLinks(m);
  return m;
}

LinkMatrix LinksFromMatrixTable(const ResultTable& table) {
  LinkMatrix m;
  m.source = "ClusterCommunicationMatrix";
  auto col = [&](std::string_view name) {
    for (size_t i = 0; i < table.columns.size(); ++i)
      if (table.columns[i].name == name) return static_cast<int>(i);
    return -1;
  };
  const int step = col("step"), op = col("hccl_op_name"), group = col("group_name"), src = col("src_rank"),
            dst = col("dst_rank"), transport = col("transport_type"), size = col("transit_size"), time = col("transit_time"),
            bandwidth = col("bandwidth");
  if (std::min({step, op, group, src, dst, transport, size, time, bandwidth}) < 0) {
    m.notes.push_back("ClusterCommunicationMatrix: a column is missing");
    return m;
  }
  auto num = [](const SqlValue& v) { return v.kind == SqlValue::Kind::kReal ? v.r : static_cast<double>(v.i); };
  auto text = [](const SqlValue& v) { return v.kind == SqlValue::Kind::kText ? v.text : std::string(); };
  for (const std::vector<SqlValue>& r : table.rows) {
    if (text(r[static_cast<size_t>(op)]) != kTotal) continue;
    m.links.push_back({text(r[static_cast<size_t>(step)]), text(r[static_cast<size_t>(group)]),
                       static_cast<int64_t>(num(r[static_cast<size_t>(src)])), static_cast<int64_t>(num(r[static_cast<size_t>(dst)])),
                       text(r[static_cast<size_t>(transport)]), num(r[static_cast<size_t>(size)]),
                       num(r[static_cast<size_t>(time)]), num(r[static_cast<size_t>(bandwidth)])});
  }
  FindSlowLinks(m);
  return m;
}

}  // namespace profdiff::analysis
