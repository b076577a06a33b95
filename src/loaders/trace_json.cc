#include "profdiff/loaders/trace_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "profdiff/base/ascii.h"
#include "profdiff/base/time.h"
#include "profdiff/io/json_reader.h"
#include "trace_json_parallel.h"
#include "trace_parser.h"

namespace profdiff {
namespace trace_json_internal {
namespace {

// ---- small helpers ---------------------------------------------------------------------------------

bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool ParseUint64(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool ParseDouble(std::string_view s, double* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Whether `t` is a number's text (a JSON number, or one in a string as Ascend writes 'ts'; spaces
// around it allowed): a time MicrosToNs refuses for all that is out of range, not "not a number".
bool IsNumberText(std::string_view t) {
  const auto digit = [&](size_t i) { return i < t.size() && t[i] >= '0' && t[i] <= '9'; };
  size_t i = t.find_first_not_of(' ');
  if (i == std::string_view::npos) return false;
  if (t[i] == '-' || t[i] == '+') ++i;
  size_t digits = 0;
  for (; digit(i); ++i) ++digits;
  if (i < t.size() && t[i] == '.')
    for (++i; digit(i); ++i) ++digits;
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    if (!digit(i)) return false;
    while (digit(i)) ++i;
  }
  return t.find_first_not_of(' ', i) == std::string_view::npos;
}

// µs text -> ns, exactly. Fast path for plain "digits[.ddd]" (what profilers write); everything else
// (more fraction digits, exponents, spaces, huge values) goes through ParseScaledDecimal.
bool MicrosToNs(std::string_view s, int64_t* out, bool* rounded) {
  *rounded = false;
  size_t i = 0;
  const size_t n = s.size();
  bool neg = false;
  if (i < n && s[i] == '-') {
    neg = true;
    ++i;
  }
  size_t int_begin = i;
  int64_t v = 0;
  // Up to 16 integer digits (Ascend writes µs since the epoch: 16 digits) while v * 1000 + 999 fits.
  while (i < n && s[i] >= '0' && s[i] <= '9' && i - int_begin < 16) v = v * 10 + (s[i++] - '0');
  size_t int_digits = i - int_begin;
  constexpr int64_t kMaxFastMicros = (INT64_MAX - 999) / 1000;
  bool fast = int_digits > 0 && (i == n || s[i] == '.') && v <= kMaxFastMicros;
  int64_t frac = 0;
  if (fast && i < n) {
    ++i;
    size_t fb = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - fb < 3) frac = frac * 10 + (s[i++] - '0');
    size_t fd = i - fb;
    if (fd == 0 || i != n) {
      fast = false;
    } else {
      for (size_t k = fd; k < 3; ++k) frac *= 10;
    }
  }
  if (fast) {
    int64_t ns = v * 1000 + frac;
    *out = neg ? -ns : ns;
    return true;
  }
  StatusOr<ExactDecimal> d = ParseScaledDecimal(s, 3);
  if (!d.ok()) return false;
  *out = d->value;
  *rounded = d->rounded;
  return true;
}

// Digits of a µs text that make whole ns.
constexpr int kMicrosToNsDigits = static_cast<int>(TimeUnit::kMicroseconds);

// The part of a µs duration text below `dur_ns` (its value rounded to ns) in Slice::dur_sub_e5
// units of 1e-5 ns. 0 when the text does not fit int64 at that scale. `*beyond_e5` tells whether
// the text has digits below 1e-5 ns too (Profile::fine_dur_us keeps those).
int32_t SubNsRemainderE5(std::string_view micros_text, int64_t dur_ns, bool* beyond_e5) {
  *beyond_e5 = false;
  if (dur_ns > INT64_MAX / Slice::kE5PerNs) return 0;
  StatusOr<ExactDecimal> fine =
      ParseScaledDecimal(micros_text, kMicrosToNsDigits + Slice::kE5Digits);
  if (!fine.ok()) return 0;
  *beyond_e5 = fine->rounded;
  const int64_t rem = fine->value - dur_ns * Slice::kE5PerNs;
  constexpr int64_t kHalfNs = Slice::kE5PerNs / 2;  // rounding to ns leaves at most half a ns
  return rem >= -kHalfNs && rem <= kHalfNs ? static_cast<int32_t>(rem) : 0;
}

// Input text quoted in a diagnostic's detail is cut to this many bytes (a phase to fewer).
constexpr size_t kDetailTextBytes = 40;
constexpr size_t kDetailPhaseBytes = 10;

std::string_view Clip(std::string_view text, size_t max_bytes = kDetailTextBytes) {
  return text.substr(0, max_bytes);
}

// Catalogued arg names bucketed by length (fast lookup on the hot path).
class ArgKeyTable {
 public:
  ArgKeyTable() {
    for (size_t i = 0; i < kArgKeyNames.size(); ++i) {
      size_t len = kArgKeyNames[i].size();
      if (len < by_len_.size()) by_len_[len].push_back(static_cast<ArgKey>(i));
    }
  }
  ArgKey Find(std::string_view name) const {
    if (name.size() >= by_len_.size()) return ArgKey::kCount;
    if (name.empty()) return ArgKey::kCount;
    for (ArgKey k : by_len_[name.size()]) {
      const std::string_view n = Name(k);
      // First and last bytes first: most candidates of the same length differ there.
      if (n.front() == name.front() && n.back() == name.back() &&
          std::memcmp(n.data(), name.data(), name.size()) == 0)
        return k;
    }
    return ArgKey::kCount;
  }

