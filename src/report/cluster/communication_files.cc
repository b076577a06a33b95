// RenderClusterCommunicationFiles (communication_files.h): the reference's cluster_communication.json,
// cluster_communication_matrix.json and communication_group.json of a run of text exports.
#include "profdiff/report/cluster/communication_files.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include "profdiff/report/python_json.h"

namespace profdiff::report {
namespace {

using J = OrderedJson;
using analysis::CommunicationGroups;
using analysis::OperatorGroup;
using analysis::RankSummary;

constexpr const char* kTimeInfo = "Communication Time Info";
constexpr const char* kBandwidthInfo = "Communication Bandwidth Info";
constexpr const char* kStartTimestamp = "Start Timestamp(us)";
constexpr const char* kWaitTime = "Wait Time(ms)";
constexpr const char* kTransitTime = "Transit Time(ms)";
constexpr const char* kSyncTime = "Synchronization Time(ms)";
constexpr const char* kWaitRatio = "Wait Time Ratio";
constexpr const char* kSyncRatio = "Synchronization Time Ratio";
constexpr const char* kTransitSize = "Transit Size(MB)";
constexpr const char* kSizeDistribution = "Size Distribution";
constexpr const char* kBandwidth = "Bandwidth(GB/s)";
constexpr const char* kTransportType = "Transport Type";
constexpr const char* kOpName = "Op Name";
constexpr const char* kTotalOpInfo = "Total Op Info@";

// ---- Python's arithmetic on JSON numbers --------------------------------------------------------

bool IsPyNumber(const J& v) { return v.is_number() || v.is_boolean(); }
bool IsPyInt(const J& v) { return v.is_number_integer() || v.is_boolean(); }
int64_t AsInt(const J& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  return v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
}
double AsDouble(const J& v) { return v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>(); }

// a + b as Python adds them: two integers give an integer, anything else a float. A value Python
// could not add (a string, null) leaves `a` as it is.
J PyAdd(const J& a, const J& b) {
  if (!IsPyNumber(a) || !IsPyNumber(b)) return a;
  if (IsPyInt(a) && IsPyInt(b)) return J(AsInt(a) + AsInt(b));
  return J(AsDouble(a) + AsDouble(b));
}

// The reference's compute_ratio: 0 (an integer) when |divisor| < 1e-15, else round(a / b, 4).
J Ratio(const J& dividend, const J& divisor) {
  const double b = IsPyNumber(divisor) ? AsDouble(divisor) : 0.0;
  if (std::fabs(b) < 1e-15) return J(0);
  const double q = (IsPyNumber(dividend) ? AsDouble(dividend) : 0.0) / b;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.4f", q);  // correctly rounded, as Python's round(q, 4)
  return J(std::strtod(buf, nullptr));
}

J Get(const J& obj, const char* key, J fallback) {
  auto it = obj.find(key);
  return it == obj.end() ? fallback : *it;
}

// ---- operators by group, step, name and rank ----------------------------------------------------

std::string TupleText(const std::vector<int64_t>* ranks) {
  if (ranks == nullptr || ranks->empty()) return "()";
  std::string s = "(";
  for (size_t i = 0; i < ranks->size(); ++i) s += (i > 0 ? ", " : "") + std::to_string((*ranks)[i]);
  return s + (ranks->size() == 1 ? ",)" : ")");
}

// {"(ranks)": {step: {operator: {rank: value}}}}, the first value of a rank kept.
J OperatorsByGroup(const std::vector<RankSummary>& ranks, const CommunicationGroups& groups, bool matrix) {
  J doc = J::object();
  for (const RankSummary& r : ranks) {
    const CommunicationOpRecords& records = matrix ? r.matrix_ops : r.communication_ops;
    for (const CommunicationOpRecord& op : records.ops) {
      if (matrix && op.type != "collective" && op.type != "p2p") continue;  // the reference skips them
      const std::string_view group = OperatorGroup(op.name);
      const auto* members = op.type == "p2p" ? groups.P2pRanks(group) : groups.CollectiveRanks(group);
      J& by_rank = doc[TupleText(members)][op.step][op.name];
      const std::string rank = std::to_string(r.rank);
      if (!by_rank.contains(rank)) by_rank[rank] = J::parse(op.value_json);
    }
  }
  return doc;
}

// ---- cluster_communication.json's totals -------------------------------------------------------

void CombineTime(const J& info, J& total) {
  if (!info.is_object()) return;
  for (const auto& [key, value] : info.items()) {
    if (key == kWaitRatio || key == kSyncRatio || key == kStartTimestamp) continue;
    J& acc = total[key];
    if (acc.is_null()) acc = 0.0;  // a defaultdict(float)
    acc = PyAdd(acc, value);
  }
}

void CombineBandwidth(const J& info, J& total) {
  if (!info.is_object()) return;
  for (const auto& [transport, part] : info.items()) {
    if (!total.contains(transport)) {
      J t = J::object();
      t[kTransitTime] = 0;
      t[kTransitSize] = 0;
      t[kSizeDistribution] = J::object();
      total[transport] = std::move(t);
    }
    if (!part.is_object()) continue;
    J& t = total[transport];
    for (const auto& [key, value] : part.items()) {
      if (key == kTransitTime || key == kTransitSize) t[key] = PyAdd(t[key], value);
      if (key != kSizeDistribution || !value.is_object()) continue;
      for (const auto& [size, count_time] : value.items()) {
        J& d = t[kSizeDistribution][size];
        if (d.is_null()) d = J::array({0, 0});
        if (!count_time.is_array() || count_time.size() < 2) continue;
        d[0] = PyAdd(d[0], count_time[0]);
        d[1] = PyAdd(d[1], count_time[1]);
      }
    }
  }
}

void FinishRankTotal(J& total) {
  J& time = total[kTimeInfo];
  const J wait = Get(time, kWaitTime, J(0)), transit = Get(time, kTransitTime, J(0)), sync = Get(time, kSyncTime, J(0));
  time[kWaitRatio] = Ratio(wait, PyAdd(wait, transit));
  time[kSyncRatio] = Ratio(sync, PyAdd(sync, transit));
  for (auto& [transport, t] : total[kBandwidthInfo].items())
    t[kBandwidth] = Ratio(Get(t, kTransitSize, J(0)), Get(t, kTransitTime, J(0)));
}

// Appends "Total Op Info@<group>" to one step's operators: per group and rank, the sums above.
void AddCommunicationTotals(J& ops) {
  J totals = J::object();
  for (const auto& [op_name, by_rank] : ops.items()) {
    const std::string group(OperatorGroup(op_name));
    for (const auto& [rank, info] : by_rank.items()) {
      if (!info.is_object()) continue;
      for (const auto& [key, value] : info.items()) {
        if (key != kTimeInfo && key != kBandwidthInfo) continue;
        J& total = totals[group][rank];
        if (total.is_null()) {
          total = J::object();
          total[kTimeInfo] = J::object();
          total[kBandwidthInfo] = J::object();
        }
        if (key == kTimeInfo) CombineTime(value, total[kTimeInfo]);
        else CombineBandwidth(value, total[kBandwidthInfo]);
      }
    }
  }
  for (auto& [group, by_rank] : totals.items()) {
    for (auto& [rank, total] : by_rank.items()) FinishRankTotal(total);
    ops[kTotalOpInfo + group] = std::move(by_rank);
  }
}

// ---- cluster_communication_matrix.json ----------------------------------------------------------

std::pair<std::string, std::string> LinkEnds(const std::string& key) {  // Python's key.split('-')[0], [1]
  const size_t dash = key.find('-');
  const size_t next = key.find('-', dash + 1);
  return {key.substr(0, dash), key.substr(dash + 1, next == std::string::npos ? std::string::npos : next - dash - 1)};
}

J NewLink() {
  J link = J::object();
  link[kTransportType] = "";
  link[kTransitTime] = 0;
  link[kTransitSize] = 0;
  link[kOpName] = "";
  return link;
}

void CombineLink(J& acc, const J& link) {
  if (!link.is_object()) return;
  acc[kTransportType] = Get(link, kTransportType, J(nullptr));
  acc[kOpName] = Get(link, kOpName, J(""));
  acc[kTransitTime] = PyAdd(acc[kTransitTime], Get(link, kTransitTime, J(0)));
  acc[kTransitSize] = PyAdd(acc[kTransitSize], Get(link, kTransitSize, J(0)));
}

using LocalRanks = std::map<std::string, std::map<std::string, std::string>>;  // group -> local -> global

// Each group's local ranks, from the ranks' own links ("3-3" in global rank 5's file): the first
// rank that names a local rank gives it. A link key without '-' ends that rank's links.
LocalRanks FindLocalRanks(const J& ops) {
  LocalRanks map;
  for (const auto& [op_name, by_rank] : ops.items()) {
    auto& local = map[std::string(OperatorGroup(op_name))];
    for (const auto& [rank, links] : by_rank.items()) {
      if (!links.is_object()) continue;
      for (const auto& [key, link] : links.items()) {
        if (key.find('-') == std::string::npos) break;
        const auto [src, dst] = LinkEnds(key);
        if (src == dst) local.try_emplace(src, rank);
      }
    }
  }
  return map;
}

// Each operator's links summed over its ranks and keyed by global ranks.
void MergeSameLinks(J& ops, std::vector<std::string>& unmapped) {
  LocalRanks local_ranks = FindLocalRanks(ops);
  for (auto& [op_name, by_rank] : ops.items()) {
    J summed = J::object();
    for (const auto& [rank, links] : by_rank.items()) {
      if (!links.is_object()) continue;
      for (const auto& [key, link] : links.items()) {
        if (key.find('-') == std::string::npos) break;
        J& acc = summed[key];
        if (acc.is_null()) acc = NewLink();
        CombineLink(acc, link);
      }
    }
    const auto& local = local_ranks[std::string(OperatorGroup(op_name))];
    J global = J::object();
    for (auto& [key, link] : summed.items()) {
      const auto [src, dst] = LinkEnds(key);
      auto s = local.find(src), d = local.find(dst);
      if (s == local.end() || d == local.end()) {
        unmapped.push_back(op_name + ": " + key);
        continue;
      }
      link[kBandwidth] = Ratio(link[kTransitSize], link[kTransitTime]);
      global[s->second + "-" + d->second] = std::move(link);
    }
    by_rank = std::move(global);
  }
}

// The reference's check_add_op: a top/middle/bottom entry is not added to the total.
bool AddsToTotal(std::string_view op_name) {
  for (std::string_view part : {"middle", "top", "bottom"})
    if (op_name.find(part) != std::string_view::npos) return false;
  return true;
}

void AddMatrixTotals(J& ops) {
  J totals = J::object();
  for (const auto& [op_name, links] : ops.items()) {
    if (!AddsToTotal(op_name)) continue;
    const std::string group(OperatorGroup(op_name));
    for (const auto& [key, link] : links.items()) {
      J& acc = totals[group][key];
      if (acc.is_null()) acc = NewLink();
      CombineLink(acc, link);
    }
  }
  for (auto& [group, links] : totals.items()) {
    for (auto& [key, link] : links.items()) link[kBandwidth] = Ratio(link[kTransitSize], link[kTransitTime]);
    ops[kTotalOpInfo + group] = std::move(links);
  }
}

// ---- communication_group.json -------------------------------------------------------------------

J GroupJson(const CommunicationGroups& groups) {
  J doc = J::object();
  for (const auto* list : {&groups.collective, &groups.p2p}) {
    J& out = doc[list == &groups.collective ? "collective" : "p2p"];
    out = J::array();
    for (const analysis::CommunicationGroup& g : *list) out.push_back(g.ranks);
  }
  J& info = doc["comm_group_parallel_info"];
  info = J::array();
  for (const analysis::GroupParallelInfo& g : groups.parallel_info) {
    J row = J::object();
    row["type"] = g.type;
    row["rank_set"] = g.rank_set;
    row["group_name"] = g.group_name;
    row["group_id"] = g.group_id;
    row["pg_name"] = g.pg_name;
    info.push_back(std::move(row));
  }
  return doc;
}

}  // namespace

ClusterCommunicationFiles RenderClusterCommunicationFiles(const std::vector<RankSummary>& ranks,
                                                          const CommunicationGroups& groups,
                                                          analysis::ClusterMode mode) {
  ClusterCommunicationFiles out;
  out.group_json = PythonJsonDumps(GroupJson(groups));
  if (analysis::ReadsCommunicationTime(mode)) {
    J doc = OperatorsByGroup(ranks, groups, false);
    for (auto& [tuple, steps] : doc.items())
      for (auto& [step, ops] : steps.items()) AddCommunicationTotals(ops);
    if (!doc.empty()) out.communication_json = PythonJsonDumps(doc);
  }
  if (analysis::ReadsCommunicationMatrix(mode)) {
    J doc = OperatorsByGroup(ranks, groups, true);
    for (auto& [tuple, steps] : doc.items()) {
      for (auto& [step, ops] : steps.items()) {
        MergeSameLinks(ops, out.unmapped_links);
        AddMatrixTotals(ops);
      }
    }
    if (!doc.empty()) out.matrix_json = PythonJsonDumps(doc);
  }
  return out;
}

}  // namespace profdiff::report
