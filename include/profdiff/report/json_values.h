// Value helpers shared by the JSON result's envelope (json_report.cc) and the per-comparison
// sections (report/<comparison>/<comparison>_json.cc).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace profdiff::report {

using OrderedJson = nlohmann::ordered_json;

// JSON has no NaN or infinity: a finite number is written as is, NaN as null, +inf / -inf as the
// strings "INF" / "-INF" (the workbook's spelling of an infinite ratio), and -0.0 as 0.0.
OrderedJson JsonNumber(double v);

// An array too large to hold as a tree (one element per operator, per memory record, ...): its
// elements are made one at a time while the document is written, so that they are never all in
// memory as JSON. `row(i)`, i in [0, count), gives element i; whatever it reads must live until the
// document is written (the closures own it).
struct JsonRows {
  size_t count = 0;
  std::function<OrderedJson(size_t)> row;
};

// A section's value: `value` (null when the comparison did not run), whose members named in `rows`
// hold null in their place and are written from their JsonRows.
struct JsonBody {
  OrderedJson value;
  std::vector<std::pair<std::string, JsonRows>> rows;
};

// `body` with its rows made: the whole value as one tree (for tests and small documents).
OrderedJson MaterializeJsonBody(const JsonBody& body);

}  // namespace profdiff::report
