// Module (nn.Module) comparison (docs/reference/operators.md#module-comparison): per side a forward
// module tree (python_function "nn.Module:" events plus optimizer ops), a backward module tree
// (torch ops reached by fwdbwd flows, named "[ BACKWARD ]{forward module path}"), a call-function
// tree for call stacks, kernels attached through the kernel_dict pseudo events, torch ops assigned
// to their innermost module; then the breadth-first module matching
// (docs/reference/operators.md#module-matching) and the ModuleCompare / ModuleCompareStatistic
// rows.
#include <algorithm>
#include <deque>
#include <type_traits>
#include <unordered_map>

#include "profdiff/base/ascii.h"
#include "profdiff/analysis/common/ordered_join.h"
#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/base/time.h"

namespace profdiff::analysis {

namespace {

constexpr uint32_t kNoMod = UINT32_MAX;

bool IsOptimizerOp(std::string_view name) { return ascii::StartsWithLower(name, "optimizer"); }

struct ModEvent {
  int64_t start = 0;
  int64_t end = 0;
  bool x = false;      // creates a module ("X" event); otherwise a kernel pseudo event
  std::string_view name;  // into the profile's strings or SideModules::backward_names
  int32_t group = -1;  // pseudo event: index into the kernel dict
};

// A node of the call tree (one per python function: kept small, docs/performance.md).
struct TreeNode {
  int64_t start = 0, end = 0;
  std::string_view name;
  uint32_t parent = kNoMod;
  std::vector<uint32_t> children;
};

// A node of a module tree: a tree node with the module's path, kernels and ops.
struct ModNode : TreeNode {
  std::string path;
  std::string_view call_stack;  // set in step 8, into SideModules::stacks
  int64_t level = 1;
  std::vector<uint32_t> self_groups, total_groups;
  std::vector<SliceId> top_ops;
  std::vector<std::vector<uint32_t>> top_op_groups;
  std::vector<int64_t> op_stack;  // ends of the open ops of the module's op tree
};

// A module tree (Node = ModNode) or the call tree (Node = TreeNode). The call tree keeps no path
// and no call stack per node: those cost depth x name length each, quadratic in the nesting depth
// (4.2 GB on a 333 MB trace); the few call stacks needed are joined on demand by ChainText.
template <class Node>
struct Tree {
  static constexpr bool kModules = std::is_same_v<Node, ModNode>;
  std::vector<Node> nodes{Node{}};  // 0 = root

  // docs/reference/operators.md#module-tree step 4: stable sort by start, cursor walk; "X" events
  // create modules, pseudo events add their kernel group to the cursor module (self) and its
  // ancestors below the root (total).
  void Build(std::vector<ModEvent>& events) {
    std::stable_sort(events.begin(), events.end(),
                     [](const ModEvent& a, const ModEvent& b) { return a.start < b.start; });
    nodes.reserve(1 + static_cast<size_t>(std::count_if(events.begin(), events.end(),
                                                        [](const ModEvent& e) { return e.x; })));
    uint32_t cur = 0;
    for (ModEvent& e : events) {
      while (cur != 0 && e.start > nodes[cur].end) cur = nodes[cur].parent;
      if (e.x) {
        Node n;
        n.start = e.start;
        n.end = e.end;
        n.parent = cur;
        n.name = e.name;
        if constexpr (kModules) {
          n.level = nodes[cur].level + 1;
          n.path.reserve(nodes[cur].path.size() + 1 + e.name.size());
          n.path.append(nodes[cur].path).append("/").append(e.name);
        }
        const auto id = static_cast<uint32_t>(nodes.size());
        nodes.push_back(std::move(n));
        nodes[cur].children.push_back(id);
        cur = id;
        continue;
      }
      if constexpr (kModules) AddGroup(cur, e.group);
    }
  }

