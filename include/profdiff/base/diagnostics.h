// One diagnostics registry, declared once (idea from Perfetto's stats.h). A malformed event inside an
// otherwise good file is counted here, with its first few locations, instead of failing the load;
// `--strict` turns any kError diagnostic into a failure.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff {

enum class DiagSeverity : uint8_t { kInfo, kWarning, kError };

// X(id, severity, description)
#define PD_DIAGNOSTICS(X)                                                                          \
  X(json_event_not_object, kError, "trace event is not a JSON object; skipped")                    \
  X(json_event_malformed, kError, "trace event is malformed JSON; skipped")                        \
  X(bad_timestamp, kError, "event 'ts' is not a number; event skipped")                            \
  X(time_out_of_range, kError,                                                                     \
    "a time or its end lies outside 1933..2116 as epoch ns; the record is skipped (a 'dur': 0)")   \
  X(bad_duration, kError, "event 'dur' is not a number; treated as 0")                             \
  X(duration_too_long, kError,                                                                     \
    "a duration over 19.5 hours (2^46 ns, the longest a slice holds); treated as 0")              \
  X(negative_duration, kWarning, "event has a negative 'dur'; treated as 0")                       \
  X(sub_ns_rounded, kInfo,                                                                         \
    "time value had sub-nanosecond digits: rounded to ns; a trace event's 'dur' also keeps the "   \
    "remainder to 1e-5 ns")                                                                        \
  X(missing_closing_bracket, kWarning, "trace array is not closed with ']' (truncated file?)")     \
  X(trailing_garbage, kWarning, "bytes after the end of the JSON document were ignored")           \
  X(unknown_phase, kInfo, "event with an unhandled 'ph' value; kept as an instant")                \
  X(flow_missing_id, kError, "flow event without an 'id'; skipped")                                \
  X(track_limit, kError,                                                                           \
    "more than 16,777,216 (pid, tid) tracks: the events of the later ones are put on the last")    \
  X(category_limit, kError,                                                                        \
    "more than 65,536 slice categories: the slices of the later ones are given the last")         \
  X(flow_unpaired, kInfo, "flow start or end without its other end")                               \
  X(begin_end_unpaired, kWarning, "'B' event without its 'E' (kept with dur 0) or 'E' without 'B'") \
  X(csv_row_width, kError, "CSV row has a different number of fields than the header; skipped")    \
  X(csv_bad_number, kWarning, "CSV cell is not a number where one is expected; treated as absent") \
  X(csv_bad_time, kError, "CSV time cell is not a decimal number; row skipped")                    \
  X(csv_unterminated_quote, kError, "CSV quoted field not closed at end of file; record skipped")  \
  X(invalid_utf8, kInfo, "string with invalid UTF-8 bytes kept as raw bytes")                      \
  X(duplicate_key, kWarning, "a JSON object repeats a key; its first value is used")               \
  X(side_file_unreadable, kWarning, "an optional side file could not be read; its data is absent") \
  X(side_file_missing, kInfo, "an optional side file is absent")                                  \
  X(db_table_missing, kInfo, "an Ascend DB table is absent; its data is empty")                     \
  X(db_null_value, kWarning, "an Ascend DB row has NULL where a value is needed; row skipped")       \
  X(db_bad_value, kError, "an Ascend DB cell is not an integer where one is expected; row skipped") \
  X(db_dangling_id, kWarning, "an Ascend DB id has no STRING_IDS / ENUM row; read as empty")

enum class DiagId : uint16_t {
#define PD_DIAG_ENUM_(id, sev, desc) id,
  PD_DIAGNOSTICS(PD_DIAG_ENUM_)
#undef PD_DIAG_ENUM_
      kCount
};

inline constexpr size_t kDiagCount = static_cast<size_t>(DiagId::kCount);

struct DiagInfo {
  std::string_view name;
  DiagSeverity severity;
  std::string_view description;
};

const DiagInfo& GetDiagInfo(DiagId id);
std::string_view SeverityName(DiagSeverity s);

// Where something was found: a file and either a 1-based line or a byte offset.
struct SourceLocation {
  std::string file;
  int64_t line = 0;         // 1-based; 0 = unknown
  int64_t byte_offset = -1;  // -1 = unknown
  // "file:12 (byte 1234)", "file:12", "file@byte 1234" or "file" (the same forms as Status messages).
  std::string ToString() const;
};

class Diagnostics {
 public:
  static constexpr size_t kMaxExamples = 3;
  struct Example {
    SourceLocation where;
    std::string detail;
  };
  struct Entry {
    uint64_t count = 0;
    std::vector<Example> examples;
  };

  void Add(DiagId id, SourceLocation where, std::string detail = {});
  // Adds an occurrence found out of file order: its example goes before the kept examples at later
  // byte offsets (and is dropped when the first kMaxExamples all come before it).
  void Insert(DiagId id, SourceLocation where, std::string detail = {});
  // Appends `other`'s counts and examples (which come after this one's in the input).
  void Merge(const Diagnostics& other);
  // Adds `lines` to every example's known line (a reader that numbered lines from a block's start).
  void ShiftLines(int64_t lines);

  uint64_t count(DiagId id) const { return entries_[static_cast<size_t>(id)].count; }
  const Entry& entry(DiagId id) const { return entries_[static_cast<size_t>(id)]; }
  uint64_t total(DiagSeverity at_least) const;
  bool empty() const { return total(DiagSeverity::kInfo) == 0; }

  // Fails with the first kError diagnostic (for --strict).
  Status CheckStrict() const;
  // Human summary, one line per non-zero diagnostic plus its first example.
  std::string Summary() const;

 private:
  std::array<Entry, kDiagCount> entries_{};
};

}  // namespace profdiff
