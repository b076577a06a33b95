// The overall comparison: per-side metrics -> OverallMetrics rows
// (docs/reference/overall.md#overallmetrics-sheet), screen columns
// (docs/reference/overall.md#screen-table) and the ns summary.
#include "profdiff/analysis/overall/overall.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "profdiff/analysis/overall/gpu_overall.h"
#include "profdiff/analysis/overall/npu_overall.h"

namespace profdiff::analysis {

namespace {

using KC = KernelCategory;

// "Other" computing time: what the categories do not explain, never negative. Exactly: compute
// minus every category on the exact sums. The reference: its own chain of subtractions on values
// already converted to ms (OverallMetricsInfo.other_data, pair sums first), kept as the sum's ms.
DualSum OtherComputing(const SideMetrics& side) {
  DualSum o;
  int64_t explained_e5 = 0;
  for (const DualSum& c : side.categories.sums) explained_e5 += c.e5;
  o.e5 = std::max<int64_t>(0, side.compute.e5 - explained_e5);
  auto ref = [&](std::initializer_list<KC> cs) {
    double t = 0;
    for (KC c : cs) t += side.categories.Sum(c).RefMsFromUsSum();
    return t;
  };
  double mc2 = 0;
  for (const auto& k : side.mc2) mc2 += k.dur.RefMsFromUsSum();
  const double r = side.compute.RefMsThroughSeconds() - ref({KC::kFaFwdCube, KC::kFaFwdVector}) -
                   ref({KC::kFaBwdCube, KC::kFaBwdVector}) - ref({KC::kConvFwdCube, KC::kConvFwdVector}) -
                   ref({KC::kConvBwdCube, KC::kConvBwdVector}) - ref({KC::kMatmulCube, KC::kMatmulVector}) -
                   ref({KC::kVectorTrans, KC::kVectorNoTrans}) - ref({KC::kSdmaTensorMove}) -
                   ref({KC::kOtherCube}) - ref({KC::kPagedAttention}) - mc2;
  o.ref_ms = std::max(0.0, r);
  return o;
}

// One side's values in ms (or s), as the policy asks for them: every accessor asks a DualSum.
struct SideView {
  const SideMetrics* m = nullptr;
  const ReferencePolicy* policy = nullptr;

  double Ms(int64_t ns) const { return static_cast<double>(ns) / 1e6; }
  double Cat(KC c) const { return m->categories.Sum(c).MsFromUsSum(*policy); }
  int64_t Count(KC c) const { return m->categories.Count(c); }
  double CatSum(std::initializer_list<KC> cs) const {
    double t = 0;
    for (KC c : cs) t += Cat(c);
    return t;
  }
  int64_t CountSum(std::initializer_list<KC> cs) const {
    int64_t t = 0;
    for (KC c : cs) t += Count(c);
    return t;
  }
  // Top-level values go through seconds in the reference (DualSum::MsThroughSeconds).
  double ComputeMs() const { return m->compute.MsThroughSeconds(*policy); }
  double Mc2Ms() const {
    double t = 0;
    for (const auto& k : m->mc2) t += k.dur.MsFromUsSum(*policy);
    return t;
  }
  double Mm() const { return CatSum({KC::kMatmulCube, KC::kMatmulVector}); }
  double Vector() const { return CatSum({KC::kVectorTrans, KC::kVectorNoTrans}); }
  double OtherMs() const { return OtherComputing(*m).Ms(*policy); }
  int64_t ComputingNumber() const {
    int64_t n = 0;
    for (size_t i = 0; i < kKernelCategoryCount; ++i) {
      if (static_cast<KC>(i) != KC::kMc2) n += m->categories.sums[i].count;
    }
    return n;
  }
  double E2eMs() const { return m->e2e.MsThroughSeconds(*policy); }
  double FreeMs() const { return m->FreeTime().MsThroughSeconds(*policy); }
  double UncoveredMs() const { return m->comm_not_overlapped.MsThroughSeconds(*policy); }
  double SdmaStreamMs() const { return m->sdma_stream.MsFromUsSum(*policy); }
  double LcclS() const { return m->lccl.Seconds(*policy); }
  std::string PgOrName(const std::string& group) const {
    auto it = m->pg_names.find(group);
    return it == m->pg_names.end() ? group : it->second;
  }
  std::string Description(const std::string& group) const {
    auto it = m->pg_names.find(group);
    return it == m->pg_names.end() ? "\t" + group : "\t" + it->second + ": " + group;
  }
};

MetricCell Cell(double ms, double e2e_ms, std::optional<int64_t> number) {
  MetricCell c;
  c.duration_ms = ms;
  c.duration_ratio = e2e_ms != 0 ? ms / e2e_ms : 0;
  c.number = number;
  return c;
}
MetricCell Absent() {
  MetricCell c;
  c.present = false;
  return c;
}

int CountTabs(const std::string& label) {
  int n = 0;
  while (n < static_cast<int>(label.size()) && label[n] == '\t') ++n;
  return n;
}

class RowBuilder {
 public:
  RowBuilder(std::vector<OverallRow>& rows, const ReferencePolicy& policy) : rows_(rows), policy_(policy) {}
  void Add(std::string label, RowFill fill, MetricCell base, MetricCell comp) {
    if (base.duration_ms == 0 && comp.duration_ms == 0) return;  // omitted when both are exactly 0
    OverallRow r;
    r.indent = CountTabs(label);
    r.label = std::move(label);
    r.fill = fill;
    r.base = base;
    r.comparison = comp;
    r.diff_ms = DiffMs(base.duration_ms, comp.duration_ms, policy_);
    r.diff_ratio = DiffRatio(base.duration_ms, comp.duration_ms, policy_);
    rows_.push_back(std::move(r));
  }

