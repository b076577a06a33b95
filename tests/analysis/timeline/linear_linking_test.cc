// Issue 35: flow pairing and kernel linking group by sorting instead of hash maps. These tests keep
// the hash-map versions they replaced (as they were at f4c28ad) and check that both give exactly the
// same links, groups and counts on random profiles full of repeated ids, shared timestamps, kernels
// at the same place and flows that name no kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/timeline/op_tree.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

// ---- The replaced implementations --------------------------------------------------------------

struct OldFlowKey {
  uint64_t id;
  bool is_string;
  bool operator==(const OldFlowKey&) const = default;
};
struct OldFlowKeyHash {
  size_t operator()(const OldFlowKey& k) const { return std::hash<uint64_t>()(k.id) ^ (k.is_string ? 1 : 0); }
};

// The pairs of one kind, ids in first-seen order, later events replacing earlier; `incomplete` counted.
std::vector<FlowLink> OldPairs(const Profile& p, std::string_view kind_cat, uint64_t& incomplete) {
  struct Ends {
    int64_t start = -1, end = -1;
  };
  std::unordered_map<OldFlowKey, uint32_t, OldFlowKeyHash> index;
  std::vector<Ends> ends;
  for (size_t f = 0; f < p.flows.size(); ++f) {
    const FlowEvent& e = p.flows[f];
    if ((e.phase != 's' && e.phase != 'f') || p.str(e.cat) != kind_cat) continue;
    auto [it, inserted] = index.try_emplace(OldFlowKey{e.id, e.id_is_string}, static_cast<uint32_t>(ends.size()));
    if (inserted) ends.push_back({});
    (e.phase == 's' ? ends[it->second].start : ends[it->second].end) = static_cast<int64_t>(f);
  }
  std::vector<FlowLink> out;
  for (const Ends& e : ends) {
    if (e.start < 0 || e.end < 0) {
      ++incomplete;
      continue;
    }
    out.push_back({static_cast<uint32_t>(e.start), static_cast<uint32_t>(e.end)});
  }
  return out;
}

struct OldTrackTs {
  TrackId track;
  int64_t ts;
  bool operator==(const OldTrackTs&) const = default;
};
struct OldTrackTsHash {
  size_t operator()(const OldTrackTs& k) const { return std::hash<int64_t>()(k.ts) * 31 + k.track; }
};

KernelDict OldLinkKernels(const Timeline& timeline) {
  const Profile& p = timeline.p();
  std::unordered_map<OldTrackTs, SliceId, OldTrackTsHash> kernel_at;
  for (SliceId s = 0; s < p.slices.size(); ++s)
    if (IsAttachableKernel(p.slices[s].kind, p.meta.device)) kernel_at[{p.slices[s].track, p.slices[s].ts_ns}] = s;
  KernelDict out;
  std::unordered_map<int64_t, uint32_t> group_of;
  for (uint32_t i = 0; i < timeline.flows.kernel_launch.size(); ++i) {
    ++out.flows_used;
    const FlowPoint end = timeline.flows.LaunchEnd(p, i);
    auto k = kernel_at.find({end.track, end.ts_ns});
    if (k == kernel_at.end()) {
      ++out.flows_unlinked;
      continue;
    }
    const int64_t ts = timeline.flows.LaunchStart(p, i).ts_ns;
    out.links.push_back({i, k->second});
    auto [it, inserted] = group_of.try_emplace(ts, static_cast<uint32_t>(out.groups.size()));
    if (inserted) out.groups.push_back({ts, {}});
    out.groups[it->second].kernels.push_back(k->second);
  }
  return out;
}

