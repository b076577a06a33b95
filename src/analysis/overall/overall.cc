// The overall comparison: per-side metrics -> OverallMetrics rows (§7), screen columns (§6) and
// the ns summary.
#include "profdiff/analysis/overall/overall.h"

#include <algorithm>
#include <cstdio>

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
  explicit RowBuilder(std::vector<OverallRow>& rows) : rows_(rows) {}
  void Add(std::string label, RowFill fill, MetricCell base, MetricCell comp) {
    if (base.duration_ms == 0 && comp.duration_ms == 0) return;  // omitted when both are exactly 0
    OverallRow r;
    r.indent = CountTabs(label);
    r.label = std::move(label);
    r.fill = fill;
    r.base = base;
    r.comparison = comp;
    r.diff_ms = DiffMs(base.duration_ms, comp.duration_ms);
    r.diff_ratio = DiffRatio(base.duration_ms, comp.duration_ms);
    rows_.push_back(std::move(r));
  }

 private:
  std::vector<OverallRow>& rows_;
};

void BuildRows(const SideView& b, const SideView& c, std::vector<OverallRow>& rows) {
  RowBuilder out(rows);
  const double be = b.E2eMs(), ce = c.E2eMs();
  auto both = [&](std::string label, RowFill fill, double bms, std::optional<int64_t> bn, double cms,
                  std::optional<int64_t> cn) { out.Add(std::move(label), fill, Cell(bms, be, bn), Cell(cms, ce, cn)); };
  const auto kBlue = RowFill::kBlue, kLight = RowFill::kLightBlue, kNone = RowFill::kNone;
  const std::optional<int64_t> kSlash;

  both("Computing Time", kBlue, b.ComputeMs(), b.ComputingNumber(), c.ComputeMs(), c.ComputingNumber());

  // MC2 kernels: base order, then comparison-only.
  std::vector<std::string> mc2_names;
  for (const auto& k : b.m->mc2) mc2_names.push_back(k.name);
  for (const auto& k : c.m->mc2) {
    if (std::find(mc2_names.begin(), mc2_names.end(), k.name) == mc2_names.end()) mc2_names.push_back(k.name);
  }
  for (const auto& name : mc2_names) {
    auto find = [&](const SideView& v) -> const Mc2Kernel* {
      for (const auto& k : v.m->mc2) {
        if (k.name == name) return &k;
      }
      return nullptr;
    };
    const Mc2Kernel* bk = find(b);
    const Mc2Kernel* ck = find(c);
    auto cell = [&](const SideView& v, const Mc2Kernel* k, int which, double e2e) {
      if (k == nullptr) return Absent();
      const DualSum& sum = which == 0 ? k->dur : which == 1 ? k->computing : k->communication;
      return Cell(sum.MsFromUsSum(*v.policy), e2e, which == 0 ? std::optional<int64_t>(k->dur.count) : std::nullopt);
    };
    out.Add("\t" + name, kLight, cell(b, bk, 0, be), cell(c, ck, 0, ce));
    out.Add("\t\tComputing", kNone, cell(b, bk, 1, be), cell(c, ck, 1, ce));
    out.Add("\t\tCommunication", kNone, cell(b, bk, 2, be), cell(c, ck, 2, ce));
  }

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
    std::string l = p.label;
    both("\t" + l, kLight, b.CatSum({p.cube, p.vector}), b.CountSum({p.cube, p.vector}), c.CatSum({p.cube, p.vector}),
         c.CountSum({p.cube, p.vector}));
    if (l == "Matmul") {
      both("\t\tMatmul (Cube)", kNone, b.Cat(p.cube), b.Count(p.cube), c.Cat(p.cube), c.Count(p.cube));
      both("\t\tMatmul (Vector)", kNone, b.Cat(p.vector), b.Count(p.vector), c.Cat(p.vector), c.Count(p.vector));
    } else {
      both("\t\t" + l + " (Cube)", kNone, b.Cat(p.cube), b.Count(p.cube), c.Cat(p.cube), c.Count(p.cube));
      both("\t\t" + l + " (Vector)", kNone, b.Cat(p.vector), b.Count(p.vector), c.Cat(p.vector), c.Count(p.vector));
    }
  }
  both("\tPage Attention", kLight, b.Cat(KC::kPagedAttention), b.Count(KC::kPagedAttention),
       c.Cat(KC::kPagedAttention), c.Count(KC::kPagedAttention));
  both("\tVector", kLight, b.Vector(), b.CountSum({KC::kVectorTrans, KC::kVectorNoTrans}), c.Vector(),
       c.CountSum({KC::kVectorTrans, KC::kVectorNoTrans}));
  both("\t\tVector (Trans)", kNone, b.Cat(KC::kVectorTrans), b.Count(KC::kVectorTrans), c.Cat(KC::kVectorTrans),
       c.Count(KC::kVectorTrans));
  both("\t\tVector (No Trans)", kNone, b.Cat(KC::kVectorNoTrans), b.Count(KC::kVectorNoTrans),
       c.Cat(KC::kVectorNoTrans), c.Count(KC::kVectorNoTrans));
  both("\tCube", kLight, b.Cat(KC::kOtherCube), b.Count(KC::kOtherCube), c.Cat(KC::kOtherCube), c.Count(KC::kOtherCube));
  both("\tSDMA (Tensor Move)", kLight, b.Cat(KC::kSdmaTensorMove), b.Count(KC::kSdmaTensorMove),
       c.Cat(KC::kSdmaTensorMove), c.Count(KC::kSdmaTensorMove));
  both("\tOther", kLight, b.OtherMs(), kSlash, c.OtherMs(), kSlash);
  both("Uncovered Communication Time", kBlue, b.UncoveredMs(), kSlash, c.UncoveredMs(), kSlash);

  // Communication groups.
  auto group_rows = [&](const std::string& desc, const GroupCommunication* bg, const GroupCommunication* cg) {
    auto cell = [&](const SideView& v, const GroupCommunication* g, int which, double e2e) {
      if (g == nullptr) return Absent();
      int64_t ns = which == 0 ? g->wait_ns + g->transmit_ns : which == 1 ? g->wait_ns : g->transmit_ns;
      return Cell(v.Ms(ns), e2e, std::nullopt);
    };
    out.Add(desc, kLight, cell(b, bg, 0, be), cell(c, cg, 0, ce));
    out.Add("\t\tWait", kNone, cell(b, bg, 1, be), cell(c, cg, 1, ce));
    out.Add("\t\tTransmit", kNone, cell(b, bg, 2, be), cell(c, cg, 2, ce));
  };
  std::vector<bool> b_used(b.m->groups.size()), c_used(c.m->groups.size());
  std::vector<std::string> seen_pg;
  for (const auto& g : b.m->groups) {
    auto it = b.m->pg_names.find(g.name);
    if (it == b.m->pg_names.end() || it->second == "unknown") continue;
    const std::string& pg = it->second;
    if (std::find(seen_pg.begin(), seen_pg.end(), pg) != seen_pg.end()) continue;
    seen_pg.push_back(pg);
    auto matches = [&](const SideView& v, size_t& index) {
      int n = 0;
      for (size_t i = 0; i < v.m->groups.size(); ++i) {
        auto p = v.m->pg_names.find(v.m->groups[i].name);
        if (p != v.m->pg_names.end() && p->second == pg) {
          ++n;
          index = i;
        }
      }
      return n;
    };
    size_t bi = 0, ci = 0;
    if (matches(b, bi) != 1 || matches(c, ci) != 1) continue;
    b_used[bi] = true;
    c_used[ci] = true;
    group_rows("\t" + pg + ": Communication", &b.m->groups[bi], &c.m->groups[ci]);
  }
  for (size_t i = 0; i < b.m->groups.size(); ++i) {
    if (b_used[i]) continue;
    const GroupCommunication* cg = nullptr;
    for (size_t j = 0; j < c.m->groups.size(); ++j) {
      if (!c_used[j] && c.m->groups[j].name == b.m->groups[i].name) {
        c_used[j] = true;
        cg = &c.m->groups[j];
        break;
      }
    }
    group_rows(b.Description(b.m->groups[i].name), &b.m->groups[i], cg);
  }
  for (size_t j = 0; j < c.m->groups.size(); ++j) {
    if (!c_used[j]) group_rows(c.Description(c.m->groups[j].name), nullptr, &c.m->groups[j]);
  }

  // Uncovered overlap between groups.
  if (!b.m->group_overlaps.empty() || !c.m->group_overlaps.empty()) {
    auto total = [](const SideView& v) {
      int64_t t = 0;
      for (const auto& o : v.m->group_overlaps) t += o.overlap_ns;
      return v.Ms(t);
    };
    both("\tUncovered Communication Overlapped", kLight, total(b), kSlash, total(c), kSlash);
    auto label = [](const SideView& v, const GroupOverlap& o) {
      return "\t\t" + v.PgOrName(o.first) + " & " + v.PgOrName(o.second);
    };
    std::vector<std::string> labels;
    for (const auto& o : b.m->group_overlaps) labels.push_back(label(b, o));
    for (const auto& o : c.m->group_overlaps) {
      if (std::find(labels.begin(), labels.end(), label(c, o)) == labels.end()) labels.push_back(label(c, o));
    }
    for (const auto& l : labels) {
      auto cell = [&](const SideView& v, double e2e) {
        for (const auto& o : v.m->group_overlaps) {
          if (label(v, o) == l) return Cell(v.Ms(o.overlap_ns), e2e, std::nullopt);
        }
        return Absent();
      };
      out.Add(l, kNone, cell(b, be), cell(c, ce));
    }
  }

  both("Free Time", kBlue, b.FreeMs(), kSlash, c.FreeMs(), kSlash);
  both("\tSDMA", kNone, b.SdmaStreamMs(), kSlash, c.SdmaStreamMs(), kSlash);
  both("\tFree", kNone, b.FreeMs() - b.SdmaStreamMs(), kSlash, c.FreeMs() - c.SdmaStreamMs(), kSlash);
  both("E2E Time", kBlue, be, kSlash, ce, kSlash);
}