 private:
  std::vector<OverallRow>& rows_;
  const ReferencePolicy& policy_;
};

// The OverallMetrics rows (docs/reference/overall.md#overallmetrics-sheet) in the reference's
// order; a row whose two durations are 0 is left out.
class OverallRowsBuilder {
 public:
  OverallRowsBuilder(const SideView& b, const SideView& c, std::vector<OverallRow>& rows)
      : b_(b), c_(c), be_(b.E2eMs()), ce_(c.E2eMs()), out_(rows, *b.policy) {}

  void Build() {
    Both("Computing Time", RowFill::kBlue, b_.ComputeMs(), b_.ComputingNumber(), c_.ComputeMs(), c_.ComputingNumber());
    Mc2Rows();
    CategoryRows();
    Both("\tOther", RowFill::kLightBlue, b_.OtherMs(), kSlash, c_.OtherMs(), kSlash);
    Both("Uncovered Communication Time", RowFill::kBlue, b_.UncoveredMs(), kSlash, c_.UncoveredMs(), kSlash);
    GroupRows();
    GroupOverlapRows();
    Both("Free Time", RowFill::kBlue, b_.FreeMs(), kSlash, c_.FreeMs(), kSlash);
    Both("\tSDMA", RowFill::kNone, b_.SdmaStreamMs(), kSlash, c_.SdmaStreamMs(), kSlash);
    Both("\tFree", RowFill::kNone, b_.FreeMs() - b_.SdmaStreamMs(), kSlash, c_.FreeMs() - c_.SdmaStreamMs(), kSlash);
    Both("E2E Time", RowFill::kBlue, be_, kSlash, ce_, kSlash);
  }

 private:
  static constexpr std::optional<int64_t> kSlash = std::nullopt;  // the Number cell shows "/"

  void Both(std::string label, RowFill fill, double bms, std::optional<int64_t> bn, double cms,
            std::optional<int64_t> cn) {
    out_.Add(std::move(label), fill, Cell(bms, be_, bn), Cell(cms, ce_, cn));
  }
  // The time and count of one category or of a sum of categories.
  void Categories(std::string label, RowFill fill, std::initializer_list<KC> cats) {
    Both(std::move(label), fill, b_.CatSum(cats), b_.CountSum(cats), c_.CatSum(cats), c_.CountSum(cats));
  }