  void AddGroup(uint32_t cur, int32_t group) {
    if (cur == 0 || group < 0) return;
    const auto g = static_cast<uint32_t>(group);
    nodes[cur].self_groups.push_back(g);
    for (uint32_t n = cur; n != 0; n = nodes[n].parent) nodes[n].total_groups.push_back(g);
  }


  // The names from the top-level ancestor down to node n, joined as the reference builds a call
  // stack: each name appended after ";\n", except after an empty text (which restarts it).
  std::string ChainText(uint32_t n) const {
    std::vector<std::string_view> chain;
    for (; n != 0; n = nodes[n].parent) chain.push_back(nodes[n].name);
    std::string text;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if (text.empty()) {
        text.assign(*it);
      } else {
        text.append(";\n").append(*it);
      }
    }
    return text;
  }

  // The innermost module strictly containing ts (start < ts < end), or kNoMod.
  uint32_t FindCall(int64_t ts) const {
    uint32_t n = 0;
    while (true) {
      const auto& ch = nodes[n].children;
      auto it = std::upper_bound(ch.begin(), ch.end(), ts,
                                 [&](int64_t t, uint32_t c) { return t < nodes[c].start; });
      if (it == ch.begin()) break;
      const Node& c = nodes[*(it - 1)];
      if (!(c.start < ts && ts < c.end)) break;
      n = *(it - 1);
    }
    return n == 0 ? kNoMod : n;
  }