// profdiff's attachment as it was at 2ef170a: per track, a binary search over the track's nodes in
// start order, then up the track-local enclosing nodes; each node's kernels in flow order.
std::vector<std::vector<SliceId>> OldAttachToInnermost(const Timeline& timeline, const OpTree& tree) {
  const Profile& p = timeline.p();
  std::unordered_map<TrackId, std::vector<NodeId>> track_nodes;
  for (NodeId id = 1; id < tree.size(); ++id) track_nodes[p.slices[tree.node(id).slice].track].push_back(id);
  std::vector<NodeId> track_parent(tree.size(), kNoNode);
  for (auto& [track, list] : track_nodes) {
    std::vector<NodeId> stack;
    for (NodeId id : list) {
      while (!stack.empty() && tree.node(id).start_ns > tree.node(stack.back()).end_ns) stack.pop_back();
      track_parent[id] = stack.empty() ? kNoNode : stack.back();
      stack.push_back(id);
    }
  }
  std::vector<std::vector<SliceId>> kernels(tree.size());
  for (const KernelLink& link : LinkKernels(timeline, ExactPolicy()).links) {
    const FlowPoint s = timeline.flows.LaunchStart(p, link.launch);
    auto tn = track_nodes.find(s.track);
    if (tn == track_nodes.end()) continue;
    const auto& list = tn->second;
    auto it = std::upper_bound(list.begin(), list.end(), s.ts_ns,
                               [&](int64_t ts, NodeId id) { return ts < tree.node(id).start_ns; });
    NodeId owner = it == list.begin() ? kNoNode : *(it - 1);
    while (owner != kNoNode && tree.node(owner).end_ns < s.ts_ns) owner = track_parent[owner];
    if (owner != kNoNode) kernels[owner].push_back(link.kernel);
  }
  return kernels;
}

// ---- Random profiles ---------------------------------------------------------------------------

// Kernels on a few GPU streams at few distinct timestamps (so that places repeat), flows of two kinds
// with ids drawn from a small range (so that ids repeat and replace), some ends at no kernel, some
// string ids, some lone starts or ends. `spread` widens the timestamps beyond what packs in a
// 64-bit key with the track (the sort's fallback).
Profile RandomProfile(std::mt19937_64& rng, int kernels, int flows, bool spread) {
  ProfileBuilder b(DeviceKind::kGpu);
  const TrackId cpu[2] = {b.Track("1", "10"), b.Track("1", "11")};
  const TrackId gpu[3] = {b.Track("0", "7"), b.Track("0", "8"), b.Track("0", "9")};
  auto ts = [&](int range) {
    const int64_t t = static_cast<int64_t>(rng() % static_cast<uint64_t>(range)) * 1000;
    return spread && (rng() & 1) ? t + (int64_t{1} << 61) : t - 5000;
  };
  std::vector<std::pair<TrackId, int64_t>> places;
  for (int k = 0; k < kernels; ++k) {
    const TrackId t = gpu[rng() % 3];
    const int64_t at = ts(kernels / 2 + 1);
    places.emplace_back(t, at);
    b.Add(t, rng() % 5 == 0 ? SliceKind::kGpuMemcpy : SliceKind::kKernel, "k", "kernel", at, 10);
  }
  for (int f = 0; f < flows; ++f) {
    const uint64_t id = rng() % static_cast<uint64_t>(flows / 2 + 1);
    const char* cat = rng() % 4 == 0 ? "fwdbwd" : "ac2g";
    TrackId end_track = gpu[rng() % 3];
    int64_t end_ts = ts(kernels / 2 + 1);
    if (!places.empty() && rng() % 3 != 0) std::tie(end_track, end_ts) = places[rng() % places.size()];
    b.Flow(id, cat, ts(flows / 3 + 1), cpu[rng() % 2], end_ts, end_track);
    const size_t n = b.p.flows.size();
    if (rng() % 7 == 0) {
      b.p.flows[n - 2].id_is_string = true;
      b.p.flows[n - 1].id_is_string = true;
    }
    if (rng() % 11 == 0) b.p.flows.erase(b.p.flows.begin() + static_cast<std::ptrdiff_t>(n - 1 - rng() % 2));
  }
  return std::move(b.p);
}

void ExpectSameLinks(const std::vector<FlowLink>& a, const std::vector<FlowLink>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start, b[i].start) << i;
    EXPECT_EQ(a[i].end, b[i].end) << i;
  }
}