  // MC2 kernels: base order, then comparison-only; total (with count), computing, communication.
  void Mc2Rows() {
    std::vector<std::string> names;
    for (const auto& k : b_.m->mc2) names.push_back(k.name);
    for (const auto& k : c_.m->mc2)
      if (std::find(names.begin(), names.end(), k.name) == names.end()) names.push_back(k.name);
    for (const auto& name : names) {
      auto find = [&](const SideView& v) -> const Mc2Kernel* {
        for (const auto& k : v.m->mc2)
          if (k.name == name) return &k;
        return nullptr;
      };
      const Mc2Kernel* bk = find(b_);
      const Mc2Kernel* ck = find(c_);
      auto cell = [&](const SideView& v, const Mc2Kernel* k, DualSum Mc2Kernel::*part, double e2e) {
        if (k == nullptr) return Absent();
        const bool total = part == &Mc2Kernel::dur;
        return Cell((k->*part).MsFromUsSum(*v.policy), e2e, total ? std::optional<int64_t>(k->dur.count) : kSlash);
      };
      for (auto [label, part, fill] : {std::tuple{"\t" + name, &Mc2Kernel::dur, RowFill::kLightBlue},
                                       std::tuple{std::string("\t\tComputing"), &Mc2Kernel::computing, RowFill::kNone},
                                       std::tuple{std::string("\t\tCommunication"), &Mc2Kernel::communication,
                                                  RowFill::kNone}})
        out_.Add(label, fill, cell(b_, bk, part, be_), cell(c_, ck, part, ce_));
    }
  }

  void CategoryRows() {
    struct Pair {
      const char* label;
      KC cube;
      KC vector;
    };
    for (const Pair& p : {Pair{"Flash Attention (Forward)", KC::kFaFwdCube, KC::kFaFwdVector},
                          Pair{"Flash Attention (Backward)", KC::kFaBwdCube, KC::kFaBwdVector},
                          Pair{"Conv (Forward)", KC::kConvFwdCube, KC::kConvFwdVector},
                          Pair{"Conv (Backward)", KC::kConvBwdCube, KC::kConvBwdVector},
                          Pair{"Matmul", KC::kMatmulCube, KC::kMatmulVector}}) {
      const std::string l = p.label;
      Categories("\t" + l, RowFill::kLightBlue, {p.cube, p.vector});
      Categories("\t\t" + l + " (Cube)", RowFill::kNone, {p.cube});
      Categories("\t\t" + l + " (Vector)", RowFill::kNone, {p.vector});
    }
    Categories("\tPage Attention", RowFill::kLightBlue, {KC::kPagedAttention});
    Categories("\tVector", RowFill::kLightBlue, {KC::kVectorTrans, KC::kVectorNoTrans});
    Categories("\t\tVector (Trans)", RowFill::kNone, {KC::kVectorTrans});
    Categories("\t\tVector (No Trans)", RowFill::kNone, {KC::kVectorNoTrans});
    Categories("\tCube", RowFill::kLightBlue, {KC::kOtherCube});
    Categories("\tSDMA (Tensor Move)", RowFill::kLightBlue, {KC::kSdmaTensorMove});
  }

  // A group row as the reference computes it in float µs: transmit = uncovered - wait, the group
  // wait + transmit, each divided by 1000 (85.22849000000001 ms where the exact value is 85.22849).
  static double RefGroupMs(const GroupCommunication& g, int64_t GroupCommunication::*part) {
    const double wait_us = static_cast<double>(g.wait_ns) / 1e3;
    const double uncovered_us = static_cast<double>(g.wait_ns + g.transmit_ns) / 1e3;
    const double transmit_us = uncovered_us - wait_us;
    if (part == &GroupCommunication::wait_ns) return wait_us / 1e3;
    if (part == &GroupCommunication::transmit_ns) return transmit_us / 1e3;
    return (wait_us + transmit_us) / 1e3;
  }

  // One group's rows: uncovered (wait + transmit, and idle in the exact split), wait, transmit (a
  // missing side is absent).
  void GroupRowsFor(const std::string& desc, const GroupCommunication* bg, const GroupCommunication* cg) {
    auto cell = [&](const SideView& v, const GroupCommunication* g, int64_t GroupCommunication::*part, double e2e) {
      if (g == nullptr) return Absent();
      if (v.policy->float_us_sums && v.policy->comm_wait_least_wait_plane)
        return Cell(RefGroupMs(*g, part), e2e, kSlash);
      const int64_t ns = part == nullptr ? g->uncovered_ns : g->*part;
      return Cell(v.Ms(ns), e2e, kSlash);
    };
    out_.Add(desc, RowFill::kLightBlue, cell(b_, bg, nullptr, be_), cell(c_, cg, nullptr, ce_));
    out_.Add("\t\tWait", RowFill::kNone, cell(b_, bg, &GroupCommunication::wait_ns, be_),
             cell(c_, cg, &GroupCommunication::wait_ns, ce_));
    out_.Add("\t\tTransmit", RowFill::kNone, cell(b_, bg, &GroupCommunication::transmit_ns, be_),
             cell(c_, cg, &GroupCommunication::transmit_ns, ce_));
  }

