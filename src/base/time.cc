#include "profdiff/base/time.h"

#include <fmt/format.h>

#include <limits>

namespace profdiff {
namespace {

__extension__ typedef unsigned __int128 U128;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

Status Bad(std::string_view text, std::string_view why) {
  return ParseError(fmt::format("not a decimal number ({}): \"{}\"", why,
                                text.substr(0, std::min<size_t>(text.size(), 40))));
}

}  // namespace

StatusOr<ExactDecimal> ParseScaledDecimal(std::string_view original, int scale_digits) {
  std::string_view s = Trim(original);
  if (s.empty()) return Bad(original, "empty");
  bool negative = false;
  size_t i = 0;
  if (s[i] == '+' || s[i] == '-') {
    negative = s[i] == '-';
    ++i;
  }
  // Collect significant digits into a 128-bit mantissa; remember the decimal exponent.
  U128 mantissa = 0;
  int exponent = 0;  // value = mantissa * 10^exponent
  bool any_digit = false;
  bool dropped_nonzero = false;  // digits beyond what the mantissa can hold (only far below 1 ns)
  int kept_digits = 0;
  constexpr int kMaxDigits = 36;
  auto take_digit = [&](int d, bool fractional) {
    any_digit = true;
    if (mantissa == 0 && d == 0) {
      if (fractional) --exponent;
      return;
    }
    if (kept_digits < kMaxDigits) {
      mantissa = mantissa * 10 + static_cast<unsigned>(d);
      ++kept_digits;
      if (fractional) --exponent;
    } else {
      if (d != 0) dropped_nonzero = true;
      if (!fractional) ++exponent;
    }
  };
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) take_digit(s[i] - '0', false);
  if (i < s.size() && s[i] == '.') {
    ++i;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) take_digit(s[i] - '0', true);
  }
  if (!any_digit) return Bad(original, "no digits");
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
      exp_negative = s[i] == '-';
      ++i;
    }
    if (i >= s.size()) return Bad(original, "bad exponent");
    int e = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    exponent += exp_negative ? -e : e;
  }
  if (i != s.size()) return Bad(original, "trailing characters");

  exponent += scale_digits;
  ExactDecimal out;
  constexpr U128 kLimit = static_cast<U128>(std::numeric_limits<int64_t>::max()) + 1;
  if (mantissa == 0) {
    out.rounded = dropped_nonzero;
    return out;
  }
  if (exponent >= 0) {
    if (exponent > 19) return Bad(original, "out of range");
    for (int k = 0; k < exponent; ++k) {
      mantissa *= 10;
      if (mantissa > kLimit) return Bad(original, "out of range");
    }
    out.rounded = dropped_nonzero;
  } else {
    // Divide by 10^-exponent with round-half-to-even.
    int shift = -exponent;
    if (shift > 38) {
      out.rounded = true;
      return out;  // rounds to zero
    }
    U128 divisor = 1;
    for (int k = 0; k < shift; ++k) divisor *= 10;
    U128 q = mantissa / divisor;
    U128 r = mantissa % divisor;
    if (r != 0 || dropped_nonzero) out.rounded = true;
    U128 half = divisor / 2;
    if (r > half || (r == half && (dropped_nonzero || (q & 1) != 0))) ++q;
    mantissa = q;
  }
  if (mantissa > kLimit || (mantissa == kLimit && !negative)) return Bad(original, "out of range");
  if (negative) {
    out.value = mantissa == kLimit ? std::numeric_limits<int64_t>::min()
                                   : -static_cast<int64_t>(mantissa);
  } else {
    out.value = static_cast<int64_t>(mantissa);
  }
  return out;
}

StatusOr<int64_t> ParseTimeNs(std::string_view text, TimeUnit unit) {
  auto r = ParseScaledDecimal(text, static_cast<int>(unit));
  if (!r.ok()) return r.status();
  return r->value;
}

std::string FormatNsAsMicros(int64_t ns) {
  const bool neg = ns < 0;
  unsigned long long mag = neg ? 0ULL - static_cast<unsigned long long>(ns)
                               : static_cast<unsigned long long>(ns);
  return fmt::format("{}{}.{:03}", neg ? "-" : "", mag / 1000, mag % 1000);
}

std::string FormatNsAsMicrosShortest(int64_t ns) {
  std::string s = FormatNsAsMicros(ns);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace profdiff
