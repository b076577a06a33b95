// CommunicationCompare rows (docs/reference/communication.md). Durations are the slices' exact
// durations (1e-5 ns); each list is a DualSum, so the policy picks the exact sum or the reference's
// float sum in order.
#include "profdiff/analysis/communication/communication_compare.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/base/ascii.h"

namespace profdiff::analysis {
namespace {

void AddTo(CommStats& s, int64_t dur_e5) {
  s.max_e5 = s.present ? std::max(s.max_e5, dur_e5) : dur_e5;
  s.min_e5 = s.present ? std::min(s.min_e5, dur_e5) : dur_e5;
  s.present = true;
  s.total.AddE5(dur_e5);
}

void Display(CommStats& s, const ReferencePolicy& policy) {
  if (!s.present) return;
  s.total_us = s.total.Us(policy);
  s.avg_us = s.total_us / static_cast<double>(s.total.count);
  s.max_us = E5ToUs(s.max_e5);
  s.min_us = E5ToUs(s.min_e5);
}

// A side's op names in first-seen order, filled op by op.
class Collector {
 public:
  explicit Collector(const Profile& p) : p_(p) {}
  // Adds an op; returns its entry, or nullptr when its name does not normalise.
  CommOpStats* AddOp(const Slice& op) {
    std::optional<std::string> name = NormaliseCommOpName(p_.str(op.name));
    if (!name) return nullptr;
    auto [it, fresh] = index_.try_emplace(*name, out_.size());
    if (fresh) out_.push_back(CommOpStats{*name, {}, {}});
    CommOpStats& e = out_[it->second];
    AddTo(e.ops, op.dur_e5());
    return &e;
  }
  void AddTask(CommOpStats& op, const Slice& task) {
    const std::string_view name = p_.str(task.name);
    auto it = std::find_if(op.tasks.begin(), op.tasks.end(), [&](const CommTaskStats& t) { return t.name == name; });
    if (it == op.tasks.end()) it = op.tasks.insert(op.tasks.end(), CommTaskStats{std::string(name), {}});
    AddTo(it->stats, task.dur_e5());
    ++tasks_;
  }
  std::vector<CommOpStats> Take(const ReferencePolicy& policy) {
    for (CommOpStats& e : out_) {
      Display(e.ops, policy);
      for (CommTaskStats& t : e.tasks) Display(t.stats, policy);
    }
    return std::move(out_);
  }
  int64_t tasks() const { return tasks_; }

