#include "profdiff/cli/options.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "profdiff/base/utf8.h"
#include "profdiff/pipeline/comparisons.h"

namespace profdiff::cli {
namespace {

// ---- A small reader for Python literals (what `ast.literal_eval` accepts) and JSON ------------------
// Only what --op_name_map needs to tell apart: a dict, a str, or anything else.

struct PyValue {
  enum Kind { kDict, kStr, kOther } kind = kOther;
  std::string str;                                  // kStr: decoded UTF-8
  std::vector<PyValue> keys, values;                // kDict: keys[i] maps to values[i]
};

class LiteralReader {
 public:
  explicit LiteralReader(std::string_view text) : s_(text) {}

  bool ReadDocument(PyValue& out) {
    SkipSpace();
    if (!ReadValue(out, 0)) return false;
    SkipSpace();
    return pos_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 64;

  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' ||
                                s_[pos_] == '\r' || s_[pos_] == '\f' || s_[pos_] == '\v'))
      ++pos_;
  }
  bool Peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  static bool IsIdentChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  bool ReadValue(PyValue& out, int depth) {
    if (depth > kMaxDepth || pos_ >= s_.size()) return false;
    char c = s_[pos_];
    if (c == '{') return ReadBraces(out, depth);
    if (c == '[') return ReadSequence(']', out, depth);
    if (c == '(') return ReadSequence(')', out, depth);
    if (c == '\'' || c == '"') return ReadStrings(out);
    if ((c == 'r' || c == 'R' || c == 'u' || c == 'U' || c == 'b' || c == 'B') && pos_ + 1 < s_.size()) {
      // String prefixes: r'..', u'..', b'..', rb'..', br'..'.
      size_t p = pos_;
      bool raw = false, bytes = false;
      while (p < s_.size() && p < pos_ + 2 && (s_[p] == 'r' || s_[p] == 'R' || s_[p] == 'u' ||
                                               s_[p] == 'U' || s_[p] == 'b' || s_[p] == 'B')) {
        raw |= (s_[p] == 'r' || s_[p] == 'R');
        bytes |= (s_[p] == 'b' || s_[p] == 'B');
        ++p;
      }
      if (p < s_.size() && (s_[p] == '\'' || s_[p] == '"')) {
        pos_ = p;
        if (!ReadStrings(out, raw)) return false;
        if (bytes) out.kind = PyValue::kOther;
        return true;
      }
    }
    if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) return ReadNumber(out);
    // Keywords: Python's True/False/None and JSON's true/false/null.
    size_t start = pos_;
    while (pos_ < s_.size() && IsIdentChar(s_[pos_])) ++pos_;
    std::string_view word = s_.substr(start, pos_ - start);
    if (word == "True" || word == "False" || word == "None" || word == "true" || word == "false" ||
        word == "null") {
      out.kind = PyValue::kOther;
      return true;
    }
    return false;
  }

  bool ReadNumber(PyValue& out) {
    if (Peek('-') || Peek('+')) {
      ++pos_;
      SkipSpace();
    }
    size_t start = pos_;
    bool digits = false;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c >= '0' && c <= '9') {
        digits = true;
        ++pos_;
      } else if (c == '.' || c == '_' || c == 'x' || c == 'X' || c == 'o' || c == 'O' ||
                 (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'j' || c == 'J') {
        ++pos_;
      } else if ((c == '+' || c == '-') && pos_ > start &&
                 (s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E')) {
        ++pos_;
      } else {
        break;
      }
    }
    if (!digits) return false;
    out.kind = PyValue::kOther;
    return true;
  }

  // One or more adjacent string literals ('a' 'b' == 'ab').
  bool ReadStrings(PyValue& out, bool raw = false) {
    out.kind = PyValue::kStr;
    out.str.clear();
    if (!ReadOneString(out.str, raw)) return false;
    for (;;) {
      size_t save = pos_;
      SkipSpace();
      if (Peek('\'') || Peek('"')) {
        if (!ReadOneString(out.str, false)) return false;
      } else {
        pos_ = save;
        return true;
      }
    }
  }

  bool ReadOneString(std::string& out, bool raw) {
    char q = s_[pos_];
    bool triple = s_.substr(pos_, 3) == std::string(3, q);
    pos_ += triple ? 3 : 1;
    for (;;) {
      if (pos_ >= s_.size()) return false;
      char c = s_[pos_];
      if (c == q) {
        if (!triple) {
          ++pos_;
          return true;
        }
        if (s_.substr(pos_, 3) == std::string(3, q)) {
          pos_ += 3;
          return true;
        }
        out += c;
        ++pos_;
        continue;
      }
      if (!triple && (c == '\n' || c == '\r')) return false;
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= s_.size()) return false;
      char e = s_[pos_ + 1];
      if (raw) {
        out += c;
        out += e;
        pos_ += 2;
        continue;
      }
      pos_ += 2;
      switch (e) {
        case '\n': break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'v': out += '\v'; break;
        case '/': out += "\\/"; break;  // Python keeps the backslash
        case 'x':
        case 'u':
        case 'U': {
          size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (pos_ + n > s_.size()) return false;
          uint32_t cp = 0;
          for (size_t i = 0; i < n; ++i) {
            char h = s_[pos_ + i];
            uint32_t v;
            if (h >= '0' && h <= '9') v = static_cast<uint32_t>(h - '0');
            else if (h >= 'a' && h <= 'f') v = static_cast<uint32_t>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') v = static_cast<uint32_t>(h - 'A' + 10);
            else return false;
            cp = cp * 16 + v;
          }
          if (cp > 0x10FFFF) return false;
          pos_ += n;
          AppendUtf8(out, cp);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {  // octal escape, up to three digits
            uint32_t cp = static_cast<uint32_t>(e - '0');
            for (int i = 0; i < 2 && pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '7'; ++i)
              cp = cp * 8 + static_cast<uint32_t>(s_[pos_++] - '0');
            AppendUtf8(out, cp);
          } else {  // unknown escapes keep the backslash
            out += '\\';
            out += e;
          }
      }
    }
  }

  // {} is an empty dict, {k: v, ...} a dict, {a, b} a set.
  bool ReadBraces(PyValue& out, int depth) {
    ++pos_;
    SkipSpace();
    if (Peek('}')) {
      ++pos_;
      out.kind = PyValue::kDict;
      return true;
    }
    bool is_dict = false, first = true;
    for (;;) {
      PyValue key;
      if (!ReadValue(key, depth + 1)) return false;
      SkipSpace();
      if (first) {
        is_dict = Peek(':');
        first = false;
      }
      if (is_dict) {
        if (!Peek(':')) return false;
        ++pos_;
        SkipSpace();
        PyValue value;
        if (!ReadValue(value, depth + 1)) return false;
        out.keys.push_back(std::move(key));
        out.values.push_back(std::move(value));
        SkipSpace();
      }
      if (Peek(',')) {
        ++pos_;
        SkipSpace();
        if (Peek('}')) break;
        continue;
      }
      if (Peek('}')) break;
      return false;
    }
    ++pos_;
    out.kind = is_dict ? PyValue::kDict : PyValue::kOther;
    return true;
  }

  bool ReadSequence(char close, PyValue& out, int depth) {
    ++pos_;
    SkipSpace();
    out.kind = PyValue::kOther;
    if (Peek(close)) {
      ++pos_;
      return true;
    }
    for (;;) {
      PyValue item;
      if (!ReadValue(item, depth + 1)) return false;
      SkipSpace();
      if (Peek(',')) {
        ++pos_;
        SkipSpace();
        if (Peek(close)) break;
        continue;
      }
      if (Peek(close)) break;
      return false;
    }
    ++pos_;
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

StatusOr<int64_t> StepNumber(std::string_view text) {
  int64_t v = 0;
  for (char c : text) {
    if (v > (INT64_MAX - 9) / 10) return InvalidArgument("Invalid param, step id is too large: " + std::string(text));
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

StatusOr<std::map<std::string, std::string>> ParseOpNameMap(std::string_view text) {
  PyValue v;
  LiteralReader reader(text);
  if (!reader.ReadDocument(v))
    return InvalidArgument("Invalid value for '--op_name_map': " + std::string(text));
  if (v.kind != PyValue::kDict)
    return InvalidArgument(
        "Invalid param, --op_name_map must be dict, for example: --op_name_map={'name1':'name2'}");
  for (size_t i = 0; i < v.keys.size(); ++i)
    if (v.keys[i].kind != PyValue::kStr || v.values[i].kind != PyValue::kStr)
      return InvalidArgument("Invalid param, key/value in --op_name_map must be string");
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < v.keys.size(); ++i) {
    const PyValue& key = v.keys[i];
    const PyValue& value = v.values[i];
    if (CodePoints(key.str) > 200 || CodePoints(value.str) > 200)
      return InvalidArgument(
          "Invalid param, the length of key/value in --op_name_map exceeded the maximum value 200");
    out[key.str] = value.str;  // later duplicates win, as in a Python dict literal
  }
  return out;
}

std::string PreprocessPathArg(std::string_view path) {
  size_t i = 0;
  while (i < path.size() && path[i] == '=') ++i;
  std::string p(path.substr(i));
  if (!p.empty() && p[0] == '~' && (p.size() == 1 || p[1] == '/')) {
    const char* home = std::getenv("HOME");
    if (home != nullptr && *home != '\0') p = std::string(home) + p.substr(1);
  }
  return p;
}

StatusOr<analysis::ReferenceLine> ParseReferenceCompatLine(std::string_view text) {
  if (text.empty()) return analysis::kCurrentReferenceLine;
  if (std::optional<analysis::ReferenceLine> line = analysis::ParseReferenceLine(text)) return *line;
  return InvalidArgument("Invalid param, --reference-compat=" + std::string(text) +
                         ": unknown release line of the reference; valid lines: 26.1 (the current "
                         "line, also the bare --reference-compat) and 8.2");
}

Status ValidateGateValues(const analysis::GateOptions& gate) {
  for (const auto& g : {gate.e2e_pct, gate.compute_pct, gate.comm_pct, gate.free_pct})
    if (g && !(std::isfinite(*g) && *g >= 0))
      return InvalidArgument("Invalid param, a --gate-* threshold must be a finite percentage >= 0");
  if (!(std::isfinite(gate.noise_floor_ms) && gate.noise_floor_ms >= 0))
    return InvalidArgument("Invalid param, --noise-floor-ms must be a finite number >= 0");
  return Status::Ok();
}

Status ValidateCompareOptions(CompareOptions& opts, const std::string& base_step_text,
                              const std::string& comparison_step_text) {
  // 1. --max_kernel_num
  if (opts.max_kernel_num && *opts.max_kernel_num <= 3)
    return InvalidArgument("Invalid param, --max_kernel_num has to be greater than 3");
  // 2.-4. --op_name_map (the reference's default is {}).
  if (!opts.op_name_map_text.empty()) {
    PD_ASSIGN_OR_RETURN(opts.op_name_map, ParseOpNameMap(opts.op_name_map_text));
  } else {
    opts.op_name_map.clear();
  }
  // 5. --gpu_flow_cat
  if (CodePoints(opts.gpu_flow_cat) > 20)
    return InvalidArgument("Invalid param, --gpu_flow_cat exceeded the maximum value 20");
  // 6. default comparison set, then the --use_kernel_type warning.
  opts.enabled = opts.requested.any()
                     ? opts.requested
                     : pipeline::AllComparisons();
  if (opts.use_kernel_type && !opts.enabled.kernel)
    opts.warnings.push_back(
        "The use_kernel_type parameter is invalid because it only takes effect when "
        "enable_kernel_compare is enabled.");
  // 7. steps
  opts.base_step = kVoidStep;
  opts.comparison_step = kVoidStep;
  if (!base_step_text.empty() && !comparison_step_text.empty()) {
    if (!AllDigits(base_step_text) || !AllDigits(comparison_step_text))
      return InvalidArgument("Invalid param, base_step and comparison_step must be a number.");
    PD_ASSIGN_OR_RETURN(opts.base_step, StepNumber(base_step_text));
    PD_ASSIGN_OR_RETURN(opts.comparison_step, StepNumber(comparison_step_text));
  } else if (!base_step_text.empty() || !comparison_step_text.empty()) {
    return InvalidArgument("Invalid param, base_step and comparison_step must be set at the same time.");
  }
  // profdiff's own options.
  analysis::GateOptions gate;
  gate.e2e_pct = opts.gate_e2e_pct, gate.compute_pct = opts.gate_compute_pct;
  gate.comm_pct = opts.gate_comm_pct, gate.free_pct = opts.gate_free_pct;
  gate.noise_floor_ms = opts.noise_floor_ms;
  PD_RETURN_IF_ERROR(ValidateGateValues(gate));
  if (!(opts.min_match_pct >= 0 && opts.min_match_pct <= 100))  // NaN fails both
    return InvalidArgument("Invalid param, --min-match must be a percentage from 0 to 100");
  return Status::Ok();
}

}  // namespace profdiff::cli
