#include "profdiff/analysis/timeline/hccl_groups.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace profdiff::analysis {
namespace {

bool IsHccl(const Slice& s) { return s.kind == SliceKind::kHcclOp || s.kind == SliceKind::kHcclTask; }

// The threads of every process that holds an HCCL event, stably sorted by thread-sort index.
std::vector<TrackId> HcclThreadsInSortOrder(const Profile& profile) {
  std::unordered_set<uint32_t> processes;
  for (const Slice& s : profile.slices)
    if (IsHccl(s)) processes.insert(profile.track(s).process);
  std::vector<TrackId> tracks;
  for (TrackId t = 0; t < profile.tracks.size(); ++t)
    if (processes.count(profile.tracks[t].process)) tracks.push_back(t);
  std::stable_sort(tracks.begin(), tracks.end(), [&](TrackId a, TrackId b) {
    const int64_t sa = profile.tracks[a].sort_index, sb = profile.tracks[b].sort_index;
    if ((sa == kNoNumber) != (sb == kNoNumber)) return sb == kNoNumber;
    return sa < sb;
  });
  return tracks;
}

std::optional<std::string> PgNameOf(const Profile& profile, std::string_view group_name) {
  for (const auto& [id, pg] : profile.npu.parallel_group_names)
    if (group_name == "Group " + id + " Communication") return pg;
  return std::nullopt;
}

// The DB export names its groups: COMMUNICATION_OP groupName (the loader's Group Name arg), and
// COMMUNICATION_TASK_INFO groupName (the group of the task's plane track, DbInfo::plane_groups).
// Groups in first-appearance order among the ops, planes in first-appearance order of their tasks'
// tracks; no pg names.
HcclGroups FindDbHcclGroups(const Profile& profile) {
  HcclGroups out;
  std::unordered_map<std::string_view, size_t> group_of;
  std::unordered_map<TrackId, std::pair<size_t, size_t>> plane_of;
  std::unordered_map<TrackId, StringId> plane_group;
  for (const auto& [track, group] : profile.npu.db.plane_groups) plane_group.emplace(track, group);
  auto group = [&](const Slice& s) -> HcclGroup& {
    std::string_view name = profile.ArgText(s, ArgKey::kGroupName);
    if (auto it = plane_group.find(s.track); s.kind == SliceKind::kHcclTask && it != plane_group.end())
      name = profile.str(it->second);
    auto [it, added] = group_of.try_emplace(name, out.groups.size());
    if (added) {
      out.groups.emplace_back();
      out.groups.back().name = std::string(name);
    }
    return out.groups[it->second];
  };
  for (SliceId id = 0; id < profile.slices.size(); ++id) {
    const Slice& s = profile.slices[id];
    if (s.kind != SliceKind::kHcclOp) continue;
    HcclGroup& g = group(s);
    g.track = s.track;
    g.ops.push_back(id);
  }
  for (SliceId id = 0; id < profile.slices.size(); ++id) {
    const Slice& s = profile.slices[id];
    if (s.kind != SliceKind::kHcclTask) continue;
    HcclGroup& g = group(s);
    const size_t gi = static_cast<size_t>(&g - out.groups.data());
    auto [it, added] = plane_of.try_emplace(s.track, gi, g.planes.size());
    if (added) g.planes.push_back({s.track, {}, {}});
    HcclPlane& plane = out.groups[it->second.first].planes[it->second.second];
    plane.tasks.push_back(id);
    plane.kinds.push_back(ClassifyHcclTask(profile.str(s.name)));
  }
  return out;
}

}  // namespace

HcclTaskKind ClassifyHcclTask(std::string_view name) {
  std::string key;
  key.reserve(name.size());
  for (char c : name) key.push_back(c == ' ' ? '_' : (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c);
  if (key == "notify_wait") return HcclTaskKind::kWait;
  // The task types of the CANN HCCL task lanes that carry payload bytes (their "size(Byte)" is
  // non-zero in the corpus: Memcpy and Reduce_Inline over SDMA), RDMA sends, and the TBE reduction
  // and generic SDMA copy task types.
  static constexpr std::array<std::string_view, 5> kTransmit = {"memcpy", "reduce_inline", "reduce_tbe", "rdmasend",
                                                                "sdma"};
  for (std::string_view t : kTransmit)
    if (key == t) return HcclTaskKind::kTransmit;
  return HcclTaskKind::kOther;
}

HcclGroups FindHcclGroups(const Profile& profile) {
  if (profile.npu.db.present) return FindDbHcclGroups(profile);
  HcclGroups out;
  struct Role {
    uint32_t group;
    int64_t plane;  // -1: the group's own thread
  };
  std::unordered_map<TrackId, Role> role;
  for (TrackId t : HcclThreadsInSortOrder(profile)) {
    std::string_view name = profile.str(profile.tracks[t].name);
    if (name.find("Communication") != std::string_view::npos) {
      role[t] = {static_cast<uint32_t>(out.groups.size()), -1};
      HcclGroup g;
      g.track = t;
      g.name = std::string(name);
      g.pg_name = PgNameOf(profile, name);
      out.groups.push_back(std::move(g));
    } else if (!name.empty() && !out.groups.empty()) {
      HcclGroup& g = out.groups.back();
      role[t] = {static_cast<uint32_t>(out.groups.size() - 1), static_cast<int64_t>(g.planes.size())};
      g.planes.push_back({t, {}, {}});
    }
  }
  if (role.empty()) return out;
  for (SliceId s = 0; s < profile.slices.size(); ++s) {
    const Slice& sl = profile.slices[s];
    if (sl.phase != 'X' || !IsHccl(sl)) continue;
    auto it = role.find(sl.track);
    if (it == role.end()) continue;
    HcclGroup& g = out.groups[it->second.group];
    if (it->second.plane < 0) {
      g.ops.push_back(s);
    } else {
      HcclPlane& plane = g.planes[static_cast<size_t>(it->second.plane)];
      plane.tasks.push_back(s);
      plane.kinds.push_back(ClassifyHcclTask(profile.str(sl.name)));
    }
  }
  return out;
}

}  // namespace profdiff::analysis