  // The index of the side's only group with process-group name `pg`; nullopt when none or several.
  static std::optional<size_t> OnlyGroupWithPg(const SideView& v, const std::string& pg) {
    std::optional<size_t> found;
    int n = 0;
    for (size_t i = 0; i < v.m->groups.size(); ++i) {
      auto p = v.m->pg_names.find(v.m->groups[i].name);
      if (p != v.m->pg_names.end() && p->second == pg) {
        ++n;
        found = i;
      }
    }
    return n == 1 ? found : std::nullopt;
  }

  // Groups: first those paired by pg name (base order, each pg once, known on both sides exactly
  // once), then the other base groups paired by thread name, then comparison-only groups.
  void GroupRows() {
    const auto& bgroups = b_.m->groups;
    const auto& cgroups = c_.m->groups;
    std::vector<bool> b_used(bgroups.size()), c_used(cgroups.size());
    std::vector<std::string> seen_pg;
    for (const auto& g : bgroups) {
      auto it = b_.m->pg_names.find(g.name);
      if (it == b_.m->pg_names.end() || it->second == "unknown") continue;
      const std::string& pg = it->second;
      if (std::find(seen_pg.begin(), seen_pg.end(), pg) != seen_pg.end()) continue;
      seen_pg.push_back(pg);
      const std::optional<size_t> bi = OnlyGroupWithPg(b_, pg), ci = OnlyGroupWithPg(c_, pg);
      if (!bi || !ci) continue;
      b_used[*bi] = c_used[*ci] = true;
      GroupRowsFor("\t" + pg + ": Communication", &bgroups[*bi], &cgroups[*ci]);
    }
    for (size_t i = 0; i < bgroups.size(); ++i) {
      if (b_used[i]) continue;
      const GroupCommunication* cg = nullptr;
      for (size_t j = 0; j < cgroups.size() && cg == nullptr; ++j) {
        if (c_used[j] || cgroups[j].name != bgroups[i].name) continue;
        c_used[j] = true;
        cg = &cgroups[j];
      }
      GroupRowsFor(b_.Description(bgroups[i].name), &bgroups[i], cg);
    }
    for (size_t j = 0; j < cgroups.size(); ++j)
      if (!c_used[j]) GroupRowsFor(c_.Description(cgroups[j].name), nullptr, &cgroups[j]);
  }

  // Uncovered overlap between groups: the total, then one row per pair label (base order, then
  // comparison-only).
  void GroupOverlapRows() {
    if (b_.m->group_overlaps.empty() && c_.m->group_overlaps.empty()) return;
    auto total = [](const SideView& v) {
      int64_t t = 0;
      for (const auto& o : v.m->group_overlaps) t += o.overlap_ns;
      return v.Ms(t);
    };
    Both("\tUncovered Communication Overlapped", RowFill::kLightBlue, total(b_), kSlash, total(c_), kSlash);
    auto label = [](const SideView& v, const GroupOverlap& o) {
      return "\t\t" + v.PgOrName(o.first) + " & " + v.PgOrName(o.second);
    };
    std::vector<std::string> labels;
    for (const auto& o : b_.m->group_overlaps) labels.push_back(label(b_, o));
    for (const auto& o : c_.m->group_overlaps)
      if (std::find(labels.begin(), labels.end(), label(c_, o)) == labels.end()) labels.push_back(label(c_, o));
    for (const auto& l : labels) {
      auto cell = [&](const SideView& v, double e2e) {
        for (const auto& o : v.m->group_overlaps)
          if (label(v, o) == l) return Cell(v.Ms(o.overlap_ns), e2e, kSlash);
        return Absent();
      };
      out_.Add(l, RowFill::kNone, cell(b_, be_), cell(c_, ce_));
    }
  }

