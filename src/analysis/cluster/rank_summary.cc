// SummarizeRank: one rank reduced to its step rows and communication split (rank_summary.h).
#include "profdiff/analysis/cluster/rank_summary.h"

#include "profdiff/analysis/cluster/lead_in.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

#include "profdiff/analysis/common/device_kernels.h"
#include "profdiff/analysis/overall/gpu_overall.h"
#include "profdiff/analysis/overall/npu_overall.h"

namespace profdiff::analysis {
namespace {

constexpr std::string_view kTraceViewJson = "trace_view.json";
constexpr std::string_view kGpuCommunicationGroup = "communication kernels";
// The side files a rank's cluster summary reads or will read (steps, communication, kernels).
constexpr std::string_view kRankSideFiles[] = {"step_trace_time.csv", "communication.json", "kernel_details.csv"};

int ColumnIndex(const std::vector<std::string>& columns, std::string_view name) {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

// Computing + Communication(Not Overlapped) + Free, when the three are known.
int64_t StepTimeOf(const std::vector<std::string>& columns, const RankStep& s) {
  int64_t total = 0;
  for (std::string_view c : {kColComputing, kColCommNotOverlapped, kColFree}) {
    const int64_t v = s.Value(columns, c);
    if (v == kAbsentNs) return kAbsentNs;
    total += v;
  }
  return total;
}

void StepsFromStepTrace(const StepTraceTable& t, RankStepSource source, RankSummary& out) {
  out.step_source = source;
  out.columns = t.columns;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t row = 0; row < t.values_ns.size(); ++row) {
    RankStep s;
    s.step = row < t.steps.size() ? t.steps[row] : std::string();
    s.values_ns = t.values_ns[row];
    s.values_ns.resize(t.columns.size(), kAbsentNs);
    s.values_us_float = row < t.values_us_float.size() ? t.values_us_float[row] : std::vector<double>();
    s.values_us_float.resize(t.columns.size(), nan);
    s.step_time_ns = StepTimeOf(out.columns, s);
    out.steps.push_back(std::move(s));
  }
}

void StepsFromSplits(const std::vector<StepSplit>& splits, RankSummary& out) {
  out.step_source = RankStepSource::kTimeline;
  out.columns = {std::string(kColComputing), std::string(kColCommNotOverlapped), std::string(kColFree)};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const StepSplit& split : splits) {
    RankStep s;
    s.step = std::to_string(split.id);
    s.values_ns = {split.computing_ns, split.communication_ns, split.free_ns};
    s.values_us_float.assign(out.columns.size(), nan);
    s.step_time_ns = split.e2e_ns;
    out.steps.push_back(std::move(s));
  }
}

// The side files an Ascend text or partial rank lacks (of those the cluster summary reads).
void NoteMissingSideFiles(const Profile& p, const Timeline* timeline, RankSummary& out) {
  if (p.meta.device != DeviceKind::kNpu || out.export_kind == "db") return;
  if (timeline == nullptr) out.missing.emplace_back(kTraceViewJson);
  for (std::string_view name : kRankSideFiles) {
    bool read = false;
    for (const std::string& f : p.meta.files)
      if (f == name || std::string_view(f).ends_with("/" + std::string(name))) read = true;
    if (!read) out.missing.emplace_back(name);
  }
}

// One transport of an Ascend op's bandwidth info.
struct Transfer {
  std::string transport;
  double size_mb = 0, bandwidth_gbps = 0;
};

// The transport that moved the most, not SDMA (which repeats the others) or LOCAL; nullopt: none moved.
void KeepLargest(const Transfer& t, std::optional<Transfer>& best) {
  if (t.transport == "SDMA" || t.transport == "LOCAL" || !(t.size_mb > 0)) return;
  if (!best || t.size_mb > best->size_mb) best = t;
}

// op name (before '@') -> its main transfer, from communication.json's "Communication Bandwidth Info"
// (a text export's records) or analysis.db's CommAnalyzerBandwidth (a DB export).
std::unordered_map<std::string, Transfer> TransfersOf(const Profile& p) {
  std::unordered_map<std::string, std::optional<Transfer>> best;
  for (const CommunicationOpRecord& r : p.npu.communication.records.ops) {
    const nlohmann::json v = nlohmann::json::parse(r.value_json, nullptr, false);
    auto info = v.is_object() ? v.find("Communication Bandwidth Info") : v.end();
    if (v.is_object() && info != v.end() && info->is_object()) {
      std::optional<Transfer>& b = best[r.name.substr(0, r.name.find('@'))];
      for (const auto& [transport, t] : info->items()) {
        if (!t.is_object()) continue;
        auto num = [&](const char* k) { auto it = t.find(k); return it != t.end() && it->is_number() ? it->get<double>() : 0.0; };
        KeepLargest({transport, num("Transit Size(MB)"), num("Bandwidth(GB/s)")}, b);
      }
    }
  }
  const SqlRows& bw = p.npu.db.cluster.comm_bandwidth;
  const int op = bw.Column("hccl_op_name"), tr = bw.Column("transport_type"), size = bw.Column("transit_size"),
            band = bw.Column("bandwidth");
  if (op >= 0 && tr >= 0 && size >= 0 && band >= 0) {
    for (const std::vector<SqlValue>& row : bw.rows) {
      const SqlValue& name = row[static_cast<size_t>(op)];
      const SqlValue& transport = row[static_cast<size_t>(tr)];
      if (name.kind != SqlValue::Kind::kText || transport.kind != SqlValue::Kind::kText) continue;
      KeepLargest({transport.text, row[static_cast<size_t>(size)].AsDouble(), row[static_cast<size_t>(band)].AsDouble()},
                  best[name.text]);
    }
  }
  std::unordered_map<std::string, Transfer> out;
  for (auto& [name, b] : best)
    if (b) out.emplace(name, std::move(*b));
  return out;
}

// Each NPU collective's main transfer (RankCollective::transport, size_mb, bandwidth_gbps).
void AddNpuTransfers(const Profile& p, RankSummary& out) {
  if (out.collectives.empty()) return;
  const std::unordered_map<std::string, Transfer> transfers = TransfersOf(p);
  for (RankCollective& c : out.collectives) {
    auto it = transfers.find(c.name);
    if (it == transfers.end()) continue;
    c.transport = it->second.transport;
    c.size_mb = it->second.size_mb;
    c.bandwidth_gbps = it->second.bandwidth_gbps;
  }
}

// The step a collective counts in (RankCollective::step): a DB export with STEP_TIME, the step whose
// window holds its CANN_API launch (the reference's slow_rank recipe with --step_id); any other rank,
// the device step window (timeline/device_steps.h) that holds its start.
class CollectiveSteps {
 public:
  CollectiveSteps(const Profile& p, const Timeline& t) : p_(p), by_launch_(!p.npu.db.steps.empty()) {
    if (by_launch_) return;
    spans_ = StepSpans(t.MeasuredSteps());
    std::sort(spans_.begin(), spans_.end(), [](const StepSpan& a, const StepSpan& b) { return a.start_ns < b.start_ns; });
  }
  std::string Of(const Slice& s) const {
    if (by_launch_) {
      const int64_t conn = p_.ArgInt(s, ArgKey::kConnectionId);
      if (conn == kNoNumber) return "";
      for (const auto& [id, launch_ns] : CannApiStarts(p_.npu.db, conn))
        for (const DbStep& d : p_.npu.db.steps)
          if (launch_ns >= d.start_ns && launch_ns <= d.end_ns) return std::to_string(d.id);
      return "";
    }
    auto it = std::upper_bound(spans_.begin(), spans_.end(), s.ts_ns,
                               [](int64_t t, const StepSpan& a) { return t < a.start_ns; });
    if (it == spans_.begin()) return "";
    --it;
    return s.ts_ns < it->end_ns ? std::to_string(it->id) : "";
  }

