// DumpProfile: everything a load builds, as text, for tests that expect two ways of loading the same
// input to build the same model (the parallel trace reader, the DB page reader).
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>

#include "profdiff/model/profile.h"

namespace profdiff::testing {

// Everything a load builds, as text (string ids as numbers: the pools must agree id for id).
inline std::string DumpProfile(const Profile& p) {
  std::string o;
  for (size_t i = 0; i < p.strings.size(); ++i) o += fmt::format("S{} {}\n", i, p.strings.Get(static_cast<StringId>(i)));
  for (const Process& x : p.processes) o += fmt::format("P {} {} {} {} {}\n", x.pid_text, x.pid, x.name, x.labels, x.sort_index);
  for (const Track& t : p.tracks) o += fmt::format("T {} {} {} {} {}\n", t.process, t.tid_text, t.tid, t.name, t.sort_index);
  for (StringId c : p.slice_cats) o += fmt::format("C {}\n", c);
  for (const Slice& s : p.slices) {
    o += fmt::format("X {} {} {} {}:{} {} {} {} {} {} {} {}\n", s.ts_ns, int64_t{s.dur_ns}, s.name, s.cat_index,
                     p.Cat(s), uint32_t{s.track}, s.args_begin, unsigned{s.args_count}, unsigned{s.arg_inline},
                     static_cast<int>(s.kind), s.phase, int64_t{s.dur_sub_e5});
  }
  p.python_functions.ForEach([&](const PythonFunction& f) {
    o += fmt::format("PF {} {} {} {}\n", f.ts_ns, f.dur_ns, f.name, uint32_t{f.track});
  });
  o += fmt::format("PB {}\n", fmt::join(p.python_functions.slice_before, " "));
  for (const Arg& a : p.args) {
    o += fmt::format("A {} {} {} {}\n", static_cast<int>(a.key), static_cast<int>(a.type), a.text(), a.i());
  }
  for (const FlowEvent& f : p.flows) {
    o += fmt::format("F {} {} {} {} {} {}\n", f.ts_ns, f.id, f.id_is_string, static_cast<char>(f.phase),
                     static_cast<TrackId>(f.track), f.cat);
  }
  for (const CounterEvent& c : p.counters) o += fmt::format("C {} {} {} {} {}\n", c.ts_ns, c.track, c.name, c.series, c.value);
  for (const MemoryEvent& m : p.memory_events) {
    o += fmt::format("M {} {} {} {} {} {} {} {}\n", m.ts_ns, m.track, m.bytes, m.addr, m.total_reserved,
                     m.total_allocated, m.device_id, m.device_type);
  }
  for (const auto& [id, us] : p.fine_dur_us) o += fmt::format("D {} {}\n", id, us);
  for (size_t i = 0; i < kDiagCount; ++i) {
    const Diagnostics::Entry& e = p.diagnostics.entry(static_cast<DiagId>(i));
    if (e.count == 0) continue;
    o += fmt::format("G {} {}\n", GetDiagInfo(static_cast<DiagId>(i)).name, e.count);
    for (const auto& ex : e.examples) o += fmt::format("  {} | {}\n", ex.where.ToString(), ex.detail);
  }
  const ProfileMeta& m = p.meta;
  o += fmt::format("meta {} {} {} {} {} {} {}\n", static_cast<int>(m.format), static_cast<int>(m.device),
                   m.schema_version, m.base_time_ns, m.rank, fmt::join(m.device_names, ","), m.input_bytes);
  return o;
}

// The Ascend side tables and the DB export's facts, as text (DumpProfile leaves them out).
inline std::string DumpNpuTables(const Profile& p) {
  std::string o;
  const NpuTables& n = p.npu;
  for (const KernelDetailRow& r : n.kernel_details.rows) {
    o += fmt::format("K {} {} {} {} {} {} {} {} {} {} {}\n", r.type, r.name, r.input_shapes,
                     r.accelerator_core, r.start_ns, r.dur_ns, r.step_id, r.aic_mac_time_ns,
                     r.aic_mte2_time_ns, r.aiv_time_ns, r.line);
  }
  for (const OpStatisticRow& r : n.op_statistic) {
    o += fmt::format("O {} {} {} {} {} {} {} {}\n", r.op_type, r.core_type, r.count, r.total_ns, r.avg_ns, r.max_ns,
                     r.min_ns, r.float_total_us);
  }
  for (const OperatorMemoryRow& r : n.operator_memory) {
    o += fmt::format("OM {} {} {} {} {} {} {}\n", r.name, r.size_kb, r.allocation_ns, r.release_ns, r.duration_ns,
                     r.device_type, r.line);
  }
  o += fmt::format("MR {} {}\n", n.memory_record.rows, n.memory_record.peak_reserved_mb);
  for (const DbComputeTask& t : n.db.compute_tasks)
    o += fmt::format("CT {} {} {} {} {}\n", t.slice, t.connection_id, t.global_task_id, StringId{t.rts_type},
                     StringId{t.pmu_cube});
  for (const DbLaunch& l : n.db.op_launches) o += fmt::format("L {} {}\n", l.connection_id(), l.op);
  for (const DbLaunchLink& l : n.db.launch_links) o += fmt::format("LL {} {} {}\n", l.connection_id, l.start, l.end);
  o += fmt::format("LN {}\n", n.db.launch_ids_without_end);
  for (const auto& [track, group] : n.db.plane_groups) o += fmt::format("PG {} {}\n", track, group);
  for (const DbTableUse& t : n.db.tables) o += fmt::format("T {} {} {}\n", t.name, t.present, t.rows);
  for (const DbStep& s : n.db.steps) o += fmt::format("ST {} {} {} {}\n", s.id, s.start_ns, s.end_ns, s.peak_reserved_mb);
  o += fmt::format("db {} {} {}\n", n.db.present, n.db.has_pmu, n.db.schema_version);
  return o;
}

}  // namespace profdiff::testing