  const SideView& b_;
  const SideView& c_;
  const double be_, ce_;
  RowBuilder out_;
};

// ---- Screen (docs/reference/overall.md#screen-table) --------------------------------------------

struct ScreenValues {
  double cube_s = 0, vec_s = 0, conv_fwd_s = 0, conv_bwd_s = 0, fa_fwd_s = 0, fa_bwd_s = 0, pa_s = 0, lccl_s = 0;
  int64_t cube_n = 0, vec_n = 0, conv_fwd_n = 0, conv_bwd_n = 0, fa_fwd_n = 0, fa_bwd_n = 0, pa_n = 0, lccl_n = 0;
  double other_s = 0, compute_s = 0, mem_gib = 0, uncovered_s = 0, wait_s = 0, rdma = 0, sdma_bw = 0, sdma_s = 0,
         free_s = 0, e2e_s = 0;
  bool mem_known = false, rdma_known = false, sdma_bw_known = false;  // else unknown, not 0
  int64_t sdma_n = 0;
};

ScreenValues Screen(const SideView& v) {
  ScreenValues s;
  const SideMetrics& m = *v.m;
  s.cube_s = (v.Mm() + v.Cat(KC::kOtherCube) + v.Mc2Ms()) / 1e3;
  s.cube_n = v.CountSum({KC::kMatmulCube, KC::kMatmulVector, KC::kOtherCube});
  s.vec_s = v.Vector() / 1e3;
  s.vec_n = v.CountSum({KC::kVectorTrans, KC::kVectorNoTrans});
  s.conv_fwd_s = v.CatSum({KC::kConvFwdCube, KC::kConvFwdVector}) / 1e3;
  s.conv_fwd_n = v.CountSum({KC::kConvFwdCube, KC::kConvFwdVector});
  s.conv_bwd_s = v.CatSum({KC::kConvBwdCube, KC::kConvBwdVector}) / 1e3;
  s.conv_bwd_n = v.CountSum({KC::kConvBwdCube, KC::kConvBwdVector});
  s.fa_fwd_s = v.CatSum({KC::kFaFwdCube, KC::kFaFwdVector}) / 1e3;
  s.fa_fwd_n = v.CountSum({KC::kFaFwdCube, KC::kFaFwdVector});
  s.fa_bwd_s = v.CatSum({KC::kFaBwdCube, KC::kFaBwdVector}) / 1e3;
  s.fa_bwd_n = v.CountSum({KC::kFaBwdCube, KC::kFaBwdVector});
  s.pa_s = v.Cat(KC::kPagedAttention) / 1e3;
  s.pa_n = v.Count(KC::kPagedAttention);
  s.lccl_s = v.LcclS();
  s.lccl_n = m.lccl.count;
  // The reference never computes "other" for GPU on the screen (it stays 0).
  s.other_s = m.device == DeviceKind::kNpu ? v.OtherMs() / 1e3 : 0;
  s.compute_s = v.ComputeMs() / 1e3;
  s.mem_gib = m.memory_gib;
  s.mem_known = m.memory_known;
  s.rdma_known = m.rdma_bandwidth_gb_s.has_value();
  s.sdma_bw_known = m.sdma_bandwidth_gb_s.has_value();
  s.uncovered_s = v.UncoveredMs() / 1e3;
  s.wait_s = v.Ms(m.wait_ns()) / 1e3;
  s.rdma = m.rdma_bandwidth_gb_s.value_or(0);
  s.sdma_bw = m.sdma_bandwidth_gb_s.value_or(0);
  s.sdma_s = (v.Cat(KC::kSdmaTensorMove) + v.SdmaStreamMs()) / 1e3;
  s.sdma_n = v.Count(KC::kSdmaTensorMove) + m.sdma_stream.count;
  s.free_s = v.FreeMs() / 1e3;
  s.e2e_s = v.E2eMs() / 1e3;
  return s;
}

std::string Fmt(const char* fmt, double x) {
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt, x);
  return buf;
}
std::string TimeNum(double s, int64_t n) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.3fs(%lld)", s, static_cast<long long>(n));
  return buf;
}