 private:
  const Profile& p_;
  bool by_launch_;
  std::vector<StepSpan> spans_;
};

// The HCCL ops of every group of the rank's timeline, group by group, each in start order.
void CollectivesOf(const Timeline& timeline, const CollectiveSteps& steps, RankSummary& out) {
  const Profile& p = timeline.p();
  for (const HcclGroup& g : timeline.hccl.groups) {
    const size_t first = out.collectives.size();
    for (SliceId id : g.ops) {
      const Slice& s = p.slices[id];
      out.collectives.push_back({.group = g.pg_name.value_or(g.name),
                                 .name = std::string(p.str(s.name)),
                                 .start_ns = s.ts_ns,
                                 .end_ns = s.end_ns(),
                                 .source_group = g.name,
                                 .step = steps.Of(s)});
    }
    std::stable_sort(out.collectives.begin() + static_cast<std::ptrdiff_t>(first), out.collectives.end(),
                     [](const RankCollective& a, const RankCollective& b) { return a.start_ns < b.start_ns; });
  }
}

// What PyTorch's record_param_comms host op says of the collective it launches (its "External id" is
// the kernel's): the collective's number in its process group ("Seq") and the group's name.
struct HostCollective {
  int64_t seq = -1;
  std::string_view pg;
  int64_t nelems = kNoNumber;
  std::string_view dtype;
};

// The size in bytes of one element of a PyTorch dtype as the profiler names it; 0 when unknown.
int64_t DtypeBytes(std::string_view dtype) {
  static constexpr std::pair<std::string_view, int64_t> kSizes[] = {
      {"Float", 4},  {"Double", 8}, {"Half", 2},        {"BFloat16", 2},      {"Int", 4},
      {"Long", 8},   {"Short", 2},  {"Char", 1},        {"Byte", 1},          {"Bool", 1},
      {"UInt16", 2}, {"UInt32", 4}, {"UInt64", 8},      {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1},
      {"ComplexHalf", 4}, {"ComplexFloat", 8}, {"ComplexDouble", 16}};
  for (const auto& [name, bytes] : kSizes)
    if (name == dtype) return bytes;
  return 0;
}

// One pass over the slices: the communication kernels (by the device-kernel table) and the
// record_param_comms host ops by their External id.
void FindCollectiveSlices(const Profile& p, std::vector<SliceId>& kernels, std::unordered_map<int64_t, HostCollective>& hosts) {
  const DeviceKernelNames names;
  std::string lower;
  for (SliceId id = 0; id < p.slices.size(); ++id) {
    const Slice& s = p.slices[id];
    if (s.kind == SliceKind::kCpuOp && p.str(s.name) == "record_param_comms") {
      const int64_t ext = p.ArgInt(s, ArgKey::kExternalId);
      if (ext == kNoNumber) continue;
      const int64_t seq = p.ArgInt(s, ArgKey::kSeq);
      hosts[ext] = {seq == kNoNumber ? -1 : seq, p.ArgText(s, ArgKey::kPgName), p.ArgInt(s, ArgKey::kInMsgNelems),
                    p.ArgText(s, ArgKey::kDtype)};
      continue;
    }
    if (s.kind != SliceKind::kKernel) continue;
    lower.assign(p.str(s.name));
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (names.IsCommunication(lower)) kernels.push_back(id);
  }
}

// A GPU rank's communication kernels (the device-kernel table: NCCL, RCCL, ...) in start order, by
// their process group when the trace names it (the kernel's "Process Group Name" arg, recent PyTorch:
// "pg <name>"), else as one group matched by order; with the collective's "Seq" (the kernel's, else
// its record_param_comms host op's) when the trace records it (collectives.h matches by it).
void GpuCollectivesOf(const Profile& p, const CollectiveSteps& steps, RankSummary& out) {
  std::vector<SliceId> kernels;
  std::unordered_map<int64_t, HostCollective> hosts;
  FindCollectiveSlices(p, kernels, hosts);
  for (SliceId id : kernels) {
    const Slice& s = p.slices[id];
    const std::string_view name = p.str(s.name);
    std::string_view pg = p.ArgText(s, ArgKey::kPgName), dtype = p.ArgText(s, ArgKey::kDtype);
    int64_t seq = p.ArgInt(s, ArgKey::kSeq), nelems = p.ArgInt(s, ArgKey::kInMsgNelems);
    if (const auto h = hosts.find(p.ArgInt(s, ArgKey::kExternalId)); h != hosts.end()) {
      if (pg.empty()) pg = h->second.pg;
      if (seq == kNoNumber) seq = h->second.seq;
      if (nelems == kNoNumber) nelems = h->second.nelems;
      if (dtype.empty()) dtype = h->second.dtype;
    }
    std::string group = pg.empty() ? std::string(kGpuCommunicationGroup) : "pg " + std::string(pg);
    out.collectives.push_back({.group = group,
                               .name = std::string(name),
                               .start_ns = s.ts_ns,
                               .end_ns = s.end_ns(),
                               .source_group = group,
                               .seq = seq == kNoNumber ? -1 : seq,
                               .step = steps.Of(s)});
    const int64_t bytes = nelems != kNoNumber && nelems >= 0 ? nelems * DtypeBytes(dtype) : 0;
    if (bytes > 0 && s.dur_ns > 0) {  // the algorithm bandwidth: bytes per ns are GB/s
      RankCollective& c = out.collectives.back();
      c.transport = "NCCL";
      c.size_mb = static_cast<double>(bytes) / 1e6;
      c.bandwidth_gbps = static_cast<double>(bytes) / static_cast<double>(s.dur_ns);
    }
  }
  std::stable_sort(out.collectives.begin(), out.collectives.end(),
                   [](const RankCollective& a, const RankCollective& b) { return a.start_ns < b.start_ns; });
}

}  // namespace

