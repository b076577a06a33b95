// Exact time parsing. Time is int64 nanoseconds everywhere; it is parsed from the text of the input
// ("1736408883688177.930" µs -> 1736408883688177930 ns) and never goes through a double.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "profdiff/base/status.h"

namespace profdiff {

// Scale of the unit the text is written in, as a power of ten of nanoseconds.
enum class TimeUnit : int { kNanoseconds = 0, kMicroseconds = 3, kMilliseconds = 6, kSeconds = 9 };

// The time range every loader accepts, as ns since the epoch (or since any origin a profiler uses):
// 1933-06 .. 2116-02. Every timestamp and every end (ts + dur) of a loaded record lies in it, so the
// end of a record and the distance between any two times fit int64 with room to spare. A record
// outside it is counted as malformed (DiagId::time_out_of_range), never wrapped around.
inline constexpr int64_t kMinTimeNs = -(int64_t{1} << 60);
inline constexpr int64_t kMaxTimeNs = int64_t{1} << 62;
inline constexpr bool TimeInRange(int64_t ns) { return ns >= kMinTimeNs && ns <= kMaxTimeNs; }
// ts and ts + dur both in range (computed without overflow).
inline constexpr bool SpanInRange(int64_t ts_ns, int64_t dur_ns) {
  return TimeInRange(ts_ns) && dur_ns <= kMaxTimeNs - ts_ns && dur_ns >= kMinTimeNs - ts_ns;
}

// Result of parsing a decimal number into an integer count of a finer unit.
struct ExactDecimal {
  int64_t value = 0;
  bool rounded = false;  // the text had more precision than the target unit (rounded half-even)
};

// Parses a decimal number (optional sign, digits, optional fraction, optional exponent; surrounding
// spaces/tabs allowed) and returns it multiplied by 10^scale_digits, rounded half-to-even when the text
// has more precision. Fails on anything else, on an empty text, and on int64 overflow.
StatusOr<ExactDecimal> ParseScaledDecimal(std::string_view text, int scale_digits);

// Convenience: `text` in `unit` -> ns.
StatusOr<int64_t> ParseTimeNs(std::string_view text, TimeUnit unit);
inline StatusOr<int64_t> ParseMicrosToNs(std::string_view text) {
  return ParseTimeNs(text, TimeUnit::kMicroseconds);
}

// ns -> µs text with exactly three decimals ("1736408883688177.930"); negative values keep the sign.
std::string FormatNsAsMicros(int64_t ns);
// ns -> µs text with the shortest exact decimal form ("12", "12.5", "12.345").
std::string FormatNsAsMicrosShortest(int64_t ns);

// ns -> floating units for output arithmetic only (never for storage).
inline double NsToUs(int64_t ns) { return static_cast<double>(ns) / 1e3; }
inline double NsToMs(int64_t ns) { return static_cast<double>(ns) / 1e6; }
inline double NsToS(int64_t ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace profdiff