 private:
  std::array<std::vector<ArgKey>, 40> by_len_;
};

const ArgKeyTable& ArgKeys() {
  static const ArgKeyTable table;
  return table;
}

Slice SliceAt(const EventHead& h, Profile& p) {
  Slice s;
  s.ts_ns = h.ts_ns;
  s.name = h.name;
  s.cat_index = p.CatIndex(h.cat);
  s.track = h.track;
  s.phase = h.ph;
  return s;
}

bool IsAscendProcessName(std::string_view n) {
  return n == "Ascend Hardware" || n == "HCCL" || n == "Overlap Analysis" || n == "CANN" || n == "AscendCL";
}

enum class AscendRole : uint8_t { kNone, kHardware, kHccl, kOverlap };

AscendRole RoleOf(std::string_view process_name) {
  if (process_name == "Ascend Hardware") return AscendRole::kHardware;
  if (process_name == "HCCL" || process_name == "Communication") return AscendRole::kHccl;
  if (process_name == "Overlap Analysis") return AscendRole::kOverlap;
  return AscendRole::kNone;
}

SliceKind KindFromCategory(std::string_view cat) {
  struct Entry {
    std::string_view lower;
    SliceKind kind;
  };
  static constexpr Entry kTable[] = {
      {"cpu_op", SliceKind::kCpuOp},
      {"operator", SliceKind::kCpuOp},
      {"user_annotation", SliceKind::kUserAnnotation},
      {"python_function", SliceKind::kPythonFunction},
      {"cuda_runtime", SliceKind::kCudaRuntime},
      {"runtime", SliceKind::kCudaRuntime},
      {"cuda_driver", SliceKind::kCudaDriver},
      {"kernel", SliceKind::kKernel},
      {"gpu_memcpy", SliceKind::kGpuMemcpy},
      {"memcpy", SliceKind::kGpuMemcpy},
      {"gpu_memset", SliceKind::kGpuMemset},
      {"memset", SliceKind::kGpuMemset},
      {"gpu_user_annotation", SliceKind::kGpuAnnotation},
      {"enqueue", SliceKind::kEnqueue},
      {"dequeue", SliceKind::kDequeue},
  };
  for (const Entry& e : kTable) {
    if (ascii::EqualsLower(cat, e.lower)) return e.kind;
  }
  return SliceKind::kOther;
}

// Categories of the reference's "torch op" class (docs/reference/inputs.md#kineto-trace), for
// step-marker detection.
bool IsTorchOpCategoryKind(SliceKind k) {
  return k == SliceKind::kCpuOp || k == SliceKind::kUserAnnotation || k == SliceKind::kCudaRuntime;
}

}  // namespace

void TraceParser::CountNewFlows() {
  for (; flows_counted_ < p_.flows.size(); ++flows_counted_) flow_counts_.Add(p_.flows[flows_counted_]);
}

void FlowCounts::Add(const FlowEvent& f) {
  if (2 * (ends_.size() + 1) > slots_.size()) Grow();
  size_t i = Hash(f.id, f.id_is_string) & mask_;
  for (; slots_[i] != 0; i = (i + 1) & mask_) {
    Ends& e = ends_[slots_[i] - 1];
    if (e.id == f.id && e.is_string == f.id_is_string) return Count(e, static_cast<char>(f.phase));
  }
  ends_.push_back({f.id, f.id_is_string, 0, 0});
  slots_[i] = static_cast<uint32_t>(ends_.size());
  Count(ends_.back(), static_cast<char>(f.phase));
}

size_t FlowCounts::Hash(uint64_t id, bool is_string) {  // splitmix64's finaliser
  uint64_t z = id + (is_string ? 0x9e3779b97f4a7c15ULL : 0);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<size_t>(z ^ (z >> 31));
}

void FlowCounts::Grow() {
  slots_.assign(std::max<size_t>(1024, slots_.size() * 2), 0);
  mask_ = slots_.size() - 1;
  for (size_t n = 0; n < ends_.size(); ++n) {
    size_t i = Hash(ends_[n].id, ends_[n].is_string) & mask_;
    while (slots_[i] != 0) i = (i + 1) & mask_;
    slots_[i] = static_cast<uint32_t>(n + 1);
  }
}

// ---- the parser (the class: trace_parser.h) ------------------------------------------------------

void TraceParser::Diag(DiagId id, uint64_t offset, std::string_view detail) {
  if (p_.diagnostics.count(id) < Diagnostics::kMaxExamples) {
    p_.diagnostics.Add(id, loc_.Locate(offset), std::string(detail));
  } else {
    p_.diagnostics.Add(id, SourceLocation{}, {});
  }
}

bool TraceParser::ReadValue(JsonCursor& cur, Value* v) {
  switch (cur.Peek()) {
    case JsonType::kString:
      v->kind = ValueKind::kString;
      return cur.ReadString(&v->text);
    case JsonType::kNumber:
      v->kind = ValueKind::kNumber;
      return cur.ReadNumber(&v->text);
    default:
      v->kind = ValueKind::kOther;
      return cur.SkipValue(&v->text);
  }
}

static_assert(static_cast<size_t>(ArgKey::kCount) <= 64, "RepeatedArg keeps the catalogued keys met in 64 bits");

// A key that `args` repeats: its first value counts, as for the event's own keys, with a diagnostic.
bool TraceParser::RepeatedArg(std::string_view key, ArgKey k, JsonType t, uint64_t* seen) {
  bool repeated = false;
  if (k != ArgKey::kCount) {
    const uint64_t bit = uint64_t{1} << static_cast<unsigned>(k);
    repeated = (*seen & bit) != 0;
    *seen |= bit;
  } else if (key == "name") {
    repeated = ev_.meta_name.kind != ValueKind::kAbsent;
  } else if (key == "labels") {
    repeated = ev_.meta_labels.kind != ValueKind::kAbsent;
  } else if (key == "sort_index") {
    repeated = ev_.meta_sort_index.kind != ValueKind::kAbsent;
  } else if (t == JsonType::kNumber) {  // a counter's series: few per event
    for (const NumericArg& a : ev_.numeric_args) repeated = repeated || a.key == key;
  }
  if (repeated && ev_.duplicate_key.empty()) {
    ev_.duplicate_key = key;
    ev_.duplicate_in_args = true;
  }
  return repeated;
}

bool TraceParser::ReadArgs(JsonCursor& cur) {
  if (cur.Peek() != JsonType::kObject) return cur.SkipValue();
  if (!cur.BeginObject()) return false;
  std::string_view key;
  const ArgKeyTable& table = ArgKeys();
  uint64_t seen = 0;  // catalogued keys met
  while (cur.NextMember(&key)) {
    ArgKey k = table.Find(key);
    JsonType t = cur.Peek();
    if (RepeatedArg(key, k, t, &seen)) {
      if (!cur.SkipValue()) return false;
      continue;
    }
    if (k != ArgKey::kCount) {
      PendingArg a{k, ArgType::kNull, 0, {}};
      switch (t) {
        case JsonType::kString:
          a.type = ArgType::kString;
          if (!cur.ReadString(&a.text)) return false;
          break;
        case JsonType::kNumber:
          if (!cur.ReadNumber(&a.text)) return false;
          a.type = ParseInt64(a.text, &a.i) ? ArgType::kInt : ArgType::kDouble;
          ev_.numeric_args.push_back({key, a.text});
          break;
        case JsonType::kBool: {
          bool b = false;
          if (!cur.ReadBool(&b)) return false;
          a.type = ArgType::kBool;
          a.i = b ? 1 : 0;
          break;
        }
        case JsonType::kNull:
          if (!cur.ReadNull()) return false;
          a.type = ArgType::kNull;
          break;
        default:
          a.type = ArgType::kJson;
          if (!cur.SkipValue(&a.text)) return false;
          break;
      }
      ev_.args.push_back(a);
      continue;
    }
    // Not catalogued: only metadata fields and counter values are looked at.
    if (key == "name") {
      if (!ReadValue(cur, &ev_.meta_name)) return false;
    } else if (key == "labels") {
      if (!ReadValue(cur, &ev_.meta_labels)) return false;
    } else if (key == "sort_index") {
      if (!ReadValue(cur, &ev_.meta_sort_index)) return false;
    } else if (t == JsonType::kNumber) {
      std::string_view raw;
      if (!cur.ReadNumber(&raw)) return false;
      ev_.numeric_args.push_back({key, raw});
    } else {
      if (!cur.SkipValue()) return false;
    }
  }
  return cur.ok();
}

bool TraceParser::ReadEvent(JsonCursor& cur, bool whole_text) {
  if (!cur.BeginObject()) return false;
  std::string_view key;
  while (cur.NextMember(&key)) {
    Value* slot = nullptr;
    // Keys compared byte-wise by length (no memcmp calls on the hot path).
    const char* k = key.data();
    switch (key.size()) {
      case 2:
        if (k[0] == 'p' && k[1] == 'h') slot = &ev_.ph;
        else if (k[0] == 't' && k[1] == 's') slot = &ev_.ts;
        else if (k[0] == 'i' && k[1] == 'd') slot = &ev_.id;
        break;
      case 3:
        if (k[1] == 'i' && k[2] == 'd') {
          if (k[0] == 'p') slot = &ev_.pid;
          else if (k[0] == 't') slot = &ev_.tid;
        } else if (k[0] == 'c' && k[1] == 'a' && k[2] == 't') {
          slot = &ev_.cat;
        } else if (k[0] == 'd' && k[1] == 'u' && k[2] == 'r') {
          slot = &ev_.dur;
        }
        break;
      case 4:
        if (k[0] == 'n' && k[1] == 'a' && k[2] == 'm' && k[3] == 'e') {
          slot = &ev_.name;
        } else if (k[0] == 'a' && k[1] == 'r' && k[2] == 'g' && k[3] == 's') {
          if (ev_.args_seen) {  // a second "args": the first counts
            if (ev_.duplicate_key.empty()) ev_.duplicate_key = key;
            if (!cur.SkipValue()) return false;
            continue;
          }
          ev_.args_seen = true;
          if (!ReadArgs(cur)) return false;
          continue;
        }
        break;
      default:
        break;
    }
    // A repeated key: the first value counts, as at the top level (a stream reads the first
    // "traceEvents"), with a diagnostic.
    if (slot != nullptr && slot->kind != ValueKind::kAbsent) {
      if (ev_.duplicate_key.empty()) ev_.duplicate_key = key;
      slot = nullptr;
    }
    if (slot != nullptr) {
      if (!ReadValue(cur, slot)) return false;
    } else if (!cur.SkipValue()) {
      return false;
    }
  }
  return cur.ok() && (!whole_text || cur.AtEnd());
}

void TraceParser::Parse(std::string_view text, uint64_t offset) {
  JsonCursor cur(text, &scratch_);
  ++elements_;
  if (elements_ == 1) first_bad_offset_ = offset;  // used only when no element is an event
  if (cur.Peek() != JsonType::kObject) {
    DiagLazy(DiagId::json_event_not_object, offset, [&] { return fmt::format("\"{}\"", JsonSnippet(text, 0)); });
    return;
  }
  ev_.Clear();
  if (!ReadEvent(cur)) {
    const char* why = cur.ok() ? "unexpected text after the event" : cur.error();
    size_t at = cur.ok() ? cur.pos() : cur.error_pos();
    Diag(DiagId::json_event_malformed, offset + at,
         fmt::format("{} near \"{}\"", why, JsonSnippet(text, at)));
    return;
  }
  if (cur.invalid_utf8_strings() > 0) Diag(DiagId::invalid_utf8, offset, {});
  if (!ev_.duplicate_key.empty()) DiagDuplicateKey(offset);
  ++events_;
  Commit(offset);
}

void TraceParser::DiagDuplicateKey(uint64_t offset) {
  const std::string_view key = Clip(ev_.duplicate_key);
  Diag(DiagId::duplicate_key, offset,
       ev_.duplicate_in_args ? fmt::format("\"args\".\"{}\"", key) : fmt::format("\"{}\"", key));
}

bool TraceParser::TryParseInPlace(std::string_view rest, uint64_t offset, size_t* len) {
  // `rest` is the whole read buffer (megabytes): reserve scratch for ordinary events only; an event
  // with more escaped text than that takes the whole-element path.
  JsonCursor cur(rest, &scratch_, 64 << 10);
  if (cur.Peek() != JsonType::kObject) return false;
  ev_.Clear();
  if (!ReadEvent(cur, /*whole_text=*/false)) return false;
  ++elements_;
  if (elements_ == 1) first_bad_offset_ = offset;
  if (cur.invalid_utf8_strings() > 0) Diag(DiagId::invalid_utf8, offset, {});
  if (!ev_.duplicate_key.empty()) DiagDuplicateKey(offset);
  ++events_;
  Commit(offset);
  *len = cur.pos();
  return true;
}

bool TraceParser::TimeValue(const Value& v, int64_t* ns, bool* rounded) const {
  if (v.kind != ValueKind::kNumber && v.kind != ValueKind::kString) return false;
  return MicrosToNs(v.text, ns, rounded);
}

TrackId TraceParser::TrackFor(uint64_t) {
  std::string_view pid = ev_.pid.kind == ValueKind::kAbsent ? std::string_view("0") : ev_.pid.text;
  std::string_view tid = ev_.tid.kind == ValueKind::kAbsent ? std::string_view("0") : ev_.tid.text;
  if (have_last_track_ && pid == last_pid_ && tid == last_tid_) return last_track_;
  last_track_ = p_.GetOrCreateTrack(pid, tid);
  last_pid_.assign(pid);
  last_tid_.assign(tid);
  have_last_track_ = true;
  return last_track_;
}

SliceKind TraceParser::KindFor(StringId cat, StringId name) {
  if (cat >= cat_kind_.size()) cat_kind_.resize(std::max<size_t>(p_.strings.size(), cat + 1), -1);
  if (cat_kind_[cat] < 0) cat_kind_[cat] = static_cast<int8_t>(KindFromCategory(p_.str(cat)));
  auto kind = static_cast<SliceKind>(cat_kind_[cat]);
  if (IsTorchOpCategoryKind(kind)) {
    if (name >= name_is_step_.size()) name_is_step_.resize(std::max<size_t>(p_.strings.size(), name + 1), -1);
    if (name_is_step_[name] < 0) {
      name_is_step_[name] = p_.str(name).find("ProfilerStep#") != std::string_view::npos ? 1 : 0;
    }
    if (name_is_step_[name] == 1) kind = SliceKind::kStepMarker;
  }
  return kind;
}

void TraceParser::CommitArgs(Slice& s) {
  s.args_begin = static_cast<uint32_t>(p_.args.size());
  size_t count = std::min<size_t>(ev_.args.size(), Slice::kMaxArgs);
  for (size_t i = 0; i < count; ++i) {
    const PendingArg& pa = ev_.args[i];
    switch (pa.type) {
      case ArgType::kString:
      case ArgType::kJson:
      case ArgType::kDouble:
        p_.args.push_back(Arg::Text(pa.key, pa.type, p_.strings.Intern(pa.text)));
        break;
      case ArgType::kInt:
        p_.args.push_back(Arg::Int(pa.key, pa.i, p_.strings));
        break;
      case ArgType::kBool:
        p_.args.push_back(Arg::Bool(pa.key, pa.i != 0));
        break;
      default:
        p_.args.push_back(Arg::Null(pa.key));
        break;
    }
  }
  s.args_count = static_cast<uint8_t>(count);
}

// Dispatches on the phase, the way a trace-event parser handles one event: the fields every phase
// shares (phase, name, category, time, track) are read once here, the rest by the phase's handler.
void TraceParser::Commit(uint64_t offset) {
  const char ph = ev_.ph.kind == ValueKind::kString && ev_.ph.text.size() == 1 ? ev_.ph.text[0] : 0;
  EventHead h;
  h.ph = ph;
  h.cat = InternText(ev_.cat);
  h.name = InternText(ev_.name);
  if (ev_.ts.kind == ValueKind::kString) ++ascend_signals_;
  if (ph == 'M') {
    CommitMeta(h.name, offset);
    return;
  }
  if (!ReadTimestamp(offset, &h.ts_ns)) return;
  h.track = TrackFor(offset);
  switch (ph) {
    case 'X':
    case 'B':
      CommitSlice(h, offset);
      return;
    case 'E':
      CommitEnd(h, offset);
      return;
    case 'i':
    case 'I':
    case 'R':
      CommitInstant(h);
      return;
    case 's':
    case 'f':
    case 't':
      CommitFlow(h, offset);
      return;
    case 'C':
      CommitCounter(h);
      return;
    default:
      CommitUnknown(h, offset);
      return;
  }
}

StringId TraceParser::InternText(const Value& v) {
  return v.kind == ValueKind::kString || v.kind == ValueKind::kNumber ? p_.strings.Intern(v.text)
                                                                      : kEmptyString;
}

bool TraceParser::ReadTimestamp(uint64_t offset, int64_t* ts_ns) {
  bool rounded = false;
  if (!TimeValue(ev_.ts, ts_ns, &rounded)) {
    const bool number = ev_.ts.kind != ValueKind::kAbsent && IsNumberText(ev_.ts.text);
    Diag(number ? DiagId::time_out_of_range : DiagId::bad_timestamp, offset,
         ev_.ts.kind == ValueKind::kAbsent ? std::string("no 'ts'")
                                           : fmt::format("ts = {}", Clip(ev_.ts.text)));
    return false;
  }
  if (!TimeInRange(*ts_ns)) {
    Diag(DiagId::time_out_of_range, offset, fmt::format("ts = {}", Clip(ev_.ts.text)));
    return false;
  }
  if (rounded) {
    DiagLazy(DiagId::sub_ns_rounded, offset,
             [&] { return fmt::format("ts = {}", Clip(ev_.ts.text)); });
  }
  return true;
}

// 'M': process and thread names, labels and sort indexes.
void TraceParser::CommitMeta(StringId name, uint64_t offset) {
  const std::string_view what = p_.str(name);
  if (what == "process_name" || what == "process_labels" || what == "process_sort_index") {
    std::string_view pid =
        ev_.pid.kind == ValueKind::kAbsent ? std::string_view("0") : ev_.pid.text;
    const uint32_t index = p_.GetOrCreateProcess(pid);
    Process& proc = p_.processes[index];
    if (what == "process_name" && ev_.meta_name.kind != ValueKind::kAbsent) {
      proc.name = p_.strings.Intern(ev_.meta_name.text);
      MarkMeta(process_meta_, index, kSetName);
      if (IsAscendProcessName(ev_.meta_name.text)) ++ascend_signals_;
    } else if (what == "process_labels" && ev_.meta_labels.kind != ValueKind::kAbsent) {
      proc.labels = p_.strings.Intern(ev_.meta_labels.text);
      MarkMeta(process_meta_, index, kSetLabels);
    } else if (what == "process_sort_index") {
      int64_t v;
      if (ParseInt64(ev_.meta_sort_index.text, &v)) {
        proc.sort_index = v;
        MarkMeta(process_meta_, index, kSetSortIndex);
      }
    }
  } else if (what == "thread_name" || what == "thread_sort_index") {
    const TrackId index = TrackFor(offset);
    Track& t = p_.tracks[index];
    if (what == "thread_name" && ev_.meta_name.kind != ValueKind::kAbsent) {
      t.name = p_.strings.Intern(ev_.meta_name.text);
      MarkMeta(track_meta_, index, kSetName);
    } else if (what == "thread_sort_index") {
      int64_t v;
      if (ParseInt64(ev_.meta_sort_index.text, &v)) {
        t.sort_index = v;
        MarkMeta(track_meta_, index, kSetSortIndex);
      }
    }
  }
}

void TraceParser::MarkMeta(std::vector<uint8_t>& bits, size_t index, MetaBit bit) {
  if (!block_mode_) return;  // only a fragment's metadata is replayed (Absorb)
  if (index >= bits.size()) bits.resize(index + 1, 0);
  bits[index] |= bit;
}

// 'X' (complete) and 'B' (begin; its 'E' sets the duration later).
void TraceParser::CommitSlice(const EventHead& h, uint64_t offset) {
  Slice s = SliceAt(h, p_);
  if (h.ph == 'X') CommitDuration(s, offset);
  s.kind = KindFor(h.cat, h.name);
  CommitArgs(s);
  if (h.ph == 'B') {
    if (h.track >= open_b_.size()) open_b_.resize(h.track + 1);
    open_b_[h.track].push_back(static_cast<SliceId>(p_.slices.size()));
  }
  p_.slices.push_back(s);
}

// An 'X' event's 'dur'. Absent: 0. Bad or negative: 0 with a diagnostic.
void TraceParser::CommitDuration(Slice& s, uint64_t offset) {
  if (ev_.dur.kind == ValueKind::kAbsent) return;
  auto detail = [&] { return fmt::format("dur = {}", Clip(ev_.dur.text)); };
  int64_t dur = 0;
  bool rounded = false;
  if (!TimeValue(ev_.dur, &dur, &rounded)) {
    DiagLazy(IsNumberText(ev_.dur.text) ? DiagId::duration_too_long : DiagId::bad_duration, offset, detail);
  } else if (dur < 0) {
    DiagLazy(DiagId::negative_duration, offset, detail);
  } else if (!SpanInRange(s.ts_ns, dur)) {
    DiagLazy(DiagId::time_out_of_range, offset, detail);
  } else if (dur > Slice::kMaxDurNs) {
    DiagLazy(DiagId::duration_too_long, offset, detail);
  } else {
    s.dur_ns = dur;
    if (rounded) {
      DiagLazy(DiagId::sub_ns_rounded, offset, detail);
      bool beyond_e5 = false;
      s.dur_sub_e5 = SubNsRemainderE5(ev_.dur.text, dur, &beyond_e5);
      double us = 0;
      if (beyond_e5 && ParseDouble(ev_.dur.text, &us))
        p_.fine_dur_us.emplace_back(static_cast<SliceId>(p_.slices.size()), us);
    }
  }
}

// 'E': closes the innermost open 'B' of its track.
void TraceParser::CommitEnd(const EventHead& h, uint64_t offset) {
  if (block_mode_ && (h.track >= open_b_.size() || open_b_[h.track].empty())) {
    deferred_ends_.push_back({h.track, h.ts_ns, loc_.Locate(offset)});  // maybe an earlier block's 'B'
    return;
  }
  switch (CloseOpenBegin(h.track, h.ts_ns)) {
    case EndOutcome::kNoOpenBegin:
      Diag(DiagId::begin_end_unpaired, offset, kEndWithoutBegin);
      return;
    case EndOutcome::kBeforeBegin:
      Diag(DiagId::negative_duration, offset, kEndBeforeBegin);
      return;
    case EndOutcome::kTooLong:
      Diag(DiagId::duration_too_long, offset, kEndTooLate);
      return;
    case EndOutcome::kClosed:
      return;
  }
}

TraceParser::EndOutcome TraceParser::CloseOpenBegin(TrackId track, int64_t ts_ns) {
  if (track >= open_b_.size() || open_b_[track].empty()) return EndOutcome::kNoOpenBegin;
  Slice& b = p_.slices[open_b_[track].back()];
  open_b_[track].pop_back();
  b.phase = 'X';
  const int64_t dur = ts_ns - b.ts_ns;
  if (dur < 0) return EndOutcome::kBeforeBegin;
  if (dur > Slice::kMaxDurNs) return EndOutcome::kTooLong;
  b.dur_ns = dur;
  return EndOutcome::kClosed;
}

// 'i'/'I'/'R': an instant slice, or a memory event for PyTorch's "[memory]" instants.
void TraceParser::CommitInstant(const EventHead& h) {
  if (ascii::EqualsLower(p_.str(h.name), "[memory]")) {
    CommitMemory(h);
    return;
  }
  PushInstant(h, h.ph);
}

void TraceParser::CommitMemory(const EventHead& h) {
  MemoryEvent m;
  m.ts_ns = h.ts_ns;
  m.track = h.track;
  for (const PendingArg& a : ev_.args) {
    int64_t v = a.i;
    bool is_int = a.type == ArgType::kInt || (a.type == ArgType::kString && ParseInt64(a.text, &v));
    if (!is_int) continue;
    switch (a.key) {
      case ArgKey::kBytes: m.bytes = v; break;
      case ArgKey::kAddr: m.addr = static_cast<uint64_t>(v); break;
      case ArgKey::kTotalReserved: m.total_reserved = v; break;
      case ArgKey::kTotalAllocated: m.total_allocated = v; break;
      case ArgKey::kDeviceId: m.device_id = v; break;
      case ArgKey::kDeviceType: m.device_type = v; break;
      default: break;
    }
  }
  p_.memory_events.push_back(m);
}

// 's'/'f'/'t': flow events; paired by the consumers (analysis/timeline), only counted here.
void TraceParser::CommitFlow(const EventHead& h, uint64_t offset) {
  FlowEvent f;
  f.ts_ns = h.ts_ns;
  f.phase = h.ph;
  f.track = h.track;
  f.cat = h.cat;
  if (h.cat != kEmptyString && ascii::EqualsLower(p_.str(h.cat), "async_npu")) ++ascend_signals_;
  if (!ReadFlowId(f)) {
    Diag(DiagId::flow_missing_id, offset, {});
    return;
  }
  p_.flows.push_back(f);
}

// An integer id (unsigned, or negative) is kept as a number; a string, or a number that is not an
// integer, by its interned text. False when the event has no usable 'id'.
bool TraceParser::ReadFlowId(FlowEvent& f) {
  const std::string_view text = ev_.id.text;
  if (ev_.id.kind == ValueKind::kNumber) {
    uint64_t u = 0;
    int64_t i = 0;
    if (ParseUint64(text, &u)) {
      f.id = u;
      return true;
    }
    if (ParseInt64(text, &i)) {
      f.id = static_cast<uint64_t>(i);
      return true;
    }
  } else if (ev_.id.kind != ValueKind::kString) {
    return false;
  }
  f.id = p_.strings.Intern(text);
  f.id_is_string = true;
  return true;
}

// 'C': one counter row per numeric arg.
void TraceParser::CommitCounter(const EventHead& h) {
  for (const NumericArg& a : ev_.numeric_args) {
    CounterEvent c;
    c.ts_ns = h.ts_ns;
    c.track = h.track;
    c.name = h.name;
    c.series = p_.strings.Intern(a.key);
    if (!ParseDouble(a.raw, &c.value)) continue;
    p_.counters.push_back(c);
  }
}

// Any other phase (or none): kept as an instant, with a diagnostic.
void TraceParser::CommitUnknown(const EventHead& h, uint64_t offset) {
  Diag(DiagId::unknown_phase, offset,
       fmt::format("ph = \"{}\"", ev_.ph.kind == ValueKind::kAbsent
                                      ? std::string_view("(none)")
                                      : Clip(ev_.ph.text, kDetailPhaseBytes)));
  PushInstant(h, h.ph == 0 ? '?' : h.ph);
}

void TraceParser::PushInstant(const EventHead& h, char phase) {
  Slice s = SliceAt(h, p_);
  s.phase = phase;
  s.kind = SliceKind::kInstant;
  CommitArgs(s);
  p_.slices.push_back(s);
}

void TraceParser::Finalize(const std::string& file) {
  // Unclosed 'B' events.
  for (const auto& stack : open_b_) {
    for (SliceId id : stack) {
      (void)id;
      p_.diagnostics.Add(DiagId::begin_end_unpaired, SourceLocation{file, 0, -1},
                         "'B' without its 'E'; kept with dur 0");
    }
  }
  // Ascend lanes: resolved after the pass because metadata may come anywhere.
  std::vector<AscendRole> roles(p_.processes.size(), AscendRole::kNone);
  bool any_role = false;
  for (size_t i = 0; i < p_.processes.size(); ++i) {
    roles[i] = RoleOf(p_.str(p_.processes[i].name));
    any_role |= roles[i] != AscendRole::kNone;
  }
  if (any_role) {
    std::vector<int8_t> track_comm(p_.tracks.size(), 0);
    for (size_t t = 0; t < p_.tracks.size(); ++t) {
      track_comm[t] = p_.str(p_.tracks[t].name).find("Communication") != std::string_view::npos ? 1 : 0;
    }
    for (Slice& s : p_.slices) {
      if (s.phase != 'X') continue;
      switch (roles[p_.tracks[s.track].process]) {
        case AscendRole::kHardware: s.kind = SliceKind::kNpuTask; break;
        case AscendRole::kHccl: s.kind = track_comm[s.track] ? SliceKind::kHcclOp : SliceKind::kHcclTask; break;
        case AscendRole::kOverlap: s.kind = SliceKind::kOverlap; break;
        case AscendRole::kNone: break;
      }
    }
  }
  // Flow pairing check, reported in order of the first appearance of each id (deterministic on
  // every standard library, unlike a hash map's iteration order).
  CountNewFlows();
  for (const FlowCounts::Ends& e : flow_counts_.ends()) {
    if ((e.starts == 0) == (e.finishes == 0)) continue;
    if (p_.diagnostics.count(DiagId::flow_unpaired) < Diagnostics::kMaxExamples) {
      p_.diagnostics.Add(DiagId::flow_unpaired, SourceLocation{file, 0, -1},
                         fmt::format("flow id {} has {} start(s) and {} end(s)",
                                     e.is_string ? std::string(p_.str(static_cast<StringId>(e.id)))
                                                 : std::to_string(e.id),
                                     e.starts, e.finishes));
    } else {
      p_.diagnostics.Add(DiagId::flow_unpaired, SourceLocation{}, {});
    }
  }
}

}  // namespace trace_json_internal

namespace {

using trace_json_internal::EventLocator;
using trace_json_internal::ParallelReadOptions;
using trace_json_internal::ReadArrayInParallel;
using trace_json_internal::ParseInt64;
using trace_json_internal::TraceParser;

// Top-level members of a Kineto object -> profile.meta.
void ReadKinetoMembers(const std::vector<JsonArrayStream::Member>& members, ProfileMeta& meta,
                       Diagnostics& diagnostics, const std::string& file) {
  std::string scratch;
  std::set<std::string_view> seen = {"traceEvents"};  // the stream read the first "traceEvents"
  for (const auto& m : members) {
    // A repeated key: the first value counts, as in an event, with a diagnostic.
    if (!seen.insert(m.key).second) {
      diagnostics.Add(DiagId::duplicate_key, {file, 0, static_cast<int64_t>(m.offset)}, "\"" + m.key + "\"");
      continue;
    }
    if (!m.kept) continue;
    JsonCursor cur(m.raw, &scratch);
    if (m.key == "schemaVersion") {
      std::string_view raw;
      int64_t v;
      if (cur.Peek() == JsonType::kNumber && cur.ReadNumber(&raw) && ParseInt64(raw, &v)) meta.schema_version = v;
    } else if (m.key == "baseTimeNanoseconds") {
      std::string_view raw;
      if (cur.Peek() == JsonType::kNumber && cur.ReadNumber(&raw)) {
        StatusOr<ExactDecimal> d = ParseScaledDecimal(raw, 0);
        if (d.ok()) meta.base_time_ns = d->value;
      }
    } else if (m.key == "deviceProperties") {
      if (cur.Peek() != JsonType::kArray || !cur.BeginArray()) continue;
      while (cur.NextElement()) {
        if (cur.Peek() != JsonType::kObject) {
          if (!cur.SkipValue()) break;
          continue;
        }
        cur.BeginObject();
        std::string_view key;
        while (cur.NextMember(&key)) {
          std::string_view name;
          if (key == "name" && cur.Peek() == JsonType::kString && cur.ReadString(&name)) {
            meta.device_names.emplace_back(name);
          } else if (!cur.SkipValue()) {
            break;
          }
        }
        if (!cur.ok()) break;
      }
    } else if (m.key == "distributedInfo") {
      if (cur.Peek() != JsonType::kObject || !cur.BeginObject()) continue;
      std::string_view key;
      while (cur.NextMember(&key)) {
        if (key == "rank" || key == "world_size") {
          int64_t& field = key == "rank" ? meta.rank : meta.world_size;  // before `key` may be overwritten
          std::string_view raw;
          int64_t v;
          JsonType t = cur.Peek();
          bool got = t == JsonType::kNumber ? cur.ReadNumber(&raw)
                                            : (t == JsonType::kString ? cur.ReadString(&raw) : false);
          if (got && ParseInt64(raw, &v)) field = v;
          if (!got && !cur.SkipValue()) break;
        } else if (!cur.SkipValue()) {
          break;
        }
      }
    }
  }
}

}  // namespace

Status LoadTraceJson(const std::string& file, Profile& profile, const LoadOptions& options) {
  // Small files get a small read buffer (the buffer is 2 chunks; many small loads, e.g. tests and
  // fuzzing, should not allocate and clear megabytes each).
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(file, ec);
  size_t chunk = ByteSource::kDefaultChunkBytes;
  if (!ec && size < chunk) chunk = std::max<size_t>(static_cast<size_t>(size), size_t{64} << 10);
  return LoadTraceJson(file, profile, options, chunk);
}

namespace {

class StreamLocator final : public EventLocator {
 public:
  explicit StreamLocator(const JsonArrayStream& stream) : stream_(stream) {}
  SourceLocation Locate(uint64_t offset) const override { return stream_.Locate(offset); }