int64_t RankStep::Value(const std::vector<std::string>& columns, std::string_view column) const {
  const int i = ColumnIndex(columns, column);
  if (i < 0 || static_cast<size_t>(i) >= values_ns.size()) return kAbsentNs;
  return values_ns[static_cast<size_t>(i)];
}

std::string_view RankStepSourceName(RankStepSource source) {
  switch (source) {
    case RankStepSource::kNone: return "none";
    case RankStepSource::kStepTraceTime: return "step_trace_time.csv";
    case RankStepSource::kAnalysisDb: return "analysis.db";
    case RankStepSource::kTimeline: return "timeline";
  }
  return "none";
}

RankSummary SummarizeRank(const Profile& profile, const Timeline* timeline, int64_t rank,
                          std::string_view export_kind, std::string_view source_path,
                          const RankSummaryOptions& options) {
  RankSummary out;
  out.rank = rank;
  out.world_size = profile.meta.world_size;
  out.export_kind = std::string(export_kind);
  out.source_path = std::string(source_path);
  out.device = profile.meta.device;
  std::optional<SideMetrics> metrics;
  if (timeline != nullptr) {
    const KernelMasks masks = options.masks == nullptr ? KernelMasks::Defaults() : *options.masks;
    if (profile.meta.device == DeviceKind::kNpu)
      metrics = ComputeNpuSideMetrics(*timeline, masks, options.policy);
    else if (profile.meta.device == DeviceKind::kGpu)
      metrics = ComputeGpuSideMetrics(*timeline, masks, options.policy);
  }
  if (profile.npu.step_trace.present) {
    StepsFromStepTrace(profile.npu.step_trace,
                       profile.npu.db.present ? RankStepSource::kAnalysisDb : RankStepSource::kStepTraceTime, out);
  } else if (metrics && !metrics->step_splits.empty()) {
    StepsFromSplits(metrics->step_splits, out);
  } else {
    out.notes.push_back(timeline == nullptr
                            ? "no step_trace_time.csv and no trace: the step breakdown is unknown"
                            : "no step windows (no ProfilerStep markers) and no step_trace_time.csv: the step "
                              "breakdown is unknown");
  }
  if (metrics) {
    for (const GroupCommunication& g : metrics->groups) out.groups.push_back(g.split);
  }
  if (timeline != nullptr) {
    const CollectiveSteps steps(profile, *timeline);
    if (profile.meta.device == DeviceKind::kNpu) {
      CollectivesOf(*timeline, steps, out);
      AddNpuTransfers(profile, out);
    }
    if (profile.meta.device == DeviceKind::kGpu) GpuCollectivesOf(profile, steps, out);
    MeasureLeadIns(profile, out);
  }
  NoteMissingSideFiles(profile, timeline, out);
  out.communication_ops = profile.npu.communication.records;
  out.matrix_ops = profile.npu.communication_matrix;
  out.parallel_group_names = profile.npu.parallel_group_names;
  out.parallel_group_ranks = profile.npu.parallel_group_ranks;
  out.distributed_args_json = !profile.npu.distributed_args_json.empty() ? profile.npu.distributed_args_json
                                                                         : profile.npu.db.cluster.distributed_args_json;
  out.time = SummarizeRankTime(profile);
  out.db_tables = profile.npu.db.cluster;
  return out;
}

}  // namespace profdiff::analysis
