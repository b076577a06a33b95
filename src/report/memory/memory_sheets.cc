#include "profdiff/report/memory/memory_sheets.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "profdiff/base/time.h"
#include "profdiff/report/operators/operator_sheets.h"  // OpArgTextCache
#include "profdiff/report/python_float.h"

namespace profdiff::report {
namespace {

Cell Str(std::string_view s) { return s.empty() ? Cell::Blank() : Cell::String(std::string(s)); }
Cell Num(double v) { return Cell::Number(v); }
Cell Int(int64_t v) { return Cell::Number(static_cast<double>(v)); }

std::string TimeText(const Profile& p, int64_t ns, bool release, const analysis::ReferencePolicy& policy) {
  const bool npu = p.meta.device == DeviceKind::kNpu;
  const bool floats = analysis::MemoryTimesAsFloats(p.meta, policy);
  if (npu && floats) return PyFloatRepr(ns == kAbsentNs ? 0.0 : analysis::TimeAsFloatUs(ns));  // DB: Python's float
  if (ns == kAbsentNs) return release ? (npu ? "0" : "None") : "0";
  if (npu) return FormatNsAsMicros(ns);
  return floats ? ExactDecimalOfDouble(analysis::TimeAsFloatUs(ns)) : FormatNsAsMicrosShortest(ns);
}

// A record's size as the reference prints it: Python's float, or with policy.memory_db_bytes_as_kb
// the DB's integer bytes.
std::string SizeText(const Profile& p, double size_kb, const analysis::ReferencePolicy& policy) {
  if (p.meta.format == SourceFormat::kAscendDb && policy.memory_db_bytes_as_kb && std::trunc(size_kb) == size_kb &&
      std::fabs(size_kb) < 9.0e15)
    return std::to_string(static_cast<int64_t>(size_kb));
  return PyFloatRepr(size_kb);
}

// The op's Input Shape cell: its shapes, "N/A" without, or "None" for a DB op without shapes under
// policy.memory_db_null_shape_none.
std::string InputShapeText(const Profile& p, SliceId slice, const analysis::ReferencePolicy& policy,
                           OpArgTextCache& args) {
  if (p.meta.format == SourceFormat::kAscendDb && policy.memory_db_null_shape_none &&
      !p.FindArg(p.slices[slice], ArgKey::kInputDims))
    return "None";
  return args.Get(slice, ArgKey::kInputDims);
}

SheetSpec MemoryCompareSheet(const analysis::MemoryComparison& cmp, const analysis::OpTree& bt,
                             const analysis::OpTree& ct, std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "MemoryCompare";
  s.base_banner = {1, 5, BaseBannerText(b)};
  s.comparison_banner = {6, 10, ComparisonBannerText(c)};
  for (int side = 0; side < 2; ++side) {
    if (side == 0) s.columns.push_back({"Order Id", 10, CellFormat::kDefault, false});
    s.columns.push_back({"Operator Name", 30, CellFormat::kBoldStr, false});
    s.columns.push_back({"Input Shape", 20, CellFormat::kDefault, false});
    s.columns.push_back({"Input Type", 20, CellFormat::kDefault, false});
    s.columns.push_back({"Allocated Details", 20, CellFormat::kDefault, false});
    s.columns.push_back({"Size(KB)", 20, CellFormat::kDefaultFloat, false});
  }
  s.columns.push_back({"Diff Size(KB)", 20, CellFormat::kDefaultFloat, false});
  s.columns.push_back({"Diff Ratio", 20, CellFormat::kDefaultRatio, true});
  s.rows.reserve(cmp.rows.size());
  int64_t order = 0;
  OpArgTextCache base_args(*cmp.base), comparison_args(*cmp.comparison);
  for (const analysis::MemoryRow& r : cmp.rows) {
    RowSpec row;
    row.cells.reserve(13);
    row.cells.push_back(Int(++order));
    auto side = [&](const analysis::MemorySide& ms, const Profile& p, const analysis::OpTree& tree,
                    const analysis::PlacedMemory& placed, OpArgTextCache& args) {
      if (!ms.present) {
        row.cells.insert(row.cells.end(), {Cell::Blank(), Cell::Blank(), Cell::Blank(), Cell::Blank(), Num(0)});
        return;
      }
      std::string details;
      for (uint32_t rec : ms.records) details += AllocatedDetailsLine(p, tree, placed, rec, cmp.policy);
      row.cells.push_back(Str(ms.name));
      row.cells.push_back(Str(InputShapeText(p, ms.slice, cmp.policy, args)));
      row.cells.push_back(Str(args.Get(ms.slice, ArgKey::kInputType)));
      row.cells.push_back(Str(details));
      row.cells.push_back(Num(ms.size_kb));
    };
    side(r.base, *cmp.base, bt, cmp.base_memory, base_args);
    side(r.comparison, *cmp.comparison, ct, cmp.comparison_memory, comparison_args);
    row.cells.push_back(Num(r.diff_kb));
    row.cells.push_back(RatioCell(r.ratio));
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec MemoryStatisticSheet(const analysis::MemoryComparison& cmp, std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "MemoryCompareStatistic";
  s.base_banner = {2, 4, BaseBannerText(b)};
  s.comparison_banner = {5, 7, ComparisonBannerText(c)};
  s.columns = {
      {"Top", 10, CellFormat::kDefault, false},
      {"Operator Name", 30, CellFormat::kBoldStr, false},
      {"Base Allocated Duration(ms)", 25, CellFormat::kDefaultFloat, false},
      {"Base Allocated Memory(MB)", 30, CellFormat::kDefaultFloat, false},
      {"Base Operator Number", 25, CellFormat::kDefault, false},
      {"Comparison Allocated Duration(ms)", 27, CellFormat::kDefaultFloat, false},
      {"Comparison Allocated Memory(MB)", 33, CellFormat::kDefaultFloat, false},
      {"Comparison Operator Number", 25, CellFormat::kDefault, false},
      {"Diff Memory(MB)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Ratio", 20, CellFormat::kDefaultRatio, true},
  };
  int64_t top = 0;
  for (const analysis::MemoryStatRow& r : cmp.stats) {
    RowSpec row;
    row.cells = {Int(++top),
                 Str(r.name),
                 Num(r.base.duration.Ms(cmp.policy)),
                 Num(r.base.size_mb),
                 Int(r.base.count),
                 Num(r.comparison.duration.Ms(cmp.policy)),
                 Num(r.comparison.size_mb),
                 Int(r.comparison.count),
                 Num(r.diff_mb),
                 RatioCell(r.ratio)};
    s.rows.push_back(std::move(row));
  }
  return s;
}

}  // namespace

namespace {

__extension__ typedef unsigned __int128 U128;  // GCC/Clang; -Wpedantic needs the __extension__

std::string U128ToString(U128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v > 0) {
    s.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return std::string(s.rbegin(), s.rend());
}

// The exact decimal of `v` through glibc (every digit; 1100 decimals cover the smallest doubles).
std::string ExactDecimalViaPrintf(double v) {
  std::vector<char> buf(1500);
  const int n = std::snprintf(buf.data(), buf.size(), "%.1100f", v);
  std::string s(buf.data(), n > 0 ? static_cast<size_t>(n) : 0);
  const size_t dot = s.find('.');
  if (dot == std::string::npos) return s;
  size_t end = s.find_last_not_of('0');
  if (end == dot) --end;  // an integer: no decimal point, as Decimal prints it
  s.erase(end + 1);
  return s;
}

}  // namespace

std::string ExactDecimalOfDouble(double v) {
  // v = mant * 2^e exactly (mant < 2^53). With 0 < -e <= 38 (every time a trace holds), the
  // fraction's -e binary digits are exactly frac * 5^-e / 10^-e: integer arithmetic in 128 bits,
  // about 50 times faster than printing 1100 digits. Other values go through printf.
  if (std::isfinite(v) && v != 0) {
    int exp2 = 0;
    const double m = std::frexp(std::fabs(v), &exp2);
    const auto mant = static_cast<uint64_t>(std::ldexp(m, 53));
    const int e = exp2 - 53;
    if (e < 0 && e >= -38) {
      const int k = -e;
      const U128 whole = static_cast<U128>(mant) >> k;
      const U128 frac = static_cast<U128>(mant) & ((static_cast<U128>(1) << k) - 1);
      U128 five = 1;
      for (int i = 0; i < k; ++i) five *= 5;
      std::string digits = U128ToString(frac * five);  // < 10^k
      digits.insert(0, static_cast<size_t>(k) - digits.size(), '0');
      const size_t last = digits.find_last_not_of('0');
      std::string out = (v < 0 ? "-" : "") + U128ToString(whole);
      if (last != std::string::npos) out += "." + digits.substr(0, last + 1);
      return out;
    }
  }
  return ExactDecimalViaPrintf(v);
}

std::string AllocatedDetailsLine(const Profile& p, const analysis::OpTree& tree, const analysis::PlacedMemory& placed,
                                 uint32_t record, const analysis::ReferencePolicy& policy) {
  const analysis::MemoryRecord& r = placed.records[record];
  std::string_view name = p.str(r.name);
  const analysis::NodeId owner = placed.owner[record];
  if (name.empty() && owner != analysis::kRootNode) name = p.str(p.slices[tree.node(owner).slice].name);
  std::string line(name);
  line += ", (" + TimeText(p, r.allocation_ns, false, policy) + ", " + TimeText(p, r.release_ns, true, policy);
  line += "), [duration: " + PyFloatRepr(analysis::MemoryDurationUs(r, p.meta, policy));
  line += "], [size: " + SizeText(p, r.size_kb, policy) + "]\n";
  return line;
}

std::vector<SheetSpec> BuildMemorySheets(const analysis::MemoryComparison& cmp, std::string_view base_path_arg,
                                         std::string_view comparison_path_arg) {
  std::vector<SheetSpec> sheets;
  sheets.push_back(MemoryStatisticSheet(cmp, base_path_arg, comparison_path_arg));
  if (cmp.details)
    sheets.push_back(MemoryCompareSheet(cmp, cmp.base_tree(), cmp.comparison_tree(), base_path_arg, comparison_path_arg));
  return sheets;
}

}  // namespace profdiff::report