void BuildScreen(const SideView& bv, const SideView& cv, const ReferencePolicy& policy,
                 std::vector<ScreenColumn>& cols) {
  ScreenValues b = Screen(bv), c = Screen(cv);
  auto add = [&](std::string header, std::string bc, std::string cc) {
    cols.push_back({std::move(header), std::move(bc), std::move(cc)});
  };
  if (!bv.m->hide_op_details && !cv.m->hide_op_details) {
    add("Cube Time(Num)", TimeNum(b.cube_s, b.cube_n), TimeNum(c.cube_s, c.cube_n));
    add("Vector Time(Num)", TimeNum(b.vec_s, b.vec_n), TimeNum(c.vec_s, c.vec_n));
  }
  auto either_tn = [&](const char* header, double ScreenValues::*t, int64_t ScreenValues::*n) {
    if (b.*t != 0 || c.*t != 0) add(header, TimeNum(b.*t, b.*n), TimeNum(c.*t, c.*n));
  };
  either_tn("Conv Time(Forward)(Num)", &ScreenValues::conv_fwd_s, &ScreenValues::conv_fwd_n);
  either_tn("Conv Time(Backward)(Num)", &ScreenValues::conv_bwd_s, &ScreenValues::conv_bwd_n);
  either_tn("Flash Attention Time(Forward)(Num)", &ScreenValues::fa_fwd_s, &ScreenValues::fa_fwd_n);
  either_tn("Flash Attention Time(Backward)(Num)", &ScreenValues::fa_bwd_s, &ScreenValues::fa_bwd_n);
  either_tn("Paged Attention Time(Num)", &ScreenValues::pa_s, &ScreenValues::pa_n);
  either_tn("Lccl Time(Num)", &ScreenValues::lccl_s, &ScreenValues::lccl_n);
  if (b.other_s != 0 || c.other_s != 0) add("Other Time", Fmt("%.3fs", b.other_s), Fmt("%.3fs", c.other_s));
  add("Computing Time", Fmt("%.3fs", b.compute_s), Fmt("%.3fs", c.compute_s));
  // An unknown value shows as 0 in the reference's screen (policy.screen_quirks), as n/a by default.
  auto known = [&](bool is_known, std::string text) { return is_known || policy.screen_quirks ? text : "n/a"; };
  if (b.mem_gib != 0 || c.mem_gib != 0)
    add("Mem Usage", known(b.mem_known, Fmt("%.2fG", b.mem_gib)), known(c.mem_known, Fmt("%.2fG", c.mem_gib)));
  auto uncovered = [&](const ScreenValues& v, bool is_base) {
    if (!policy.screen_quirks) return Fmt("%.3fs", v.uncovered_s) + Fmt("(%.3fs)", v.wait_s);
    // Reference quirks: space flag, and "( / )" only on the base side when its wait is 0.
    if (is_base && v.wait_s == 0) return Fmt("% .3fs( / )", v.uncovered_s);
    return Fmt("% .3fs", v.uncovered_s) + Fmt("(%.3fs)", v.wait_s);
  };
  add("Uncovered Communication Time(Wait Time)", uncovered(b, true), uncovered(c, false));
  if (b.rdma != 0 || c.rdma != 0)
    add("RDMA Bandwidth", known(b.rdma_known, Fmt("%.3fGB/s", b.rdma)), known(c.rdma_known, Fmt("%.3fGB/s", c.rdma)));
  if (b.sdma_bw != 0 || c.sdma_bw != 0)
    add("SDMA Bandwidth", known(b.sdma_bw_known, Fmt("%.3fGB/s", b.sdma_bw)),
        known(c.sdma_bw_known, Fmt("%.3fGB/s", c.sdma_bw)));
  either_tn("SDMA Time(Num)", &ScreenValues::sdma_s, &ScreenValues::sdma_n);
  add("Free Time", Fmt("%.3fs", b.free_s), Fmt("%.3fs", c.free_s));
  bool npu = bv.m->device == DeviceKind::kNpu || cv.m->device == DeviceKind::kNpu;
  add(npu ? "E2E Time(Not minimal profiling)" : "E2E Time", Fmt("%.3fs", b.e2e_s), Fmt("%.3fs", c.e2e_s));
}

