#include "profdiff/model/profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

namespace profdiff {
namespace {

// `s` as a whole decimal integer; nullopt when it is not one.
std::optional<int64_t> WholeInt(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}
int64_t ParseInt(std::string_view s) { return WholeInt(s).value_or(kNoNumber); }

}  // namespace

ArgKey ArgKeyFromName(std::string_view name) {
  for (size_t i = 0; i < kArgKeyNames.size(); ++i) {
    if (kArgKeyNames[i] == name) return static_cast<ArgKey>(i);
  }
  return ArgKey::kCount;
}

Arg Arg::Int(ArgKey k, int64_t v, StringPool& strings) {
  if (v >= kInlineMin && v <= kInlineMax) return Arg(k, ArgType::kInt, v);
  return Arg(k, ArgType::kIntText, strings.Intern(std::to_string(v)));
}

std::optional<Arg> Profile::FindArg(const Slice& s, ArgKey key) const {
  if (s.arg_inline != 0) {
    const Arg a = s.InlineArg();
    return a.key == key ? std::optional<Arg>(a) : std::nullopt;
  }
  for (uint32_t i = s.args_begin; i < s.args_begin + s.args_count; ++i) {
    if (args[i].key == key) return args[i];
  }
  return std::nullopt;
}

int64_t Profile::TaskStream(const Slice& s) const {
  if (IsDbTask(s)) return tracks[s.track].tid;
  return ArgInt(s, ArgKey::kStreamId, kNoNumber);
}

std::optional<size_t> Profile::DbComputeRow(SliceId id) const {
  if (!IsDbTask(slices[id])) return std::nullopt;
  const std::vector<DbComputeTask>& rows = npu.db.compute_tasks;  // in slice order
  auto it = std::lower_bound(rows.begin(), rows.end(), id,
                             [](const DbComputeTask& t, SliceId v) { return t.slice < v; });
  if (it == rows.end() || it->slice != id) return std::nullopt;
  return static_cast<size_t>(it - rows.begin());
}

std::string_view Profile::TaskType(SliceId id) const {
  const Slice& s = slices[id];
  if (!IsDbTask(s)) return ArgText(s, ArgKey::kTaskType);
  if (const std::optional<size_t> row = DbComputeRow(id)) return str(npu.kernel_details.rows[*row].accelerator_core);
  return str(s.name);
}

double Profile::WrittenDurUs(SliceId id) const {
  auto it = std::lower_bound(fine_dur_us.begin(), fine_dur_us.end(), id,
                             [](const std::pair<SliceId, double>& e, SliceId v) { return e.first < v; });
  if (it != fine_dur_us.end() && it->first == id) return it->second;
  return static_cast<double>(slices[id].dur_e5()) / 1e8;
}

int64_t Profile::ArgInt(const Slice& s, ArgKey key, int64_t fallback) const {
  const std::optional<Arg> a = FindArg(s, key);
  if (!a) return fallback;
  switch (a->type) {
    case ArgType::kInt:
    case ArgType::kBool:
      return a->i();
    case ArgType::kIntText:  // written by Arg::Int: always an integer (INT64_MIN included)
      return WholeInt(str(a->text())).value_or(fallback);
    case ArgType::kString: {
      int64_t v = ParseInt(str(a->text()));
      return v == kNoNumber ? fallback : v;
    }
    default:
      return fallback;
  }
}

std::string_view Profile::ArgText(const Slice& s, ArgKey key) const {
  const std::optional<Arg> a = FindArg(s, key);
  if (!a || a->type == ArgType::kIntText) return {};  // an integer arg has no text
  return str(a->text());
}

void Profile::Clear() {
  meta = ProfileMeta{};
  strings.Clear();
  processes.clear();
  tracks.clear();
  slices.clear();
  python_functions.Clear();
  args.clear();
  flows.clear();
  counters.clear();
  memory_events.clear();
  npu = NpuTables{};
  diagnostics = Diagnostics{};
  fine_dur_us.clear();
  slice_cats = {kEmptyString};
  track_index_.clear();
  process_index_.clear();
  cat_index_.clear();
  last_cat_ = {kEmptyString, 0};
}

uint32_t Profile::GetOrCreateProcess(std::string_view pid_text) {
  StringId id = strings.Intern(pid_text);
  auto it = process_index_.find(id);
  if (it != process_index_.end()) return it->second;
  Process p;
  p.pid_text = id;
  p.pid = ParseInt(pid_text);
  auto index = static_cast<uint32_t>(processes.size());
  processes.push_back(p);
  process_index_.emplace(id, index);
  return index;
}

TrackId Profile::GetOrCreateTrack(std::string_view pid_text, std::string_view tid_text) {
  StringId pid_id = strings.Intern(pid_text);
  StringId tid_id = strings.Intern(tid_text);
  auto it = track_index_.find({pid_id, tid_id});
  if (it != track_index_.end()) return it->second;
  if (tracks.size() >= max_tracks_) {
    diagnostics.Add(DiagId::track_limit, {meta.trace_file, 0, -1}, fmt::format("pid {} tid {}", pid_text, tid_text));
    return static_cast<TrackId>(tracks.size() - 1);
  }
  Track t;
  t.process = GetOrCreateProcess(pid_text);
  t.tid_text = tid_id;
  t.tid = ParseInt(tid_text);
  auto index = static_cast<TrackId>(tracks.size());
  tracks.push_back(t);
  track_index_.emplace(std::make_pair(pid_id, tid_id), index);
  return index;
}

uint16_t Profile::CatIndex(StringId cat) {
  if (cat == last_cat_.first) return last_cat_.second;
  if (cat == kEmptyString) return 0;
  auto it = cat_index_.find(cat);
  if (it == cat_index_.end()) {
    if (slice_cats.size() >= max_cats_) {
      diagnostics.Add(DiagId::category_limit, {meta.trace_file, 0, -1}, fmt::format("cat {}", str(cat)));
      return static_cast<uint16_t>(slice_cats.size() - 1);
    }
    it = cat_index_.emplace(cat, static_cast<uint16_t>(slice_cats.size())).first;
    slice_cats.push_back(cat);
  }
  last_cat_ = {cat, it->second};
  return it->second;
}

namespace {
size_t PutUleb(uint8_t* out, uint64_t v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7) out[n++] = static_cast<uint8_t>(v | 0x80);
  out[n++] = static_cast<uint8_t>(v);
  return n;
}
}  // namespace

