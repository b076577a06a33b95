// ASCII case helpers. Profilers write category and operator names in mixed case ("Kernel",
// "kernel"); these compare them without locale tables. Only the bytes A-Z are folded: every other
// byte, including each byte of a multi-byte UTF-8 sequence, compares as it is.
#pragma once

#include <string>
#include <string_view>

namespace profdiff::ascii {

constexpr char ToLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// A lower-cased copy of `s`.
inline std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ToLower(c);
  return out;
}

// The helpers below take their second argument already in lower case (a literal such as
// "async_npu"); only `s` is folded.
constexpr bool EqualsLower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (ToLower(s[i]) != lower[i]) return false;
  }
  return true;
}

constexpr bool StartsWithLower(std::string_view s, std::string_view lower_prefix) {
  return s.size() >= lower_prefix.size() &&
         EqualsLower(s.substr(0, lower_prefix.size()), lower_prefix);
}

constexpr bool EndsWithLower(std::string_view s, std::string_view lower_suffix) {
  return s.size() >= lower_suffix.size() &&
         EqualsLower(s.substr(s.size() - lower_suffix.size()), lower_suffix);
}

}  // namespace profdiff::ascii
