// LoadClusterDbTables (ascend_db_cluster.h).
#include "ascend_db_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/base/time.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

// The connection ids the reference joins to CANN_API: its communication ops' and compute tasks'.
std::vector<int64_t> LaunchIds(const Profile& p) {
  std::vector<int64_t> ids;
  for (const DbComputeTask& t : p.npu.db.compute_tasks)
    if (t.connection_id != kNoNumber) ids.push_back(t.connection_id);
  for (const Slice& s : p.slices) {
    if (s.kind != SliceKind::kHcclOp) continue;
    const int64_t id = p.ArgInt(s, ArgKey::kConnectionId);
    if (id != kNoNumber) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

Status LoadCannStarts(const db::Database& db, Profile& p) {
  if (!db.HasTable("CANN_API")) return Status::Ok();
  std::vector<int64_t> ids = LaunchIds(p);
  auto& starts = p.npu.db.cann_api_starts;
  PD_ASSIGN_OR_RETURN(db::Statement st, db.Scan("CANN_API", {"startNs", "connectionId"}, db::OnlyRows{1, ids}));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const db::IntCell start = st.Int(0), id = st.Int(1);
    if (!start.ok() || !id.ok() || !std::binary_search(ids.begin(), ids.end(), id.value)) continue;
    starts.emplace_back(id.value, start.value);
  }
  std::stable_sort(starts.begin(), starts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  p.npu.db.has_cann_api = true;
  return Status::Ok();
}

// analysis.db's StepTraceTime columns as step_trace_time.csv names them.
std::string StepTraceColumnName(std::string_view db_column) {
  static const std::map<std::string_view, std::string_view> kNames = {
      {"computing", "Computing"},
      {"communication_not_overlapped", "Communication(Not Overlapped)"},
      {"overlapped", "Overlapped"},
      {"communication", "Communication"},
      {"free", "Free"},
      {"stage", "Stage"},
      {"bubble", "Bubble"},
      {"communication_not_overlapped_and_exclude_receive", "Communication(Not Overlapped and Exclude Receive)"},
      {"preparing", "Preparing"}};
  auto it = kNames.find(db_column);
  return std::string(it == kNames.end() ? db_column : it->second);
}

// A REAL cell in µs: the ns of its shortest decimal text (what the reference's Python float prints),
// rounded half to even as step_trace_time.csv's cells are.
int64_t NsOfMicros(double us) {
  if (!std::isfinite(us)) return kAbsentNs;
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, us);
  auto ns = ParseMicrosToNs(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
  return ns.ok() ? *ns : kAbsentNs;
}

StatusOr<std::vector<std::string>> ColumnNames(const db::Database& adb, std::string_view table) {
  PD_ASSIGN_OR_RETURN(db::Statement st,
                      adb.Prepare(table, fmt::format("SELECT name FROM pragma_table_info('{}')", table)));
  std::vector<std::string> names;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    if (auto t = st.Text(0)) names.emplace_back(*t);
  }
  return names;
}

Status LoadStepTraceTime(const db::Database& adb, Profile& p) {
  if (!adb.HasTable("StepTraceTime")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(std::vector<std::string> names, ColumnNames(adb, "StepTraceTime"));
  auto step_col = std::find(names.begin(), names.end(), "step");
  if (step_col == names.end()) return Status::Ok();
  names.erase(step_col);
  std::vector<std::string_view> wanted = {"step"};
  for (const std::string& n : names) wanted.push_back(n);
  PD_ASSIGN_OR_RETURN(db::Statement st, adb.Scan("StepTraceTime", wanted, {}, 0));
  StepTraceTable t;
  for (const std::string& n : names) t.columns.push_back(StepTraceColumnName(n));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const db::IntCell step = st.Int(0);
    t.steps.push_back(step.ok() ? std::to_string(step.value) : std::string(st.Text(0).value_or("")));
    std::vector<int64_t>& ns = t.values_ns.emplace_back();
    std::vector<double>& us = t.values_us_float.emplace_back();
    for (size_t c = 0; c < names.size(); ++c) {
      const std::optional<double> v = st.Real(static_cast<int>(c + 1));
      us.push_back(v.value_or(nan));
      ns.push_back(v ? NsOfMicros(*v) : kAbsentNs);
    }
  }
  t.present = true;
  p.npu.step_trace = std::move(t);
  return Status::Ok();
}

Status LoadAnalysisDb(const std::string& db_file, Profile& p) {
  const std::string path = (fs::path(db_file).parent_path() / "analysis.db").string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Status::Ok();
  PD_ASSIGN_OR_RETURN(db::Database adb, db::Database::Open(path, /*read_pages=*/false, 0));
  p.meta.files.push_back(path);
  PD_RETURN_IF_ERROR(LoadStepTraceTime(adb, p));
  if (adb.HasTable("CommAnalyzerTime")) {
    PD_ASSIGN_OR_RETURN(p.npu.db.comm_analyzer_time_rows, adb.CountRows("CommAnalyzerTime"));
  }
  p.npu.db.has_analysis_db = true;
  return Status::Ok();
}

}  // namespace

Status LoadClusterDbTables(const db::Database& db, Profile& profile) {
  PD_RETURN_IF_ERROR(LoadCannStarts(db, profile));
  return LoadAnalysisDb(db.file(), profile);
}

}  // namespace profdiff
