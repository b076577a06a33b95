// Text as the reference's Python prints it: a JSON value read the way json.loads would, and the
// str()/repr() of that value (lists "[1, 2]", strings 'quoted', None/True/False). The reference
// renders op args such as "Input Dims" and "Input type" with str(); profdiff keeps their raw JSON
// text in the model and converts it here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profdiff/model/profile.h"

namespace profdiff::analysis {

// A parsed JSON value. Numbers keep their text as written (Python prints an int as written and
// profdiff never needs their value); bools hold "True"/"False".
struct PyValue {
  enum class Type : uint8_t { kNull, kBool, kNumber, kString, kList, kObject };
  Type type = Type::kNull;
  std::string text;  // number: raw text; string: decoded UTF-8; bool: "True"/"False"
  std::vector<PyValue> items;                          // kList
  // kObject, in document order: field_names[i] names field_values[i] (two vectors rather than a
  // vector of pairs: a pair needs the complete PyValue, which this member is part of).
  std::vector<std::string> field_names;
  std::vector<PyValue> field_values;
};

// Parses one JSON value (surrounding white space allowed, nesting up to 64 levels). False when the
// text is not a single JSON value.
bool ParseJsonForPython(std::string_view text, PyValue& out);

// Python's str() of the value (repr() for everything but a top-level string).
std::string PythonStr(const PyValue& value);

// Python's str() of a JSON value given as text ("[[1, 2], []]", "['float', 'Int']"); text that is
// not JSON is returned unchanged.
std::string PythonStrOfJson(std::string_view json);

// Python's str() of a slice's arg as the reference prints it ("None", "True", an int, a JSON value's
// str(), a string as written); "N/A" when the slice has no such arg. An op's "Input Dims" / "Input
// type" in the operator sheets, a GPU kernel's launching op's shapes in the kernel comparison.
std::string PythonStrOfArg(const Profile& profile, SliceId slice, ArgKey key);

}  // namespace profdiff::analysis
