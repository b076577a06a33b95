// PyFloatRepr (python_float.h).
#include "profdiff/report/python_float.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace profdiff::report {

std::string PyFloatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // "d.ddde[+-]XX"
  const size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  const int exp = std::atoi(sci.c_str() + epos + 1);
  std::string out;
  if (!mant.empty() && mant[0] == '-') {
    out = "-";
    mant.erase(0, 1);
  }
  std::string digits;
  for (char ch : mant)
    if (ch != '.') digits.push_back(ch);
  if (exp < -4 || exp >= 16) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + e;
  }
  if (exp < 0) return out + "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
  const auto int_len = static_cast<size_t>(exp) + 1;
  if (digits.size() <= int_len) return out + digits + std::string(int_len - digits.size(), '0') + ".0";
  return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

}  // namespace profdiff::report