TEST(LinearLinking, FlowPairingEqualsTheHashMapPairing) {
  std::mt19937_64 rng(35);
  for (int round = 0; round < 200; ++round) {
    const int size = 1 + round % 50 * (round % 3 == 0 ? 40 : 1);
    const Profile p = RandomProfile(rng, size, size, round % 4 == 1);
    const FlowLinks links = LinkFlows(p, std::nullopt);
    uint64_t incomplete = 0;
    ExpectSameLinks(links.kernel_launch, OldPairs(p, "ac2g", incomplete));
    ExpectSameLinks(links.fwd_bwd, OldPairs(p, "fwdbwd", incomplete));
    EXPECT_EQ(links.incomplete, incomplete);
  }
}

TEST(LinearLinking, KernelLinkingEqualsTheHashMapLinking) {
  std::mt19937_64 rng(36);
  for (int round = 0; round < 200; ++round) {
    const int size = 1 + round % 50 * (round % 3 == 0 ? 40 : 1);
    const Profile p = RandomProfile(rng, size, size, round % 4 == 1);
    const Timeline tl = BuildTimeline(p, {});
    const KernelDict got = LinkKernels(tl, ExactPolicy()), want = OldLinkKernels(tl);
    EXPECT_EQ(got.flows_used, want.flows_used);
    EXPECT_EQ(got.flows_unlinked, want.flows_unlinked);
    ASSERT_EQ(got.links.size(), want.links.size());
    for (size_t i = 0; i < got.links.size(); ++i) {
      EXPECT_EQ(got.links[i].launch, want.links[i].launch);
      EXPECT_EQ(got.links[i].kernel, want.links[i].kernel);
    }
    ASSERT_EQ(got.groups.size(), want.groups.size());
    for (size_t g = 0; g < got.groups.size(); ++g) {
      EXPECT_EQ(got.groups[g].ts_ns, want.groups[g].ts_ns);
      EXPECT_EQ(got.groups[g].kernels, want.groups[g].kernels);
    }
  }
}

// Nested CPU ops on two threads, launches from random times on them (in no time order, some
// before any op or between ops), kernels on three streams: the tree attaches each kernel to the
// same node, in the same order, as the binary search did.
TEST(LinearLinking, KernelAttachmentEqualsTheBinarySearchAttachment) {
  std::mt19937_64 rng(37);
  for (int round = 0; round < 200; ++round) {
    const int size = 1 + round % 50 * (round % 3 == 0 ? 20 : 1);
    ProfileBuilder b(DeviceKind::kGpu);
    const TrackId cpu[2] = {b.Track("1", "10"), b.Track("1", "11")};
    const TrackId gpu[3] = {b.Track("0", "7"), b.Track("0", "8"), b.Track("0", "9")};
    for (int o = 0; o < size; ++o) {  // ops of random length: nested, overlapping, apart
      const int64_t start = static_cast<int64_t>(rng() % static_cast<uint64_t>(size * 10 + 1)) * 100;
      b.Add(cpu[rng() % 2], SliceKind::kCpuOp, "op" + std::to_string(rng() % 5), "cpu_op", start,
            static_cast<int64_t>(rng() % 3000));
    }
    for (int k = 0; k < 2 * size; ++k) {
      const TrackId stream = gpu[rng() % 3];
      const int64_t at = 1'000'000 + k * 1000;
      b.Add(stream, SliceKind::kKernel, "k", "kernel", at, 10);
      const int64_t from = static_cast<int64_t>(rng() % static_cast<uint64_t>(size * 1000 + 2000)) - 1000;
      b.Flow(static_cast<uint64_t>(k), "ac2g", from, cpu[rng() % 2], at, stream);
    }
    const Profile p = std::move(b.p);
    const Timeline tl = BuildTimeline(p, {});
    const OpTree tree = BuildOpTree(tl, ExactPolicy());
    const std::vector<std::vector<SliceId>> want = OldAttachToInnermost(tl, tree);
    uint64_t attached = 0;
    for (NodeId id = 0; id < tree.size(); ++id) {
      const std::span<const SliceId> got = tree.kernels(id);
      ASSERT_EQ(std::vector<SliceId>(got.begin(), got.end()), want[id]) << "round " << round << " node " << id;
      attached += want[id].size();
    }
    EXPECT_EQ(tree.stats().kernels_attached, attached);
  }
}

}  // namespace
}  // namespace profdiff::analysis