 private:
  const JsonArrayStream& stream_;
};

// Whether the trace is big enough for the parallel reader: two blocks (a gzip file decompresses to
// several times its size). Below that the threads cost about what they save (a 35 MB trace loaded
// 10 % slower on two threads: `compare` already loads its two inputs side by side).
bool ReadInParallel(const ByteSource& source, const ParallelReadOptions& parallel) {
  if (parallel.threads < 2) return false;
  const uint64_t estimate = source.file_bytes() * (source.gzipped() ? 4 : 1);
  return estimate >= 2 * static_cast<uint64_t>(parallel.block_bytes);
}

// Reads the trace from `source` into `profile`: the array's first element serially, its middle with
// the parallel reader when asked for, the rest (and anything the parallel reader leaves) serially.
Status LoadTraceStream(const std::string& file, Profile& profile, ByteSource& source,
                       const ParallelReadOptions& parallel) {
  JsonArrayStream stream(source);
  PD_RETURN_IF_ERROR(stream.Start());
  StreamLocator locator(stream);
  TraceParser parser(profile, locator);
  bool parallel_pending = ReadInParallel(source, parallel);
  std::string_view rest;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool more, stream.BeginElement(&rest));
    if (!more) break;
    size_t len = 0;
    if (parser.TryParseInPlace(rest, stream.element_offset(), &len)) {
      PD_RETURN_IF_ERROR(stream.ConsumeElement(len));
    } else {
      // Cut by the end of the buffer (once per chunk), or malformed: find its end, then parse it whole.
      PD_ASSIGN_OR_RETURN(std::string_view element, stream.ScanElement());
      parser.Parse(element, stream.element_offset());
    }
    if (parallel_pending) {
      parallel_pending = false;
      PD_RETURN_IF_ERROR(ReadArrayInParallel(stream, parser, file, parallel));
    }
  }
  PD_RETURN_IF_ERROR(stream.Finish());
  if (stream.missing_closing_bracket()) {
    profile.diagnostics.Add(DiagId::missing_closing_bracket,
                            SourceLocation{file, 0, static_cast<int64_t>(stream.bytes_read())},
                            "the input ended inside the trace array");
  }
  if (stream.trailing_garbage()) {
    profile.diagnostics.Add(DiagId::trailing_garbage, stream.Locate(stream.trailing_garbage_offset()), {});
  }
  if (parser.elements() > 0 && parser.events() == 0) {
    // Every element was skipped: this is not a trace (e.g. an array of numbers), not a trace with a
    // few bad records.
    return ParseError(fmt::format(
        "{}@byte {}: not a trace: none of the {} element(s) of the trace array is a well-formed event "
        "object",
        file, parser.first_bad_offset(), parser.elements()));
  }
  parser.Finalize(file);

