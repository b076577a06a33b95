// The communication tables of the reference's cluster_analysis.db (db_tables.h): its
// CommunicationTimeSum and CommMatrixSum recipes over the ranks' analysis.db tables, with pandas'
// column types, groupings and row orders.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "db_cells.h"
#include "profdiff/analysis/cluster/db_tables.h"
#include "profdiff/analysis/cluster/float_sums.h"
#include "profdiff/analysis/common/python_numbers.h"

namespace profdiff::analysis {
namespace {

using db_cells::ColumnSum;
using db_cells::Dtype;
using db_cells::Frame;
using db_cells::FrameOf;
using db_cells::SqlOf;
using db_cells::StepOf;
using db_cells::TextKey;
using db_cells::Union;

constexpr const char* kTotalOpInfo = "Total Op Info";

double Round4(double x, const ReferencePolicy& p) { return p.cluster_db_float_sums ? NumpyRound(x, 4) : PyRound(x, 4); }

// (a / b).replace(b == 0 -> NaN).fillna(0).round(4): the reference's ratios and total bandwidths.
SqlValue RoundedRatio(double a, double b, const ReferencePolicy& p) {
  return SqlValue::Real(b == 0 ? 0.0 : Round4(a / b, p));
}

// How often the reference's merge with the mapping repeats a row of `group`: once per rank set the
// mapping has for it (once when it has none).
std::map<std::string, int> MergeRepeats(const std::vector<GroupParallelInfo>& mapping) {
  std::map<std::string, std::set<std::vector<int64_t>>> sets;
  for (const GroupParallelInfo& g : mapping) sets[g.group_name].insert(g.rank_set);
  std::map<std::string, int> out;
  for (const auto& [name, s] : sets) out[name] = static_cast<int>(s.size());
  return out;
}
int Repeats(const std::map<std::string, int>& repeats, const std::optional<std::string>& group) {
  if (!group) return 1;
  auto it = repeats.find(*group);
  return it == repeats.end() ? 1 : it->second;
}

ResultTable EmptyTextTable(std::string name, const std::vector<const char*>& columns) {
  ResultTable t{std::move(name), {}, {}, true};
  for (const char* c : columns) t.columns.push_back({c, SqlType::kText});
  return t;
}

// ---- ClusterCommunicationTime -------------------------------------------------------------------

const std::vector<const char*> kTimeColumns = {"hccl_op_name", "group_name",           "start_timestamp",
                                               "elapse_time",  "transit_time",         "wait_time",
                                               "synchronization_time", "idle_time", "step"};
constexpr size_t kTimeFirstSum = 3, kTimeSums = 5, kTimeStep = 8;
const std::vector<const char*> kTimeOut = {"step", "rank_id", "hccl_op_name", "group_name", "start_timestamp",
                                           "elapsed_time", "transit_time", "wait_time", "synchronization_time",
                                           "idle_time", "synchronization_time_ratio", "wait_time_ratio"};

ResultTable TimeTable(const std::vector<Frame>& frames, const std::map<std::string, int>& repeats,
                      const ReferencePolicy& policy) {
  std::vector<Dtype> dtype(kTimeColumns.size(), Dtype::kObject);
  for (size_t i = 2; i < kTimeStep; ++i) {
    dtype[i] = frames.front().NumericDtype(i);
    for (const Frame& f : frames) dtype[i] = Union(dtype[i], f.NumericDtype(i));
  }
  ResultTable t{"ClusterCommunicationTime", {}, {}, true};
  using Key = std::tuple<std::string, int64_t, std::string>;  // step, rank, group: the groupby's sorted keys
  std::map<Key, std::vector<ColumnSum>> sums;
  for (const Frame& f : frames) {
    for (const auto& row : f.t->rows) {
      std::vector<SqlValue> out = {SqlValue::Text(StepOf(f, row, kTimeStep)), SqlValue::Int(f.rank->rank)};
      for (size_t i = 0; i < kTimeStep; ++i) {
        const SqlValue& v = f.At(row, i);
        out.push_back(i >= 2 && v.kind == SqlValue::Kind::kText ? SqlValue::Null() : v);
      }
      out.push_back(SqlValue::Int(0));
      out.push_back(SqlValue::Int(0));
      t.rows.push_back(std::move(out));
      const std::optional<std::string> group = TextKey(f.At(row, 1));
      const std::optional<std::string> step = f.col[kTimeStep] < 0 ? "step" : TextKey(f.At(row, kTimeStep));
      if (!group || !step) continue;  // a NULL key: out of the groupby
      auto [it, added] = sums.try_emplace(Key{*step, f.rank->rank, *group});
      if (added)
        for (size_t i = 0; i < kTimeSums; ++i) it->second.emplace_back(dtype[kTimeFirstSum + i], policy.cluster_db_float_sums);
      for (size_t i = 0; i < kTimeSums; ++i) it->second[i].Add(f.At(row, kTimeFirstSum + i), Repeats(repeats, group));
    }
  }
  for (const auto& [key, s] : sums) {
    std::vector<SqlValue> out = {SqlValue::Text(std::get<0>(key)), SqlValue::Int(std::get<1>(key)),
                                 SqlValue::Text(kTotalOpInfo), SqlValue::Text(std::get<2>(key)), SqlValue::Int(0)};
    for (const ColumnSum& c : s) out.push_back(c.Result());
    const double transit = out[6].AsDouble(), wait = out[7].AsDouble(), sync = out[8].AsDouble();
    out.push_back(RoundedRatio(sync, transit + sync, policy));
    out.push_back(RoundedRatio(wait, transit + wait, policy));
    t.rows.push_back(std::move(out));
  }
  const bool summed = !sums.empty();
  const std::vector<Dtype> out_dtype = {Dtype::kObject, Dtype::kInt, Dtype::kObject, Dtype::kObject,
                                        summed ? Union(dtype[2], Dtype::kInt) : dtype[2],
                                        dtype[3], dtype[4], dtype[5], dtype[6], dtype[7],
                                        summed ? Dtype::kFloat : Dtype::kInt, summed ? Dtype::kFloat : Dtype::kInt};
  for (size_t i = 0; i < kTimeOut.size(); ++i) t.columns.push_back({kTimeOut[i], SqlOf(out_dtype[i])});
  return t;
}

// ---- ClusterCommunicationBandwidth --------------------------------------------------------------

const std::vector<const char*> kBandwidthColumns = {"hccl_op_name", "group_name", "transport_type", "transit_size",
                                                    "transit_time", "bandwidth", "large_packet_ratio",
                                                    "package_size", "count", "total_duration", "step"};
enum BwCol : size_t { kBwOp, kBwGroup, kBwTransport, kBwSize, kBwTime, kBwBandwidth, kBwLpr, kBwPackage, kBwCount,
                      kBwDuration, kBwStep };
const std::vector<const char*> kBandwidthOut = {"step", "rank_id", "hccl_op_name", "group_name", "band_type",
                                                "transit_size", "transit_time", "bandwidth", "large_packet_ratio",
                                                "package_size", "count", "total_duration"};

using BwKey = std::tuple<std::string, std::string, int64_t, std::string>;  // group, step, rank, transport

// Per (group, step, rank, transport): the transit size and time summed over its distinct operators
// (the first row of each), as the reference's DataFrame.sum() adds them (NaN as 0).
std::map<BwKey, std::pair<SqlValue, SqlValue>> DistinctOpTransit(const std::vector<Frame>& frames, bool ints,
                                                                 const ReferencePolicy& policy) {
  struct Parts {
    std::set<std::optional<std::string>> ops;
    std::vector<double> size, time;
    int64_t isize = 0, itime = 0;
  };
  std::map<BwKey, Parts> parts;
  for (const Frame& f : frames) {
    for (const auto& row : f.t->rows) {
      const auto group = TextKey(f.At(row, kBwGroup)), transport = TextKey(f.At(row, kBwTransport));
      const auto step = f.col[kBwStep] < 0 ? "step" : TextKey(f.At(row, kBwStep));
      if (!group || !transport || !step) continue;
      Parts& p = parts[BwKey{*group, *step, f.rank->rank, *transport}];
      if (!p.ops.insert(TextKey(f.At(row, kBwOp))).second) continue;
      p.isize += f.At(row, kBwSize).i;
      p.itime += f.At(row, kBwTime).i;
      p.size.push_back(f.At(row, kBwSize).AsDouble());
      p.time.push_back(f.At(row, kBwTime).AsDouble());
    }
  }
  std::map<BwKey, std::pair<SqlValue, SqlValue>> out;
  for (auto& [key, p] : parts) {
    if (ints) {
      out[key] = {SqlValue::Int(p.isize), SqlValue::Int(p.itime)};
      continue;
    }
    auto sum = [&](const std::vector<double>& v) {
      return SqlValue::Real(policy.cluster_db_float_sums ? NumpyPairwiseSum(v) : ExactSum(v));
    };
    out[key] = {sum(p.size), sum(p.time)};
  }
  return out;
}

ResultTable BandwidthTable(const std::vector<Frame>& frames, const std::map<std::string, int>& repeats,
                           const ReferencePolicy& policy) {
  std::vector<Dtype> dtype(kBandwidthColumns.size(), Dtype::kObject);
  for (size_t i : {kBwSize, kBwTime, kBwBandwidth, kBwLpr, kBwPackage, kBwCount, kBwDuration}) {
    dtype[i] = frames.front().NumericDtype(i);
    for (const Frame& f : frames) dtype[i] = Union(dtype[i], f.NumericDtype(i));
  }
  const bool int_transit = dtype[kBwSize] == Dtype::kInt && dtype[kBwTime] == Dtype::kInt;
  const auto transit = DistinctOpTransit(frames, int_transit, policy);
  ResultTable t{"ClusterCommunicationBandwidth", {}, {}, true};
  struct Agg {
    SqlValue package;
    ColumnSum count, duration;
  };
  std::map<std::tuple<BwKey, double>, Agg> aggs;  // the groupby's sorted keys, package size last
  for (const Frame& f : frames) {
    for (const auto& row : f.t->rows) {
      std::vector<SqlValue> out = {SqlValue::Text(StepOf(f, row, kBwStep)), SqlValue::Int(f.rank->rank)};
      for (size_t i : {kBwOp, kBwGroup, kBwTransport, kBwSize, kBwTime, kBwBandwidth, kBwLpr, kBwPackage, kBwCount,
                       kBwDuration}) {
        const SqlValue& v = f.At(row, i);
        out.push_back(i >= kBwSize && v.kind == SqlValue::Kind::kText ? SqlValue::Null() : v);
      }
      t.rows.push_back(std::move(out));
      const auto group = TextKey(f.At(row, kBwGroup)), transport = TextKey(f.At(row, kBwTransport));
      const auto step = f.col[kBwStep] < 0 ? "step" : TextKey(f.At(row, kBwStep));
      const double package = f.At(row, kBwPackage).AsDouble();
      if (!group || !transport || !step || std::isnan(package)) continue;
      auto [it, added] = aggs.try_emplace({BwKey{*group, *step, f.rank->rank, *transport}, package},
                                          Agg{f.At(row, kBwPackage), ColumnSum(dtype[kBwCount], policy.cluster_db_float_sums),
                                              ColumnSum(dtype[kBwDuration], policy.cluster_db_float_sums)});
      it->second.count.Add(f.At(row, kBwCount), Repeats(repeats, group));
      it->second.duration.Add(f.At(row, kBwDuration), Repeats(repeats, group));
    }
  }
  for (const auto& [key, a] : aggs) {
    const BwKey& k = std::get<0>(key);
    const auto& [size, time] = transit.at(k);
    const SqlValue package = dtype[kBwPackage] == Dtype::kInt ? a.package : SqlValue::Real(a.package.AsDouble());
    t.rows.push_back({SqlValue::Text(std::get<1>(k)), SqlValue::Int(std::get<2>(k)), SqlValue::Text(kTotalOpInfo),
                      SqlValue::Text(std::get<0>(k)), SqlValue::Text(std::get<3>(k)), size, time,
                      RoundedRatio(size.AsDouble(), time.AsDouble(), policy), SqlValue::Int(0), package,
                      a.count.Result(), a.duration.Result()});
  }
  const bool agg = !aggs.empty();
  auto with = [&](size_t i, Dtype d) { return agg ? Union(dtype[i], d) : dtype[i]; };
  const Dtype transit_dtype = int_transit ? Dtype::kInt : Dtype::kFloat;
  const std::vector<Dtype> out_dtype = {Dtype::kObject, Dtype::kInt, Dtype::kObject, Dtype::kObject, Dtype::kObject,
                                        with(kBwSize, transit_dtype), with(kBwTime, transit_dtype),
                                        with(kBwBandwidth, Dtype::kFloat), with(kBwLpr, Dtype::kInt),
                                        dtype[kBwPackage], dtype[kBwCount], dtype[kBwDuration]};
  for (size_t i = 0; i < kBandwidthOut.size(); ++i) t.columns.push_back({kBandwidthOut[i], SqlOf(out_dtype[i])});
  return t;
}

}  // namespace

CommunicationTimeTables CommunicationTimeSumTables(const std::vector<RankSummary>& ranks,
                                                   const std::vector<GroupParallelInfo>& mapping,
                                                   const ReferencePolicy& policy, std::vector<std::string>& notes) {
  std::vector<Frame> time, bandwidth;
  for (const RankSummary& r : ranks) {
    const ClusterDbTables& d = r.db_tables;
    if (d.comm_time.rows.empty() || d.comm_bandwidth.rows.empty()) continue;  // "no stats data": the rank is left out
    auto t = FrameOf(r, d.comm_time, "CommAnalyzerTime", kTimeColumns, notes);
    auto b = FrameOf(r, d.comm_bandwidth, "CommAnalyzerBandwidth", kBandwidthColumns, notes);
    if (!t || !b) continue;
    time.push_back(*t);
    bandwidth.push_back(*b);
  }
  CommunicationTimeTables out;
  if (time.empty()) {  // the reference writes both tables, without a row
    out.time = EmptyTextTable("ClusterCommunicationTime", kTimeOut);
    out.bandwidth = EmptyTextTable("ClusterCommunicationBandwidth", kBandwidthOut);
    return out;
  }
  const std::map<std::string, int> repeats = MergeRepeats(mapping);
  out.time = TimeTable(time, repeats, policy);
  out.bandwidth = BandwidthTable(bandwidth, repeats, policy);
  return out;
}

}  // namespace profdiff::analysis
