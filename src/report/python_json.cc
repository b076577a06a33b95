// PythonJsonDumps (python_json.h).
#include "profdiff/report/python_json.h"

#include <cmath>

#include "profdiff/base/utf8.h"
#include "profdiff/report/python_float.h"

namespace profdiff::report {
namespace {

void AppendU(std::string& out, uint32_t unit) {  // unit < 0x10000
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(unit >> shift) & 0xF]);
}

// json.dumps(str) with ensure_ascii: the short escapes, \u00XX for other control characters, and
// every non-ASCII code point as \uXXXX.
void AppendString(std::string& out, const std::string& s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    const uint32_t cp = NextCodePoint(s, i);
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (cp >= 0x20 && cp < 0x7F) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x10000) {
      AppendU(out, cp);
    } else {
      const uint32_t v = cp - 0x10000;
      AppendU(out, 0xD800 | (v >> 10));
      AppendU(out, 0xDC00 | (v & 0x3FF));
    }
  }
  out.push_back('"');
}

void AppendFloat(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v > 0 ? "Infinity" : "-Infinity";
  } else {
    out += PyFloatRepr(v);
  }
}

void Append(std::string& out, const OrderedJson& v) {
  switch (v.type()) {
    case OrderedJson::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (const auto& [key, item] : v.items()) {
        if (!first) out += ", ";
        first = false;
        AppendString(out, key);
        out += ": ";
        Append(out, item);
      }
      out.push_back('}');
      return;
    }
    case OrderedJson::value_t::array: {
      out.push_back('[');
      for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += ", ";
        Append(out, v[i]);
      }
      out.push_back(']');
      return;
    }
    case OrderedJson::value_t::string: AppendString(out, v.get_ref<const std::string&>()); return;
    case OrderedJson::value_t::boolean: out += v.get<bool>() ? "true" : "false"; return;
    case OrderedJson::value_t::number_integer: out += std::to_string(v.get<int64_t>()); return;
    case OrderedJson::value_t::number_unsigned: out += std::to_string(v.get<uint64_t>()); return;
    case OrderedJson::value_t::number_float: AppendFloat(out, v.get<double>()); return;
    default: out += "null"; return;
  }
}

}  // namespace

std::string PythonJsonDumps(const OrderedJson& value) {
  std::string out;
  Append(out, value);
  return out;
}

}  // namespace profdiff::report