  ProfileMeta& meta = profile.meta;
  if (stream.top_level() == JsonArrayStream::TopLevel::kObject || !parser.looks_ascend()) {
    meta.format = SourceFormat::kKinetoJson;
    meta.device = DeviceKind::kGpu;
  } else {
    meta.format = SourceFormat::kAscendTraceView;
    meta.device = DeviceKind::kNpu;
  }
  ReadKinetoMembers(stream.members(), meta, profile.diagnostics, file);
  meta.trace_file = file;
  meta.files.push_back(file);
  meta.input_bytes += stream.bytes_parsed();
  return Status::Ok();
}

}  // namespace

// No option changes how a trace is read (--strict is LoadProfile's); `trace_bytes_read` counts it.
Status LoadTraceJson(const std::string& file, Profile& profile, const LoadOptions& options,
                     size_t chunk_bytes) {
  PD_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> source, ByteSource::Open(file, chunk_bytes));
  source->set_progress(options.trace_bytes_read);
  source->set_inflated_progress(options.trace_bytes_inflated);
  ParallelReadOptions parallel;
  parallel.threads = ThreadsFor(options);
  if (options.parallel_block_bytes > 0) parallel.block_bytes = options.parallel_block_bytes;
  parallel.map_file = options.parallel_map_file;
  parallel.stats = options.parallel_stats;
  Status s = LoadTraceStream(file, profile, *source, parallel);
  if (s.ok() || !source->gzipped() || (source->failed() && s.message() == source->failure().message())) {
    return s;  // fine, not gzip, or the gzip error itself
  }
  // Malformed JSON inside a gzip file is most often a damaged file: a corrupt deflate stream can
  // decompress to garbage long before its checksum fails. Say so when the rest of the stream
  // confirms it, rather than a syntax error at a decompressed offset.
  // At most 256 MiB more: a small gzip holding gigabytes of zeros after a trace's start is refused
  // at once, not inflated to its end for the checksum (the rest of a damaged stream fails sooner).
  Status gzip = source->Drain(uint64_t{256} << 20);
  if (gzip.ok()) return s;
  return Status(gzip.code(), gzip.message() + " (the data decompressed before that point is damaged too: " +
                                 s.message() + ")");
}

}  // namespace profdiff