SideSummary Summarize(const SideMetrics& m) {
  SideSummary s;
  s.device = m.device;
  s.label = std::string(Name(m.device));
  s.e2e_ns = m.e2e.Ns();
  s.has_overall = s.e2e_ns != 0;
  s.computing_ns = m.compute.Ns() + m.lccl.Ns();
  s.uncovered_communication_ns = m.comm_not_overlapped.Ns();
  s.free_ns = s.e2e_ns - s.computing_ns - s.uncovered_communication_ns;
  s.wait_ns = m.wait_ns();
  s.sdma_ns = m.sdma_stream.Ns();
  s.steps = m.step_splits;
  s.step_source = m.step_source;
  s.step_coverage = m.step_coverage;
  if (m.device == DeviceKind::kNpu)
    for (const GroupCommunication& g : m.groups) s.communication_groups.push_back(g.split);
  const auto& c = m.categories;
  s.kernel_categories = c;
  auto ns = [&](std::initializer_list<KC> cs) {
    int64_t t = 0;
    for (KC k : cs) t += c.Ns(k);
    return t;
  };
  auto cnt = [&](std::initializer_list<KC> cs) {
    int64_t t = 0;
    for (KC k : cs) t += c.Count(k);
    return t;
  };
  struct Item {
    const char* key;
    std::initializer_list<KC> cats;
  };
  for (const Item& it : {Item{"flash_attention_fwd", {KC::kFaFwdCube, KC::kFaFwdVector}},
                         Item{"flash_attention_bwd", {KC::kFaBwdCube, KC::kFaBwdVector}},
                         Item{"conv_fwd", {KC::kConvFwdCube, KC::kConvFwdVector}},
                         Item{"conv_bwd", {KC::kConvBwdCube, KC::kConvBwdVector}},
                         Item{"matmul", {KC::kMatmulCube, KC::kMatmulVector}},
                         Item{"page_attention", {KC::kPagedAttention}},
                         Item{"vector", {KC::kVectorTrans, KC::kVectorNoTrans}}, Item{"cube", {KC::kOtherCube}},
                         Item{"sdma_tensor_move", {KC::kSdmaTensorMove}}, Item{"mc2", {KC::kMc2}}}) {
    s.computing_split_ns.emplace_back(it.key, ns(it.cats));
    s.computing_split_count.emplace_back(it.key, cnt(it.cats));
  }
  s.computing_split_ns.emplace_back("lccl", m.lccl.Ns());
  s.computing_split_count.emplace_back("lccl", m.lccl.count);
  s.computing_split_ns.emplace_back("other", OtherComputing(m).Ns());
  s.computing_split_count.emplace_back("other", 0);
  s.memory_used_gib = m.memory_gib;
  s.memory_known = m.memory_known;
  s.rdma_bandwidth_gb_s = m.rdma_bandwidth_gb_s;
  s.sdma_bandwidth_gb_s = m.sdma_bandwidth_gb_s;
  s.hide_op_details = m.hide_op_details;
  s.warnings = m.warnings;
  return s;
}

SideMetrics ComputeSide(const Timeline& t, const KernelMasks& masks, const ReferencePolicy& policy,
                        std::optional<int64_t> step) {
  DeviceKind d = t.p().meta.device;
  if (d == DeviceKind::kUnknown) {
    d = (t.p().meta.format == SourceFormat::kKinetoJson) ? DeviceKind::kGpu : DeviceKind::kNpu;
  }
  SideMetrics m = d == DeviceKind::kGpu
                      ? ComputeGpuSideMetrics(t, masks, policy, policy.gpu_ignores_step_selection ? std::nullopt : step)
                      : ComputeNpuSideMetrics(t, masks, policy, step);
  if (!m.step_splits.empty()) m.step_source = t.MeasuredSource();
  if (t.device.device_events == 0 && !policy.measure_side_without_device_events && m.e2e.Ns() != 0) {
    // Communication ops alone are not a step: the side's split is unknown (AssessComparability says why).
    SideMetrics unknown;
    unknown.device = m.device;
    unknown.has_overlap_data = false;
    unknown.warnings = std::move(m.warnings);
    return unknown;
  }
  return m;
}

}  // namespace

OverallComparison CompareOverall(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                                 const OverallOptions& options) {
  const KernelMasks masks = options.masks ? *options.masks : KernelMasks::Defaults();
  SideMetrics b = ComputeSide(base, masks, policy, options.base_step);
  SideMetrics c = ComputeSide(comparison, masks, policy, options.comparison_step);
  return CompareOverallMetrics(b, c, policy);
}

OverallComparison CompareOverallMetrics(const SideMetrics& base, const SideMetrics& comparison,
                                        const ReferencePolicy& policy) {
  OverallComparison out;
  out.policy = policy;
  SideView bv{&base, &policy}, cv{&comparison, &policy};
  out.base = Summarize(base);
  out.comparison = Summarize(comparison);
  if (out.base.has_overall && out.comparison.has_overall) OverallRowsBuilder(bv, cv, out.rows).Build();
  BuildScreen(bv, cv, policy, out.screen);
  // A side without an end-to-end time (no device data) is unknown, not 0 (the reference shows 0).
  if (!policy.screen_quirks)
    for (ScreenColumn& col : out.screen) {
      if (!out.base.has_overall) col.base_cell = "n/a";
      if (!out.comparison.has_overall) col.comparison_cell = "n/a";
    }
  return out;
}

}  // namespace profdiff::analysis
