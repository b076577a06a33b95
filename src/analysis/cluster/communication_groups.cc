// FindCommunicationGroups: the groups of a run's communication files (communication_groups.h).
#include "profdiff/analysis/cluster/communication_groups.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "profdiff/base/utf8.h"

namespace profdiff::analysis {
namespace {

// Groups in order of first appearance, each with its ranks (added in ascending rank order).
class GroupList {
 public:
  void Add(std::string_view group, int64_t rank) {
    auto [it, added] = index_.try_emplace(std::string(group), groups_.size());
    if (added) groups_.push_back(CommunicationGroup{std::string(group), {}});
    std::vector<int64_t>& ranks = groups_[it->second].ranks;
    if (ranks.empty() || ranks.back() != rank) ranks.push_back(rank);
  }
  std::vector<CommunicationGroup> Take() { return std::move(groups_); }

 private:
  std::vector<CommunicationGroup> groups_;
  std::map<std::string, size_t, std::less<>> index_;
};

void AddGroups(const CommunicationOpRecords& records, int64_t rank, GroupList& collective, GroupList& p2p) {
  for (const CommunicationOpRecord& op : records.ops) {
    if (op.type == "collective") collective.Add(OperatorGroup(op.name), rank);
    if (op.type == "p2p") p2p.Add(OperatorGroup(op.name), rank);
  }
}

struct MetadataGroup {
  std::string group_id, pg_name;
  std::vector<int64_t> global_ranks;
};

// profiler_metadata.json's groups by group name (the hash of the id); the first rank that lists a
// group id gives it, as the reference reads the ranks in order.
std::map<std::string, MetadataGroup> MetadataGroups(const std::vector<RankSummary>& ranks) {
  std::map<std::string, MetadataGroup> seen_ids;
  for (const RankSummary& r : ranks) {
    for (const auto& [id, global_ranks] : r.parallel_group_ranks) {
      if (seen_ids.count(id)) continue;
      auto name = r.parallel_group_names.find(id);
      seen_ids[id] = MetadataGroup{id, name == r.parallel_group_names.end() ? "" : name->second, global_ranks};
    }
  }
  std::map<std::string, MetadataGroup> by_name;
  for (auto& [id, group] : seen_ids) by_name.try_emplace(std::to_string(GroupNameHash(id)), std::move(group));
  return by_name;
}

void AddParallelInfo(std::string_view type, const std::vector<CommunicationGroup>& groups,
                     const std::map<std::string, MetadataGroup>& metadata, std::vector<GroupParallelInfo>& out) {
  for (const CommunicationGroup& g : groups) {
    GroupParallelInfo row{std::string(type), g.ranks, g.name, "", ""};
    auto it = metadata.find(g.name);
    if (it != metadata.end()) {
      row.group_id = it->second.group_id;
      row.pg_name = it->second.pg_name;
      if (!it->second.global_ranks.empty()) row.rank_set = it->second.global_ranks;
    }
    out.push_back(std::move(row));
  }
}

const std::vector<int64_t>* Find(const std::vector<CommunicationGroup>& groups, std::string_view name) {
  for (const CommunicationGroup& g : groups)
    if (g.name == name) return &g.ranks;
  return nullptr;
}

}  // namespace

std::string_view ClusterModeName(ClusterMode mode) {
  switch (mode) {
    case ClusterMode::kAll: return "all";
    case ClusterMode::kCommunicationTime: return "communication_time";
    case ClusterMode::kCommunicationMatrix: return "communication_matrix";
  }
  return "all";
}

bool ReadsCommunicationTime(ClusterMode mode) { return mode != ClusterMode::kCommunicationMatrix; }
bool ReadsCommunicationMatrix(ClusterMode mode) { return mode != ClusterMode::kCommunicationTime; }

const std::vector<int64_t>* CommunicationGroups::CollectiveRanks(std::string_view group) const {
  return Find(collective, group);
}
const std::vector<int64_t>* CommunicationGroups::P2pRanks(std::string_view group) const { return Find(p2p, group); }

uint64_t GroupNameHash(std::string_view group_id) {
  uint32_t h29 = 0, h131 = 0;
  for (size_t i = 0; i < group_id.size();) {
    const uint32_t cp = NextCodePoint(group_id, i);
    h29 = h29 * 29u + cp;
    h131 = h131 * 131u + cp;
  }
  return (uint64_t{h29} << 32) | h131;
}

std::string_view OperatorGroup(std::string_view op_name) {
  const size_t at = op_name.rfind('@');
  return at == std::string_view::npos ? op_name : op_name.substr(at + 1);
}

CommunicationGroups FindCommunicationGroups(const std::vector<RankSummary>& ranks, ClusterMode mode) {
  GroupList collective, p2p;
  for (const RankSummary& r : ranks) {
    if (ReadsCommunicationTime(mode)) AddGroups(r.communication_ops, r.rank, collective, p2p);
    if (ReadsCommunicationMatrix(mode)) AddGroups(r.matrix_ops, r.rank, collective, p2p);
  }
  CommunicationGroups out;
  out.collective = collective.Take();
  out.p2p = p2p.Take();
  const std::map<std::string, MetadataGroup> metadata = MetadataGroups(ranks);
  AddParallelInfo("collective", out.collective, metadata, out.parallel_info);
  AddParallelInfo("p2p", out.p2p, metadata, out.parallel_info);
  return out;
}

namespace {

using RankSet = std::set<int64_t>;

bool Connected(const RankSet& a, const RankSet& b) {
  for (int64_t r : a)
    if (b.count(r)) return true;
  return false;
}

size_t Shared(const RankSet& a, const RankSet& b) {
  size_t n = 0;
  for (int64_t r : a) n += b.count(r);
  return n;
}

// The "pp" p2p groups joined where they share a rank: from the one with the lowest rank, every later
// one connected to the growing union joins it, until none is left.
std::vector<RankSet> PipelineUnions(std::vector<RankSet> links) {
  std::stable_sort(links.begin(), links.end(), [](const RankSet& a, const RankSet& b) { return *a.begin() < *b.begin(); });
  std::vector<RankSet> unions;
  while (!links.empty()) {
    RankSet u = links.front();
    std::vector<RankSet> removed = {links.front()};
    for (size_t i = 1; i < links.size(); ++i) {
      if (!Connected(links[i], u)) continue;
      u.insert(links[i].begin(), links[i].end());
      removed.push_back(links[i]);
    }
    std::erase_if(links, [&](const RankSet& l) { return std::find(removed.begin(), removed.end(), l) != removed.end(); });
    unions.push_back(std::move(u));
  }
  return unions;
}

bool StartsWithPp(const std::string& name) {
  return name.size() >= 2 && (name[0] == 'p' || name[0] == 'P') && (name[1] == 'p' || name[1] == 'P');
}

}  // namespace

std::vector<std::vector<int64_t>> StageGroups(const CommunicationGroups& groups) {
  std::vector<RankSet> links;
  std::vector<std::pair<std::string, RankSet>> collective;  // by group name, first row kept in place
  for (const GroupParallelInfo& g : groups.parallel_info) {
    RankSet ranks(g.rank_set.begin(), g.rank_set.end());
    if (ranks.empty()) continue;
    if (g.type == "p2p" && StartsWithPp(g.pg_name)) links.push_back(ranks);
    if (g.type != "collective") continue;
    auto same = std::find_if(collective.begin(), collective.end(), [&](const auto& c) { return c.first == g.group_name; });
    if (same == collective.end()) collective.emplace_back(g.group_name, std::move(ranks));
    else same->second = std::move(ranks);  // the reference's dict keeps the last row of a name
  }
  if (links.empty()) return {};
  const std::vector<RankSet> unions = PipelineUnions(std::move(links));
  std::map<int64_t, RankSet> stages;  // by first rank
  for (const auto& [name, ranks] : collective) {
    if (std::any_of(unions.begin(), unions.end(), [&](const RankSet& u) { return Shared(ranks, u) > 1; })) continue;
    RankSet joined;
    for (auto it = stages.begin(); it != stages.end();) {
      if (!Connected(ranks, it->second)) {
        ++it;
        continue;
      }
      joined.insert(it->second.begin(), it->second.end());
      it = stages.erase(it);
    }
    joined.insert(ranks.begin(), ranks.end());
    stages[*joined.begin()] = std::move(joined);
  }
  std::vector<std::vector<int64_t>> out;
  for (const auto& [first, ranks] : stages) out.emplace_back(ranks.begin(), ranks.end());
  return out;
}

}  // namespace profdiff::analysis