// ---- Screen (§6) ------------------------------------------------------------------------------

struct ScreenValues {
  double cube_s = 0, vec_s = 0, conv_fwd_s = 0, conv_bwd_s = 0, fa_fwd_s = 0, fa_bwd_s = 0, pa_s = 0, lccl_s = 0;
  int64_t cube_n = 0, vec_n = 0, conv_fwd_n = 0, conv_bwd_n = 0, fa_fwd_n = 0, fa_bwd_n = 0, pa_n = 0, lccl_n = 0;
  double other_s = 0, compute_s = 0, mem_gib = 0, uncovered_s = 0, wait_s = 0, rdma = 0, sdma_bw = 0, sdma_s = 0,
         free_s = 0, e2e_s = 0;
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
  if (b.mem_gib != 0 || c.mem_gib != 0) add("Mem Usage", Fmt("%.2fG", b.mem_gib), Fmt("%.2fG", c.mem_gib));
  auto uncovered = [&](const ScreenValues& v, bool is_base) {
    if (!policy.screen_quirks) return Fmt("%.3fs", v.uncovered_s) + Fmt("(%.3fs)", v.wait_s);
    // Reference quirks: space flag, and "( / )" only on the base side when its wait is 0.
    if (is_base && v.wait_s == 0) return Fmt("% .3fs( / )", v.uncovered_s);
    return Fmt("% .3fs", v.uncovered_s) + Fmt("(%.3fs)", v.wait_s);
  };
  add("Uncovered Communication Time(Wait Time)", uncovered(b, true), uncovered(c, false));
  if (b.rdma != 0 || c.rdma != 0) add("RDMA Bandwidth", Fmt("%.3fGB/s", b.rdma), Fmt("%.3fGB/s", c.rdma));
  if (b.sdma_bw != 0 || c.sdma_bw != 0) add("SDMA Bandwidth", Fmt("%.3fGB/s", b.sdma_bw), Fmt("%.3fGB/s", c.sdma_bw));
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
  const auto& c = m.categories;
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
  s.rdma_bandwidth_gb_s = m.rdma_bandwidth_gb_s;
  s.sdma_bandwidth_gb_s = m.sdma_bandwidth_gb_s;
  s.hide_op_details = m.hide_op_details;
  s.warnings = m.warnings;
  return s;
}