 private:
  const Profile& p_;
  std::vector<CommOpStats> out_;
  std::unordered_map<std::string, size_t> index_;
  int64_t tasks_ = 0;
};

// Ops and tasks sorted by start (stable); one forward cursor gives each op the tasks starting within
// [op start, op end]; tasks starting before an op are passed for good.
void AssignTasks(const Profile& p, std::vector<SliceId> ops, std::vector<SliceId> tasks, Collector& c) {
  auto by_start = [&](SliceId a, SliceId b) { return p.slices[a].ts_ns < p.slices[b].ts_ns; };
  std::stable_sort(ops.begin(), ops.end(), by_start);
  std::stable_sort(tasks.begin(), tasks.end(), by_start);
  size_t cursor = 0;
  for (SliceId id : ops) {
    const Slice& op = p.slices[id];
    CommOpStats* entry = c.AddOp(op);
    if (entry == nullptr) continue;
    while (cursor < tasks.size() && p.slices[tasks[cursor]].ts_ns < op.ts_ns) ++cursor;
    while (cursor < tasks.size() && p.slices[tasks[cursor]].ts_ns <= op.end_ns()) c.AddTask(*entry, p.slices[tasks[cursor++]]);
  }
}

std::string ValidSteps(const Timeline& t) {
  std::string out;
  for (int64_t id : t.step_ids) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return out;
}

// The slices kept by the step filter (start within the step's [start, end]).
std::vector<SliceId> InStep(const Profile& p, const std::vector<SliceId>& ids, const Step* step) {
  if (step == nullptr) return ids;
  std::vector<SliceId> out;
  for (SliceId id : ids)
    if (p.slices[id].ts_ns >= step->start_ns && p.slices[id].ts_ns <= step->end_ns) out.push_back(id);
  return out;
}

void CollectNpu(const Timeline& t, const Step* step, const ReferencePolicy& policy, Collector& c) {
  const Profile& p = t.p();
  std::vector<SliceId> all_ops, all_tasks;
  for (const HcclGroup& g : t.hccl.groups) {
    std::vector<SliceId> tasks;
    for (const HcclPlane& plane : g.planes) tasks.insert(tasks.end(), plane.tasks.begin(), plane.tasks.end());
    if (policy.comm_tasks_single_cursor) {
      all_ops.insert(all_ops.end(), g.ops.begin(), g.ops.end());
      all_tasks.insert(all_tasks.end(), tasks.begin(), tasks.end());
    } else {
      AssignTasks(p, InStep(p, g.ops, step), InStep(p, tasks, step), c);
    }
  }
  if (policy.comm_tasks_single_cursor) AssignTasks(p, InStep(p, all_ops, step), InStep(p, all_tasks, step), c);
}

void CollectGpu(const Timeline& t, const Step* step, Collector& c) {
  const Profile& p = t.p();
  // The names that are an NCCL kernel's, from the string pool (its distinct strings are far fewer
  // than the slices): when there is none, as on a single-device run, no slice is read.
  std::vector<uint8_t> nccl(p.strings.size(), 0);
  bool any = false;
  for (StringId id = 0; id < p.strings.size(); ++id)
    if (ascii::StartsWithLower(p.strings.Get(id), "nccl")) nccl[id] = 1, any = true;
  std::vector<SliceId> ops;
  for (SliceId id = 0; any && id < p.slices.size(); ++id) {
    const Slice& s = p.slices[id];
    if (s.kind == SliceKind::kKernel && nccl[s.name]) ops.push_back(id);
  }
  AssignTasks(p, InStep(p, ops, step), {}, c);
}

// Pairs the task lists of one op name: by order in compat, by name by default.
void AppendTaskRows(const CommOpStats* b, const CommOpStats* c, const ReferencePolicy& policy, std::vector<CommRow>& rows) {
  std::vector<const CommTaskStats*> rest;
  if (c != nullptr)
    for (const CommTaskStats& t : c->tasks) rest.push_back(&t);
  if (b != nullptr) {
    for (const CommTaskStats& t : b->tasks) {
      CommRow row;
      row.is_task = true;
      row.base_name = t.name;
      row.base = t.stats;
      auto it = rest.begin();
      if (!policy.comm_tasks_paired_by_order)
        it = std::find_if(rest.begin(), rest.end(), [&](const CommTaskStats* x) { return x->name == t.name; });
      if (it != rest.end()) {
        row.comparison_name = (*it)->name;
        row.comparison = (*it)->stats;
        rest.erase(it);
      }
      rows.push_back(std::move(row));
    }
  }
  for (const CommTaskStats* t : rest) {
    CommRow row;
    row.is_task = true;
    row.comparison_name = t->name;
    row.comparison = t->stats;
    rows.push_back(std::move(row));
  }
}

void AppendOp(const CommOpStats* b, const CommOpStats* c, const ReferencePolicy& policy, std::vector<CommRow>& rows) {
  CommRow row;
  if (b != nullptr) row.base_name = b->name, row.base = b->ops;
  if (c != nullptr) row.comparison_name = c->name, row.comparison = c->ops;
  row.diff_us = DiffMs(row.base.total_us, row.comparison.total_us, policy);  // round(c - b, 2) or exact
  row.diff_ratio = DiffRatio(row.base.total_us, row.comparison.total_us, policy);
  rows.push_back(std::move(row));
  if ((b != nullptr && !b->tasks.empty()) || (c != nullptr && !c->tasks.empty())) AppendTaskRows(b, c, policy, rows);
}

}  // namespace

std::optional<std::string> NormaliseCommOpName(std::string_view name) {
  const std::string lower = ascii::ToLower(name);
  const size_t first = lower.find('_');
  if (first == std::string::npos) return std::nullopt;
  if (lower.substr(0, first) != "hcom") return lower.substr(0, first);
  const size_t second = lower.find('_', first + 1);
  return lower.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
}

std::vector<CommOpStats> CollectCommunication(const Timeline& t, std::optional<int64_t> step,
                                              const ReferencePolicy& policy, std::string* warning) {
  const Step* range = nullptr;
  if (step) {
    range = t.FindStep(*step);
    if (range == nullptr) {
      if (warning != nullptr) *warning = fmt::format("Invalid step id: {}, please choose from the valid steps: {}", *step, ValidSteps(t));
      return {};
    }
  }
  Collector c(t.p());
  if (t.hccl.groups.empty()) {
    CollectGpu(t, range, c);
  } else {
    CollectNpu(t, range, policy, c);
  }
  return c.Take(policy);
}

std::vector<CommRow> BuildCommRows(const std::vector<CommOpStats>& base, const std::vector<CommOpStats>& comparison,
                                   const ReferencePolicy& policy) {
  std::unordered_map<std::string_view, const CommOpStats*> comp_by_name;
  for (const CommOpStats& c : comparison) comp_by_name.emplace(c.name, &c);
  std::vector<CommRow> rows;
  for (const CommOpStats& b : base) {
    auto it = comp_by_name.find(b.name);
    const CommOpStats* c = it == comp_by_name.end() ? nullptr : it->second;
    if (c != nullptr) comp_by_name.erase(it);
    AppendOp(&b, c, policy, rows);
  }
  for (const CommOpStats& c : comparison)
    if (comp_by_name.contains(c.name)) AppendOp(nullptr, &c, policy, rows);
  return rows;
}

CommunicationComparison CompareCommunication(const Timeline& base, const Timeline& comparison,
                                             const ReferencePolicy& policy,
                                             const CommunicationCompareOptions& options) {
  CommunicationComparison out;
  out.policy = policy;
  auto side = [&](const Timeline& t, std::optional<int64_t> step, CommSideSummary& summary, std::string_view label) {
    std::string warning;
    std::vector<CommOpStats> ops = CollectCommunication(t, step, policy, &warning);
    for (const CommOpStats& o : ops) {
      summary.ops += o.ops.total.count;
      for (const CommTaskStats& task : o.tasks) summary.tasks += task.stats.total.count;
    }
    summary.has_data = summary.ops > 0;
    if (!warning.empty()) out.warnings.push_back(fmt::format("communication comparison, {} side: {}", label, warning));
    return ops;
  };
  std::vector<CommOpStats> b = side(base, options.base_step, out.base, "base");
  std::vector<CommOpStats> c = side(comparison, options.comparison_step, out.comparison, "comparison");
  out.rows = BuildCommRows(b, c, policy);
  return out;
}

}  // namespace profdiff::analysis