  // find_torch_op_call: nest the op in the module's own op tree; top-level ops are kept.
  void AddOp(uint32_t m, SliceId op, int64_t start, int64_t end) {
    Node& n = nodes[m];
    while (!n.op_stack.empty() && start > n.op_stack.back()) n.op_stack.pop_back();
    if (n.op_stack.empty()) {
      n.top_ops.push_back(op);
      n.top_op_groups.emplace_back();
    }
    n.op_stack.push_back(end);
  }
};

using ModTree = Tree<ModNode>;
using CallTree = Tree<TreeNode>;

struct SideModules {
  const Profile* p = nullptr;
  std::deque<std::string> backward_names;  // the backward modules' names (ModEvent/ModNode views)
  std::deque<std::string> stacks;          // the modules' call stacks, one per distinct call function
  KernelDict flows;
  ModTree trees[2];  // forward, backward
  bool has_modules = false;
};

// The durations of one kernel group, in kernel order.
DualSum GroupSum(const Profile& p, const KernelDict& f, uint32_t g) {
  DualSum sum;
  for (SliceId k : f.groups[g].kernels) sum.AddE5(p.slices[k].dur_e5());
  return sum;
}

// The durations of a group list: the reference sums each group, then adds the group sums.
DualSum SumGroups(const SideModules& s, const std::vector<uint32_t>& groups) {
  DualSum sum;
  for (uint32_t g : groups) sum += GroupSum(*s.p, s.flows, g);
  return sum;
}

// ---- One side's module trees (docs/reference/operators.md#module-tree) --------------------------

// The rows a side's module trees read: all, or with policy.db_step_query_for_modules on an Ascend DB
// side with a step, the rows (PYTORCH_API rows, tasks, fwdbwd pairs) starting inside the step's
// STEP_TIME window, as the reference's step queries read them.
// Default mode (!policy.step_selection_npu_sides_only): the rows starting inside the selected step's
// host ProfilerStep window on any side, and the kernels launched inside it (wherever they run).
struct RowWindow {
  bool all = true;
  int64_t start_ns = 0, end_ns = 0;
  bool kernels_by_launch = false;
  bool Has(int64_t ts_ns) const { return all || (ts_ns >= start_ns && ts_ns <= end_ns); }
};

RowWindow ModuleRows(const Timeline& t, const ReferencePolicy& policy, std::optional<int64_t> step) {
  const Profile& p = t.p();
  RowWindow w;
  if (!step) return w;
  if (!policy.step_selection_npu_sides_only) {
    if (const auto host = t.HostWindow(*step)) w = {false, host->first, host->second - 1, true};  // Has(): [a, b]
    return w;
  }
  if (!policy.db_step_query_for_modules || p.meta.format != SourceFormat::kAscendDb) return w;
  for (const DbStep& s : p.npu.db.steps)
    if (s.id == *step) w = {false, s.start_ns, s.end_ns};
  return w;
}

// Step 1: python functions split into module events ("nn.Module:" names) and call functions.
void CollectPythonFunctions(const Profile& p, const RowWindow& rows, std::vector<ModEvent>& modules,
                            std::vector<ModEvent>& calls) {
  p.ForEachPythonFunction([&](const PythonFunctionView& f) {
    if (!rows.Has(f.ts_ns)) return;
    std::string_view name = p.str(f.name);
    ModEvent e{f.ts_ns, f.end_ns, f.complete, name, -1};
    (ascii::StartsWithLower(name, "nn.module:") ? modules : calls).push_back(std::move(e));
  });
}

// Step 2: torch ops; optimizer ops become module events, ops of the backward process (the process of
// the first fwdbwd flow end, flow ids in order of first appearance) are indexed by start.
// An Ascend DB export has no processes there: every op is indexed.
void CollectTorchOps(const Timeline& timeline, const RowWindow& rows, std::vector<ModEvent>& modules,
                     std::vector<SliceId>& ops, std::unordered_map<int64_t, SliceId>& bwd_ops) {
  const Profile& p = timeline.p();
  int64_t bwd_process = -1;
  if (const std::optional<uint32_t>& end = timeline.flows.fwd_bwd_first_end_by_id)
    bwd_process = p.tracks[p.flows[*end].track].process;
  const bool db = p.meta.format == SourceFormat::kAscendDb;
  for (SliceId s = 0; s < p.slices.size(); ++s) {
    const Slice& sl = p.slices[s];
    if (!IsTorchOpKind(sl.kind) || !rows.Has(sl.ts_ns)) continue;
    ops.push_back(s);
    std::string_view name = p.str(sl.name);
    if (IsOptimizerOp(name)) {
      modules.push_back({sl.ts_ns, sl.end_ns(), sl.phase == 'X', name, -1});
      continue;
    }
    if (db || static_cast<int64_t>(p.tracks[sl.track].process) == bwd_process) bwd_ops[sl.ts_ns] = s;
  }
}

// Step 3: one pseudo event per kernel group, at the group's flow-start ts.
std::vector<ModEvent> PseudoEvents(const KernelDict& dict) {
  std::vector<ModEvent> pseudo;
  pseudo.reserve(dict.groups.size());
  for (size_t g = 0; g < dict.groups.size(); ++g)
    pseudo.push_back({dict.groups[g].ts_ns, dict.groups[g].ts_ns, false, {}, static_cast<int32_t>(g)});
  return pseudo;
}

// Step 6: a backward module per fwdbwd flow whose end starts a backward-process op and whose start lies
// strictly inside a forward module: that op, renamed "[ BACKWARD ]{forward module path}".
std::vector<ModEvent> BackwardEvents(const Timeline& timeline, const RowWindow& rows, const ModTree& fwd,
                                     const std::unordered_map<int64_t, SliceId>& bwd_ops,
                                     std::deque<std::string>& names) {
  const Profile& p = timeline.p();
  std::vector<ModEvent> events;
  for (const FlowLink& f : timeline.flows.fwd_bwd) {
    if (!rows.Has(p.flows[f.start].ts_ns) || !rows.Has(p.flows[f.end].ts_ns)) continue;
    auto op = bwd_ops.find(p.flows[f.end].ts_ns);
    if (op == bwd_ops.end()) continue;
    uint32_t m = fwd.FindCall(p.flows[f.start].ts_ns);
    if (m == kNoMod) continue;
    const Slice& sl = p.slices[op->second];
    names.push_back("[ BACKWARD ]" + fwd.nodes[m].path);
    events.push_back({sl.ts_ns, sl.end_ns(), true, names.back(), -1});
  }
  return events;
}

// Step 7: torch ops (by start; optimizer and step ops skipped) to their innermost forward module,
// else to their innermost backward module.
void AssignOps(const Profile& p, std::vector<SliceId> ops, ModTree& fwd, ModTree& bwd) {
  std::stable_sort(ops.begin(), ops.end(), [&](SliceId a, SliceId b) { return p.slices[a].ts_ns < p.slices[b].ts_ns; });
  for (SliceId s : ops) {
    const Slice& sl = p.slices[s];
    if (IsOptimizerOp(p.str(sl.name)) || sl.kind == SliceKind::kStepMarker) continue;
    uint32_t m = fwd.FindCall(sl.ts_ns);
    if (m != kNoMod) {
      fwd.AddOp(m, s, sl.ts_ns, sl.end_ns());
      continue;
    }
    m = bwd.FindCall(sl.ts_ns);
    if (m != kNoMod) bwd.AddOp(m, s, sl.ts_ns, sl.end_ns());
  }
}

// Step 8: each module's kernel groups go to the top-level op containing their ts (a forward cursor;
// a group before the current op is dropped); the call stack is that of the innermost call function
// strictly containing the module's start, if any, else the module's own chain of names. A call
// function's stack is joined once, when a module first needs it.
void AssignGroupsAndStacks(SideModules& side, const CallTree& calls) {
  const Profile& p = *side.p;
  std::unordered_map<uint32_t, std::string_view> call_stacks;
  for (ModTree& t : side.trees) {
    for (uint32_t id = 1; id < t.nodes.size(); ++id) {
      ModNode& n = t.nodes[id];
      size_t cur = 0;
      for (uint32_t g : n.self_groups) {
        const int64_t ts = side.flows.groups[g].ts_ns;
        while (cur < n.top_ops.size() && ts > p.slices[n.top_ops[cur]].end_ns()) ++cur;
        if (cur < n.top_ops.size() && ts >= p.slices[n.top_ops[cur]].ts_ns) n.top_op_groups[cur].push_back(g);
      }
      const uint32_t cf = calls.FindCall(n.start);
      if (cf == kNoMod) {
        n.call_stack = side.stacks.emplace_back(t.ChainText(id));
        continue;
      }
      auto [it, fresh] = call_stacks.try_emplace(cf);
      if (fresh) it->second = side.stacks.emplace_back(calls.ChainText(cf));
      n.call_stack = it->second;
    }
  }
}

// Keeps the kernels of `rows` in each group; a group left empty goes.
void KeepKernelsIn(const Profile& p, const RowWindow& rows, KernelDict& dict) {
  if (rows.all) return;
  std::vector<KernelGroup> kept;
  for (KernelGroup& g : dict.groups) {
    if (rows.kernels_by_launch && !rows.Has(g.ts_ns)) continue;
    if (!rows.kernels_by_launch) std::erase_if(g.kernels, [&](SliceId k) { return !rows.Has(p.slices[k].ts_ns); });
    if (!g.kernels.empty()) kept.push_back(std::move(g));
  }
  dict.groups = std::move(kept);
}

void BuildSide(const Timeline& timeline, const ReferencePolicy& policy, const OperatorCompareOptions& options,
               std::optional<int64_t> step, SideModules& side) {
  const Profile& p = timeline.p();
  side.p = &p;
  const RowWindow rows = ModuleRows(timeline, policy, step);
  std::vector<ModEvent> modules, calls;
  CollectPythonFunctions(p, rows, modules, calls);
  if (modules.empty()) return;
  side.has_modules = true;

  std::vector<SliceId> ops;
  std::unordered_map<int64_t, SliceId> bwd_ops;
  CollectTorchOps(timeline, rows, modules, ops, bwd_ops);
  OpTreeOptions tree_options;
  tree_options.overall_or_communication_runs = options.overall_or_communication_runs;
  side.flows = LinkKernels(timeline, policy, tree_options);
  if (policy.db_module_kernels_of_last_connection && p.meta.format == SourceFormat::kAscendDb)
    GroupDbKernelsByLastConnection(timeline, side.flows);
  KeepKernelsIn(p, rows, side.flows);
  const std::vector<ModEvent> pseudo = PseudoEvents(side.flows);

  modules.insert(modules.end(), pseudo.begin(), pseudo.end());
  ModTree& fwd = side.trees[0];
  fwd.Build(modules);
  CallTree call_tree;
  call_tree.Build(calls);
  std::vector<ModEvent>().swap(calls);  // freed (`calls = {}` would keep its capacity)
  std::vector<ModEvent> bwd_events = BackwardEvents(timeline, rows, fwd, bwd_ops, side.backward_names);
  ModTree& bwd = side.trees[1];
  if (!bwd_events.empty()) {
    bwd_events.insert(bwd_events.end(), pseudo.begin(), pseudo.end());
    bwd.Build(bwd_events);
  }
  AssignOps(p, std::move(ops), fwd, bwd);
  AssignGroupsAndStacks(side, call_tree);
}

// ---- Matching and order (docs/reference/operators.md#module-matching, #modulecompare-sheet) -----

struct ModRef {
  uint32_t tree = 0;
  uint32_t node = kNoMod;
  bool present() const { return node != kNoMod; }
};
struct ModPair {
  ModRef base, comparison;
};

// docs/reference/operators.md#module-matching: per tree (forward, backward), breadth-first from the
// root pair, children matched by module path; one-sided pairs continue into their subtree against
// nothing.
std::vector<ModPair> MatchModules(const SideModules (&sides)[2], MatchAlgorithm algorithm, GapOrder gap_order) {
  std::vector<ModPair> pairs;
  KeyMap keys;
  static const std::vector<uint32_t> kNoChildren;
  for (uint32_t t = 0; t < 2; ++t) {
    const ModTree& bt = sides[0].trees[t];
    const ModTree& ct = sides[1].trees[t];
    std::deque<ModPair> queue{ModPair{{t, 0}, {t, 0}}};
    while (!queue.empty()) {
      const ModPair cur = queue.front();
      queue.pop_front();
      const std::vector<uint32_t>& bch = cur.base.present() ? bt.nodes[cur.base.node].children : kNoChildren;
      const std::vector<uint32_t>& cch = cur.comparison.present() ? ct.nodes[cur.comparison.node].children : kNoChildren;
      if (bch.empty() && cch.empty()) continue;
      std::vector<MatchKey> bk, ck;
      for (uint32_t c : bch) bk.push_back(keys.Key(bt.nodes[c].path));
      for (uint32_t c : cch) ck.push_back(keys.Key(ct.nodes[c].path));
      for (const MatchPair& mp : MatchSequences(algorithm, bk, ck, gap_order)) {
        ModPair np{{t, mp.base == kNoIndex ? kNoMod : bch[mp.base]},
                   {t, mp.comparison == kNoIndex ? kNoMod : cch[mp.comparison]}};
        pairs.push_back(np);
        queue.push_back(np);
      }
    }
  }
  return pairs;
}

// ModuleCompare order (docs/reference/operators.md#modulecompare-sheet): base-present pairs by base
// start; comparison-only pairs by comparison start, each inserted before the first base-matched
// pair whose comparison module starts later.
std::vector<ModPair> DisplayOrder(const std::vector<ModPair>& pairs, const SideModules (&sides)[2]) {
  auto start_of = [&](int side, ModRef r) { return sides[side].trees[r.tree].nodes[r.node].start; };
  std::vector<ModPair> with_base, without_base;
  for (const ModPair& mp : pairs) (mp.base.present() ? with_base : without_base).push_back(mp);
  std::stable_sort(with_base.begin(), with_base.end(),
                   [&](const ModPair& a, const ModPair& b) { return start_of(0, a.base) < start_of(0, b.base); });
  std::stable_sort(without_base.begin(), without_base.end(), [&](const ModPair& a, const ModPair& b) {
    return start_of(1, a.comparison) < start_of(1, b.comparison);
  });
  std::vector<ModPair> ordered;
  ordered.reserve(pairs.size());
  size_t wi = 0;
  for (const ModPair& mp : with_base) {
    while (mp.comparison.present() && wi < without_base.size() &&
           start_of(1, without_base[wi].comparison) < start_of(1, mp.comparison))
      ordered.push_back(without_base[wi++]);
    ordered.push_back(mp);
  }
  while (wi < without_base.size()) ordered.push_back(without_base[wi++]);
  return ordered;
}

// ---- ModuleCompare (docs/reference/operators.md#modulecompare-sheet) ----------------------------

std::string StripModulePrefix(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  constexpr std::string_view kPrefix = "nn.Module:";
  size_t i = 0;
  while (i < path.size()) {
    if (path.substr(i, kPrefix.size()) == kPrefix) {
      i += kPrefix.size();
      continue;
    }
    out.push_back(path[i++]);
  }
  return out;
}

ModuleSide MakeModuleSide(const SideModules& s, ModRef r) {
  ModuleSide m;
  if (!r.present()) return m;
  const ModNode& n = s.trees[r.tree].nodes[r.node];
  m.present = true;
  m.module_class = ModuleClassOf(n.name);
  m.level = n.level;
  m.path = n.path;
  m.display_name = StripModulePrefix(n.path);
  m.start_ns = n.start;
  m.self = SumGroups(s, n.self_groups);
  m.total = SumGroups(s, n.total_groups);
  m.call_stack = n.call_stack;
  return m;
}

// The module's top-level ops with their own kernels (the kernel groups they received).
std::vector<ModuleOpSide> TopOpSides(const SideModules& s, ModRef r) {
  std::vector<ModuleOpSide> out;
  if (!r.present()) return out;
  const ModNode& n = s.trees[r.tree].nodes[r.node];
  const Profile& p = *s.p;
  for (size_t i = 0; i < n.top_ops.size(); ++i) {
    ModuleOpSide o;
    o.present = true;
    o.slice = n.top_ops[i];
    const Slice& sl = p.slices[o.slice];
    o.name = p.str(sl.name);
    for (uint32_t g : n.top_op_groups[i])
      for (SliceId k : s.flows.groups[g].kernels) {
        o.kernels.push_back(k);
        o.device.AddE5(p.slices[k].dur_e5());
      }
    const std::optional<Arg> cs = p.FindArg(sl, ArgKey::kCallStack);
    o.call_stack = cs ? p.ArgText(sl, ArgKey::kCallStack) : std::string_view("N/A");
    out.push_back(std::move(o));
  }
  return out;
}

// A TOTAL row's values and the module's top-level ops of both sides matched by op name.
ModuleBlock MakeModuleBlock(const ModPair& mp, const SideModules (&sides)[2], const ReferencePolicy& policy,
                            KeyMap& op_keys) {
  ModuleBlock b;
  b.base = MakeModuleSide(sides[0], mp.base);
  b.comparison = MakeModuleSide(sides[1], mp.comparison);
  b.total_diff_us = DiffUs(b.base.total, b.comparison.total, policy);
  b.self_diff_us = DiffUs(b.base.self, b.comparison.self, policy);
  b.total_ratio = DiffRatio(b.base.total.Us(policy), b.comparison.total.Us(policy), policy);
  std::vector<ModuleOpSide> bops = TopOpSides(sides[0], mp.base);
  std::vector<ModuleOpSide> cops = TopOpSides(sides[1], mp.comparison);
  std::vector<MatchKey> bk, ck;
  for (const ModuleOpSide& o : bops) bk.push_back(op_keys.Key(o.name));
  for (const ModuleOpSide& o : cops) ck.push_back(op_keys.Key(o.name));
  for (const MatchPair& m : MatchSequences(policy.matching, bk, ck, policy.gap_order)) {
    ModuleOpRow r;
    if (m.base != kNoIndex) r.base = std::move(bops[m.base]);
    if (m.comparison != kNoIndex) r.comparison = std::move(cops[m.comparison]);
    const double base_us = r.base.device.Us(policy), comparison_us = r.comparison.device.Us(policy);
    r.self_diff_us = DiffUs(r.base.device, r.comparison.device, policy);
    r.ratio = DiffRatio(base_us, comparison_us, policy);
    b.ops.push_back(std::move(r));
  }
  return b;
}

void AddModuleBlocks(const std::vector<ModPair>& ordered, const SideModules (&sides)[2],
                     const ReferencePolicy& policy, OperatorComparison& out) {
  KeyMap op_keys;
  for (const ModPair& mp : ordered) out.module_blocks.push_back(MakeModuleBlock(mp, sides, policy, op_keys));
  // The reference's hint when every row's last cell (Comparison Call Stack) is "N/A"
  // (docs/reference/operators.md#modulecompare-sheet); an operator row whose self diff is not
  // positive has a blank cell there.
  bool any_stack = false;
  for (const ModuleBlock& b : out.module_blocks) {
    any_stack = any_stack || b.comparison.call_stack != "N/A";
    for (const ModuleOpRow& r : b.ops) any_stack = any_stack || r.self_diff_us <= 0 || r.comparison.call_stack != "N/A";
  }
  if (!out.module_blocks.empty() && !any_stack)
    out.warnings.push_back("If you want to see the operator's call stack, you must enable with_stack switch.");
}

// ---- ModuleCompareStatistic (docs/reference/operators.md#modulecomparestatistic-sheet) ----------

// One side of a statistic block: its instances' times (each instance's µs sums converted to ms) and,
// per top-level op name, the ops' own-kernel times and their kernels per kernel name.
ModuleStatSide AggregateInstances(const SideModules& s, const std::vector<ModRef>& refs,
                                  FirstSeenGroups<ModuleStatOpSide>& ops) {
  ModuleStatSide ms;
  ms.count = static_cast<int64_t>(refs.size());
  if (!refs.empty()) ms.call_stack = s.trees[refs[0].tree].nodes[refs[0].node].call_stack;
  for (ModRef r : refs) {
    const ModNode& n = s.trees[r.tree].nodes[r.node];
    ms.self.AddUsSumAsMs(SumGroups(s, n.self_groups));
    ms.total.AddUsSumAsMs(SumGroups(s, n.total_groups));
    for (const ModuleOpSide& o : TopOpSides(s, r)) {
      ModuleStatOpSide& os = ops[o.name];
      os.device.AddUsSumAsMs(o.device);
      ++os.count;
      for (SliceId k : o.kernels) {
        std::string_view kn = s.p->str(s.p->slices[k].name);
        auto kit = std::find_if(os.kernels.begin(), os.kernels.end(),
                                [&](const ModuleStatKernel& x) { return x.name == kn; });
        if (kit == os.kernels.end()) kit = os.kernels.insert(os.kernels.end(), ModuleStatKernel{kn, {}});
        kit->total.AddE5(s.p->slices[k].dur_e5());
      }
    }
  }
  return ms;
}

ModuleStatBlock MakeStatBlock(std::string_view path, const std::vector<ModRef>& base_refs,
                              const std::vector<ModRef>& comparison_refs, const SideModules (&sides)[2],
                              const ReferencePolicy& policy) {
  ModuleStatBlock blk;
  blk.path = std::string(path);
  blk.display_name = StripModulePrefix(path);
  blk.module_class = ModuleClassOf(path);
  blk.level = static_cast<int64_t>(std::count(path.begin(), path.end(), '/'));
  FirstSeenGroups<ModuleStatOpSide> base_ops, comparison_ops;
  blk.base = AggregateInstances(sides[0], base_refs, base_ops);
  blk.comparison = AggregateInstances(sides[1], comparison_refs, comparison_ops);
  blk.total_diff_ms = DiffMs(blk.base.total, blk.comparison.total, policy);
  blk.self_diff_ms = DiffMs(blk.base.self, blk.comparison.self, policy);
  blk.total_ratio = DiffRatio(blk.base.total.Ms(policy), blk.comparison.total.Ms(policy), policy);
  for (const MatchPair& j : OrderedJoin(base_ops.keys(), comparison_ops.keys())) {
    ModuleStatOpRow r;
    if (j.base != kNoIndex) {
      r.name = base_ops.keys()[j.base];
      r.base = std::move(base_ops.values()[j.base]);
    }
    if (j.comparison != kNoIndex) {
      r.name = comparison_ops.keys()[j.comparison];
      r.comparison = std::move(comparison_ops.values()[j.comparison]);
    }
    r.self_diff_ms = DiffMs(r.base.device, r.comparison.device, policy);
    r.ratio = DiffRatio(r.base.device.Ms(policy), r.comparison.device.Ms(policy), policy);
    blk.ops.push_back(std::move(r));
  }
  return blk;
}

// Instances grouped by path per side (in ModuleCompare order), joined base paths first.
void AddModuleStats(const std::vector<ModPair>& ordered, const SideModules (&sides)[2],
                    const ReferencePolicy& policy, OperatorComparison& out) {
  FirstSeenGroups<std::vector<ModRef>> base_groups, comparison_groups;
  for (const ModPair& mp : ordered) {
    if (mp.base.present()) base_groups[sides[0].trees[mp.base.tree].nodes[mp.base.node].path].push_back(mp.base);
    if (mp.comparison.present())
      comparison_groups[sides[1].trees[mp.comparison.tree].nodes[mp.comparison.node].path].push_back(mp.comparison);
  }
  static const std::vector<ModRef> kNoInstances;
  for (const MatchPair& j : OrderedJoin(base_groups.keys(), comparison_groups.keys())) {
    const bool has_base = j.base != kNoIndex, has_comparison = j.comparison != kNoIndex;
    out.module_stats.push_back(
        MakeStatBlock(has_base ? base_groups.keys()[j.base] : comparison_groups.keys()[j.comparison],
                      has_base ? base_groups.values()[j.base] : kNoInstances,
                      has_comparison ? comparison_groups.values()[j.comparison] : kNoInstances, sides, policy));
  }
}

}  // namespace

bool CompareModules(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                    const OperatorCompareOptions& options, OperatorComparison& out) {
  SideModules sides[2];
  BuildSide(base, policy, options, options.base_step, sides[0]);
  BuildSide(comparison, policy, options, options.comparison_step, sides[1]);
  if (!sides[0].has_modules || !sides[1].has_modules) return false;

  const MatchAlgorithm algorithm = options.disable_details ? MatchAlgorithm::kNone : policy.matching;
  const std::vector<ModPair> pairs = MatchModules(sides, algorithm, policy.gap_order);
  if (pairs.empty()) return false;

  out.kind = OperatorCompareKind::kModule;
  for (const ModPair& mp : pairs) {
    out.base_items += mp.base.present() ? 1 : 0;
    out.comparison_items += mp.comparison.present() ? 1 : 0;
    out.matched += (mp.base.present() && mp.comparison.present()) ? 1 : 0;
  }
  const std::vector<ModPair> ordered = DisplayOrder(pairs, sides);
  if (out.details) AddModuleBlocks(ordered, sides, policy, out);
  AddModuleStats(ordered, sides, policy, out);
  return true;
}

}  // namespace profdiff::analysis