void PythonFunctionTable::Add(const PythonFunction& f) {
  if (blocks_.empty() || kBlockBytes - blocks_.back().size() < kMaxRowBytes) {
    blocks_.emplace_back();
    blocks_.back().reserve(kBlockBytes);
  }
  uint8_t row[kMaxRowBytes];
  const auto delta = static_cast<uint64_t>(f.ts_ns) - static_cast<uint64_t>(last_ts_ns_);  // wraps
  const auto sdelta = static_cast<int64_t>(delta);
  size_t n = PutUleb(row, (delta << 1) ^ static_cast<uint64_t>(sdelta >> 63));
  n += PutUleb(row + n, static_cast<uint64_t>(f.dur_ns));
  n += PutUleb(row + n, f.track);
  n += PutUleb(row + n, f.name);
  blocks_.back().insert(blocks_.back().end(), row, row + n);
  last_ts_ns_ = f.ts_ns;
  ++rows_;
}

size_t PythonFunctionTable::encoded_bytes() const {
  size_t n = 0;
  for (const std::vector<uint8_t>& b : blocks_) n += b.size();
  return n;
}

void PythonFunctionTable::Clear() {
  blocks_.clear();
  slice_before.clear();
  rows_ = 0;
  last_ts_ns_ = 0;
}

std::vector<uint64_t> Profile::CountByKind() const {
  std::vector<uint64_t> counts(static_cast<size_t>(SliceKind::kCount), 0);
  for (const Slice& s : slices) ++counts[static_cast<size_t>(s.kind)];
  counts[static_cast<size_t>(SliceKind::kPythonFunction)] += python_functions.size();
  return counts;
}

bool Profile::HasPythonFunctions() const {
  if (!python_functions.empty()) return true;
  for (const Slice& s : slices)
    if (s.kind == SliceKind::kPythonFunction) return true;
  return false;
}

int64_t StepIdFromName(std::string_view name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  size_t pos = name.find(kPrefix);
  if (pos == std::string_view::npos) return kNoNumber;
  std::string_view rest = name.substr(pos + kPrefix.size());
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  if (n == 0) return kNoNumber;
  return ParseInt(rest.substr(0, n));
}

}  // namespace profdiff

namespace profdiff {

double SqlValue::AsDouble() const {
  if (kind == Kind::kInt) return static_cast<double>(i);
  if (kind == Kind::kReal) return r;
  return std::numeric_limits<double>::quiet_NaN();
}

int SqlRows::Column(std::string_view name) const {
  for (size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == name) return static_cast<int>(c);
  return -1;
}

}  // namespace profdiff
