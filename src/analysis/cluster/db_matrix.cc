// ClusterCommunicationMatrix of the reference's cluster_analysis.db (db_tables.h): its CommMatrixSum
// recipe over the ranks' analysis.db CommAnalyzerMatrix.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "db_cells.h"
#include "profdiff/analysis/cluster/db_tables.h"

namespace profdiff::analysis {
namespace {

using db_cells::ColumnSum;
using db_cells::Dtype;
using db_cells::Frame;
using db_cells::FrameOf;
using db_cells::SqlOf;
using db_cells::TextKey;
using db_cells::Union;

const std::vector<const char*> kMatrixColumns = {"hccl_op_name", "group_name", "src_rank", "dst_rank", "transport_type",
                                                 "transit_size", "transit_time", "step", "type", "op_name"};
enum MxCol : size_t { kOp, kGroup, kSrc, kDst, kTransport, kSize, kTime, kStep, kType, kOpName };

// group name -> local rank -> global rank, from each rank's own links ("3-3" in global rank 5's
// table): the first rank that names a local rank gives it.
using LocalRanks = std::map<std::string, std::map<std::string, int64_t>>;
LocalRanks FindLocalRanks(const std::vector<Frame>& frames) {
  LocalRanks out;
  for (const Frame& f : frames) {
    for (const auto& row : f.t->rows) {
      const auto group = TextKey(f.At(row, kGroup)), src = TextKey(f.At(row, kSrc)), dst = TextKey(f.At(row, kDst));
      if (group && src && dst && *src == *dst) out[*group].try_emplace(*src, f.rank->rank);
    }
  }
  return out;
}

// The reference's rank_set of a row: "p2p", else its group's global ranks joined ("0,1"; "" unknown).
std::string RankSetKey(const LocalRanks& local, const std::string& group, const SqlValue& type) {
  if (type.kind == SqlValue::Kind::kText && type.text == "p2p") return "p2p";
  auto it = local.find(group);
  if (it == local.end()) return "";
  std::vector<int64_t> ranks;
  for (const auto& [l, g] : it->second) ranks.push_back(g);
  std::sort(ranks.begin(), ranks.end());
  std::string s;
  for (int64_t r : ranks) s += (s.empty() ? "" : ",") + std::to_string(r);
  return s;
}

// One group of rows: its keys, the first non-NULL transport and op name, the summed size and time.
struct Link {
  std::array<std::string, 6> key;  // rank set, step, operator, group, source, destination
  SqlValue transport, op_name;
  ColumnSum size, time;
  int64_t src = 0, dst = 0;  // global ranks, once mapped
  void Add(const SqlValue& t, const SqlValue& o, const SqlValue& s, const SqlValue& d) {
    if (transport.is_null()) transport = t;
    if (op_name.is_null()) op_name = o;
    size.Add(s);
    time.Add(d);
  }
};

// The operators' links summed over the ranks (in order of first appearance; sorted under
// policy.cluster_matrix_rows_sorted).
std::vector<Link> SumLinks(const std::vector<Frame>& frames, const LocalRanks& local, Dtype size_dtype,
                           Dtype time_dtype, const ReferencePolicy& policy) {
  std::vector<Link> links;
  std::map<std::array<std::string, 6>, size_t> index;
  for (const Frame& f : frames) {
    for (const auto& row : f.t->rows) {
      std::array<std::optional<std::string>, 5> k = {TextKey(f.At(row, kStep)), TextKey(f.At(row, kOp)),
                                                     TextKey(f.At(row, kGroup)), TextKey(f.At(row, kSrc)),
                                                     TextKey(f.At(row, kDst))};
      if (std::any_of(k.begin(), k.end(), [](const auto& v) { return !v; })) continue;  // a NULL key
      const std::array<std::string, 6> key = {RankSetKey(local, *k[2], f.At(row, kType)), *k[0], *k[1], *k[2], *k[3],
                                              *k[4]};
      auto [it, added] = index.try_emplace(key, links.size());
      if (added)
        links.push_back(Link{key, {}, {}, ColumnSum(size_dtype, policy.cluster_db_float_sums),
                             ColumnSum(time_dtype, policy.cluster_db_float_sums)});
      links[it->second].Add(f.At(row, kTransport), f.At(row, kOpName), f.At(row, kSize), f.At(row, kTime));
    }
  }
  if (policy.cluster_matrix_rows_sorted)
    std::stable_sort(links.begin(), links.end(), [](const Link& a, const Link& b) { return a.key < b.key; });
  return links;
}

std::vector<SqlValue> LinkRow(const std::string& step, const std::string& op, const std::string& group, const Link& l,
                              SqlValue bandwidth) {
  return {SqlValue::Text(step), SqlValue::Text(op), SqlValue::Text(group), SqlValue::Real(static_cast<double>(l.src)),
          SqlValue::Real(static_cast<double>(l.dst)), l.transport, l.op_name, l.size.Result(), l.time.Result(),
          bandwidth};
}

// Per (group, step, source, destination) the "total" operators' links summed: the Total Op Info rows.
std::vector<std::vector<SqlValue>> TotalRows(const std::vector<const Link*>& mapped, Dtype size_dtype, Dtype time_dtype,
                                             const ReferencePolicy& policy) {
  using Key = std::tuple<std::string, std::string, int64_t, int64_t>;  // group, step, source, destination
  std::vector<std::pair<Key, Link>> totals;
  std::map<Key, size_t> index;
  for (const Link* l : mapped) {
    if (l->key[2].find("total") == std::string::npos) continue;
    const Key key{l->key[3], l->key[1], l->src, l->dst};
    auto [it, added] = index.try_emplace(key, totals.size());
    if (added) {
      totals.emplace_back(key, Link{{}, {}, {}, ColumnSum(size_dtype, policy.cluster_db_float_sums),
                                    ColumnSum(time_dtype, policy.cluster_db_float_sums), l->src, l->dst});
    }
    totals[it->second].second.Add(l->transport, l->op_name, l->size.Result(), l->time.Result());
  }
  if (policy.cluster_matrix_rows_sorted)
    std::stable_sort(totals.begin(), totals.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<SqlValue>> rows;
  for (const auto& [key, l] : totals) {
    // transit_size / transit_time, a time of 0 giving inf (NaN for 0 / 0), as the reference divides
    const double bandwidth = l.size.Result().AsDouble() / l.time.Result().AsDouble();
    rows.push_back(LinkRow(std::get<1>(key), "Total Op Info", std::get<0>(key), l,
                           std::isnan(bandwidth) ? SqlValue::Null() : SqlValue::Real(bandwidth)));
  }
  return rows;
}

}  // namespace

std::optional<ResultTable> CommunicationMatrixTable(const std::vector<RankSummary>& ranks,
                                                    const ReferencePolicy& policy, std::vector<std::string>& notes) {
  std::vector<Frame> frames;
  for (const RankSummary& r : ranks) {
    if (r.db_tables.comm_matrix.rows.empty()) continue;
    if (auto f = FrameOf(r, r.db_tables.comm_matrix, "CommAnalyzerMatrix", kMatrixColumns, notes)) frames.push_back(*f);
  }
  if (frames.empty()) return std::nullopt;
  Dtype size_dtype = frames.front().NumericDtype(kSize), time_dtype = frames.front().NumericDtype(kTime);
  for (const Frame& f : frames) {
    size_dtype = Union(size_dtype, f.NumericDtype(kSize));
    time_dtype = Union(time_dtype, f.NumericDtype(kTime));
  }
  const LocalRanks local = FindLocalRanks(frames);
  std::vector<Link> links = SumLinks(frames, local, size_dtype, time_dtype, policy);
  ResultTable t{"ClusterCommunicationMatrix", {}, {}, true};
  std::vector<const Link*> mapped;
  std::set<std::pair<std::string, std::string>> unmapped;  // (group, local rank), as the reference logs them
  for (Link& l : links) {
    auto g = local.find(l.key[3]);
    const std::map<std::string, int64_t> none;
    const auto& m = g == local.end() ? none : g->second;
    auto s = m.find(l.key[4]), d = m.find(l.key[5]);
    if (s == m.end() || d == m.end()) {
      unmapped.emplace(l.key[3], s == m.end() ? l.key[4] : l.key[5]);
      continue;
    }
    l.src = s->second;
    l.dst = d->second;
    mapped.push_back(&l);
    const double time = l.time.Result().AsDouble();
    t.rows.push_back(LinkRow(l.key[1], l.key[2], l.key[3], l,
                             SqlValue::Real(time != 0 ? l.size.Result().AsDouble() / time : 0.0)));
  }
  for (auto& row : TotalRows(mapped, size_dtype, time_dtype, policy)) t.rows.push_back(std::move(row));
  if (!unmapped.empty()) {
    notes.push_back(fmt::format("ClusterCommunicationMatrix: the links of {} local rank(s) that no profiled rank of "
                                "their group maps to a global rank are left out, as the reference leaves them "
                                "(first: group {}, local rank {})",
                                unmapped.size(), unmapped.begin()->first, unmapped.begin()->second));
  }
  if (t.rows.empty()) return std::nullopt;
  for (const char* c : {"step", "hccl_op_name", "group_name"}) t.columns.push_back({c, SqlType::kText});
  for (const char* c : {"src_rank", "dst_rank"}) t.columns.push_back({c, SqlType::kReal});
  for (const char* c : {"transport_type", "op_name"}) t.columns.push_back({c, SqlType::kText});
  t.columns.push_back({"transit_size", SqlOf(size_dtype)});
  t.columns.push_back({"transit_time", SqlOf(time_dtype)});
  t.columns.push_back({"bandwidth", SqlType::kReal});
  return t;
}

}  // namespace profdiff::analysis
