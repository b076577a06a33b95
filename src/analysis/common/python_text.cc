#include "profdiff/analysis/common/python_text.h"

#include <cctype>
#include <cstdlib>

namespace profdiff::analysis {

namespace {

// Appends code point `cp` (at most 0xFFFF: one \uXXXX escape) as UTF-8.
void AppendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// A small recursive-descent JSON reader for arg values (short texts; speed does not matter here).
class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}
  bool Parse(PyValue& v) {
    if (!Value(v, 0)) return false;
    Ws();
    return pos_ == s_.size();
  }

 private:
  static constexpr int kMaxDepth = 64;

  bool AtEnd() const { return pos_ >= s_.size(); }
  bool Next(char c) {
    if (AtEnd() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  void Ws() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool Lit(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  // A string at pos_ (its opening quote), decoded.
  bool Str(std::string& out) {
    if (!Next('"')) return false;
    while (!AtEnd()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (AtEnd()) return false;
      char e = s_[pos_++];
      switch (e) {
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u': {
          if (pos_ + 4 > s_.size()) return false;
          AppendUtf8(out, static_cast<unsigned>(std::strtoul(std::string(s_.substr(pos_, 4)).c_str(), nullptr, 16)));
          pos_ += 4;
          break;
        }
        default: out.push_back(e); break;
      }
    }
    return false;
  }

  bool List(PyValue& v, int depth) {
    v.type = PyValue::Type::kList;
    Ws();
    if (Next(']')) return true;
    while (true) {
      v.items.emplace_back();
      if (!Value(v.items.back(), depth + 1)) return false;
      Ws();
      if (Next(',')) continue;
      return Next(']');
    }
  }

  bool Object(PyValue& v, int depth) {
    v.type = PyValue::Type::kObject;
    Ws();
    if (Next('}')) return true;
    while (true) {
      Ws();
      std::string key;
      if (!Str(key)) return false;
      Ws();
      if (!Next(':')) return false;
      v.field_names.push_back(std::move(key));
      v.field_values.emplace_back();
      if (!Value(v.field_values.back(), depth + 1)) return false;
      Ws();
      if (Next(',')) continue;
      return Next('}');
    }
  }

  // null, true, false or a number (kept as written).
  bool Scalar(PyValue& v) {
    if (Lit("null")) return true;
    for (const char* word : {"true", "false"}) {
      if (!Lit(word)) continue;
      v.type = PyValue::Type::kBool;
      v.text = word[0] == 't' ? "True" : "False";
      return true;
    }
    const size_t begin = pos_;
    while (!AtEnd() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' || s_[pos_] == '+' ||
                        s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
      ++pos_;
    if (pos_ == begin) return false;
    v.type = PyValue::Type::kNumber;
    v.text = std::string(s_.substr(begin, pos_ - begin));
    return true;
  }

  bool Value(PyValue& v, int depth) {
    if (depth > kMaxDepth) return false;
    Ws();
    if (AtEnd()) return false;
    if (Next('[')) return List(v, depth);
    if (Next('{')) return Object(v, depth);
    if (s_[pos_] == '"') {
      v.type = PyValue::Type::kString;
      return Str(v.text);
    }
    return Scalar(v);
  }

  std::string_view s_;
  size_t pos_ = 0;
};

// Python's repr() of a str: single quotes unless the text has a ' and no ".
void AppendStrRepr(std::string& out, std::string_view s) {
  const char q = (s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos) ? '"' : '\'';
  out.push_back(q);
  for (char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c == q) {
          out.push_back('\\');
          out.push_back(c);
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          static const char* hex = "0123456789abcdef";
          out += "\\x";
          out.push_back(hex[(static_cast<unsigned char>(c) >> 4) & 0xF]);
          out.push_back(hex[static_cast<unsigned char>(c) & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back(q);
}

void AppendRepr(std::string& out, const PyValue& v) {
  switch (v.type) {
    case PyValue::Type::kNull: out += "None"; return;
    case PyValue::Type::kBool:
    case PyValue::Type::kNumber: out += v.text; return;
    case PyValue::Type::kString: AppendStrRepr(out, v.text); return;
    case PyValue::Type::kList:
      out.push_back('[');
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ", ";
        AppendRepr(out, v.items[i]);
      }
      out.push_back(']');
      return;
    case PyValue::Type::kObject:
      out.push_back('{');
      for (size_t i = 0; i < v.field_names.size(); ++i) {
        if (i) out += ", ";
        AppendStrRepr(out, v.field_names[i]);
        out += ": ";
        AppendRepr(out, v.field_values[i]);
      }
      out.push_back('}');
      return;
  }
}

}  // namespace

bool ParseJsonForPython(std::string_view text, PyValue& out) { return JsonParser(text).Parse(out); }

std::string PythonStr(const PyValue& value) {
  if (value.type == PyValue::Type::kString) return value.text;
  std::string out;
  AppendRepr(out, value);
  return out;
}

std::string PythonStrOfJson(std::string_view json) {
  PyValue v;
  if (!ParseJsonForPython(json, v)) return std::string(json);
  return PythonStr(v);
}

std::string PythonStrOfArg(const Profile& p, SliceId slice, ArgKey key) {
  const std::optional<Arg> a = p.FindArg(p.slices[slice], key);
  if (!a) return "N/A";
  switch (a->type) {
    case ArgType::kNull: return "None";
    case ArgType::kBool: return a->i() ? "True" : "False";
    case ArgType::kInt: return std::to_string(a->i());
    case ArgType::kJson: return PythonStrOfJson(p.str(a->text()));
    case ArgType::kDouble:
    case ArgType::kIntText:
    case ArgType::kString: return std::string(p.str(a->text()));
  }
  return "N/A";
}

}  // namespace profdiff::analysis
