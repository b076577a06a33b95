// Cells of the DB route's tables as the reference's Python sees them (internal to
// analysis/cluster/db_*.cc).
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/db_tables.h"
#include "profdiff/analysis/cluster/float_sums.h"
#include "profdiff/model/cluster_db_tables.h"

namespace profdiff::analysis::db_cells {

// Python's repr() of a float ("1e+16", "100.0", "nan").
inline std::string PyFloatText(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

// A cell as a groupby key: its text (a number as Python's str() prints it); nullopt for NULL (pandas
// leaves such rows out of a groupby).
inline std::optional<std::string> TextKey(const SqlValue& v) {
  switch (v.kind) {
    case SqlValue::Kind::kNull: return std::nullopt;
    case SqlValue::Kind::kInt: return std::to_string(v.i);
    case SqlValue::Kind::kReal: return PyFloatText(v.r);
    case SqlValue::Kind::kText: return v.text;
  }
  return std::nullopt;
}

// Python's str() of the cell ("None" for NULL).
inline std::string PyStr(const SqlValue& v) { return TextKey(v).value_or("None"); }

// A pandas column's dtype as read_sql gives it and concat combines it.
enum class Dtype : uint8_t { kInt, kFloat, kObject };
inline Dtype Union(Dtype a, Dtype b) {
  if (a == b) return a;
  return a == Dtype::kObject || b == Dtype::kObject ? Dtype::kObject : Dtype::kFloat;
}
inline SqlType SqlOf(Dtype d) {
  return d == Dtype::kInt ? SqlType::kInteger : d == Dtype::kFloat ? SqlType::kReal : SqlType::kText;
}

// One rank's table with the columns the recipe reads (`col[i]`: the index of the i-th, -1 absent).
struct Frame {
  const RankSummary* rank = nullptr;
  const SqlRows* t = nullptr;
  std::vector<int> col;
  const SqlValue& At(const std::vector<SqlValue>& row, size_t i) const {
    static const SqlValue kNull;
    return col[i] < 0 ? kNull : row[static_cast<size_t>(col[i])];
  }
  // int64 when every cell is an integer (float64 otherwise; a text cell counts as NULL).
  Dtype NumericDtype(size_t i) const {
    for (const auto& row : t->rows)
      if (At(row, i).kind != SqlValue::Kind::kInt) return Dtype::kFloat;
    return Dtype::kInt;
  }
};

// The frame of a rank's table with `columns`; nullopt (and a note) when it lacks one of them
// (except "step", which the reference fills in).
inline std::optional<Frame> FrameOf(const RankSummary& r, const SqlRows& t, std::string_view table,
                             const std::vector<const char*>& columns, std::vector<std::string>& notes) {
  Frame f{&r, &t, {}};
  for (const char* c : columns) {
    f.col.push_back(t.Column(c));
    if (f.col.back() < 0 && std::string_view(c) != "step") {
      notes.push_back(fmt::format("rank {}: analysis.db {} has no column {}: left out of cluster_analysis.db", r.rank,
                                  table, c));
      return std::nullopt;
    }
  }
  return f;
}

inline std::string StepOf(const Frame& f, const std::vector<SqlValue>& row, size_t step_col) {
  if (f.col[step_col] < 0) return "step";  // the reference's default step
  return TextKey(f.At(row, step_col)).value_or("");
}

// A groupby sum of one column: integers exactly; floats (NULL skipped) Kahan-compensated in row order
// (the reference) or exactly.
class ColumnSum {
 public:
  ColumnSum(Dtype dtype, bool reference) : dtype_(dtype), reference_(reference) {}
  void Add(const SqlValue& v, int times = 1) {
    for (int k = 0; k < times; ++k) {
      if (dtype_ == Dtype::kInt) {
        total_ += v.i;
        continue;
      }
      const double x = v.AsDouble();
      if (std::isnan(x)) continue;
      if (reference_) kahan_.Add(x);
      else values_.push_back(x);
    }
  }
  SqlValue Result() const {
    if (dtype_ == Dtype::kInt) return SqlValue::Int(total_);
    return SqlValue::Real(reference_ ? kahan_.sum : ExactSum(values_));
  }

 private:
  Dtype dtype_;
  bool reference_;
  int64_t total_ = 0;
  KahanSum kahan_;
  std::vector<double> values_;
};

}  // namespace profdiff::analysis::db_cells