SideMetrics ComputeSide(const Timeline& t, const KernelMasks& masks, const ReferencePolicy& policy) {
  DeviceKind d = t.p().meta.device;
  if (d == DeviceKind::kUnknown) {
    d = (t.p().meta.format == SourceFormat::kKinetoJson) ? DeviceKind::kGpu : DeviceKind::kNpu;
  }
  return d == DeviceKind::kGpu ? ComputeGpuSideMetrics(t, masks, policy) : ComputeNpuSideMetrics(t, masks, policy);
}

}  // namespace

OverallComparison CompareOverall(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                                 const OverallOptions& options) {
  const KernelMasks masks = options.masks ? *options.masks : KernelMasks::Defaults();
  SideMetrics b = ComputeSide(base, masks, policy);
  SideMetrics c = ComputeSide(comparison, masks, policy);
  return CompareOverallMetrics(b, c, policy);
}

OverallComparison CompareOverallMetrics(const SideMetrics& base, const SideMetrics& comparison,
                                        const ReferencePolicy& policy) {
  OverallComparison out;
  out.policy = policy;
  SideView bv{&base, &policy}, cv{&comparison, &policy};
  out.base = Summarize(base);
  out.comparison = Summarize(comparison);
  if (out.base.has_overall && out.comparison.has_overall) BuildRows(bv, cv, out.rows);
  BuildScreen(bv, cv, policy, out.screen);
  return out;
}

}  // namespace profdiff::analysis
