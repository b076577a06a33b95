// CSV side files of an Ascend text export: kernel_details.csv, op_statistic.csv,
// operator_memory.csv, memory_record.csv, step_trace_time.csv.
#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "profdiff/base/time.h"
#include "profdiff/io/csv_reader.h"
#include "profdiff/loaders/ascend_side_files.h"

namespace profdiff {
namespace {

// Cell conversions with diagnostics naming file:line and the column.
class Cells {
 public:
  Cells(Profile& profile, const CsvReader& reader) : profile_(profile), reader_(reader) {}

  enum class Result { kOk, kAbsent, kBad, kOutOfRange };

  // µs text -> ns. Empty / "N/A" -> kAbsent (out untouched). A value outside [kMinTimeNs, kMaxTimeNs]
  // is kOutOfRange, diagnosed here.
  Result MicrosNs(std::string_view cell, int64_t line, int64_t* out) {
    if (IsAbsentCell(cell)) return Result::kAbsent;
    StatusOr<ExactDecimal> v = ParseScaledDecimal(TrimCell(cell), 3);
    if (!v.ok()) return Result::kBad;
    if (!TimeInRange(v->value)) {
      profile_.diagnostics.Add(DiagId::time_out_of_range, Where(line), std::string(TrimCell(cell)));
      return Result::kOutOfRange;
    }
    if (v->rounded) {
      profile_.diagnostics.Add(DiagId::sub_ns_rounded, Where(line), std::string(TrimCell(cell)));
    }
    *out = v->value;
    return Result::kOk;
  }

  // Optional metric column: kAbsentNs when the column or the value is absent; a bad value is a
  // csv_bad_number diagnostic and absent too.
  int64_t MetricNs(const CsvRecord& rec, int col) {
    if (col < 0) return kAbsentNs;
    int64_t v = kAbsentNs;
    const Result r = MicrosNs(rec.Get(col), rec.line(), &v);
    if (r == Result::kBad) BadNumber(rec, col);
    if (r == Result::kBad || r == Result::kOutOfRange) return kAbsentNs;
    return v;
  }

  // Integer column ("Step Id", "Task ID", "Count"): kNoNumber when absent or bad (bad is diagnosed).
  int64_t Int(const CsvRecord& rec, int col) {
    if (col < 0) return kNoNumber;
    std::string_view cell = rec.Get(col);
    if (IsAbsentCell(cell)) return kNoNumber;
    std::string_view t = TrimCell(cell);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size()) {
      BadNumber(rec, col);
      return kNoNumber;
    }
    return v;
  }

  // Floating column (sizes in KB/MB, not times): 0 when absent or bad (bad is diagnosed).
  double Double(const CsvRecord& rec, int col) {
    if (col < 0) return 0;
    std::string_view cell = rec.Get(col);
    if (IsAbsentCell(cell)) return 0;
    std::string_view t = TrimCell(cell);
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size()) {
      BadNumber(rec, col);
      return 0;
    }
    return v;
  }

  StringId Str(const CsvRecord& rec, int col) {
    return col < 0 ? kEmptyString : profile_.strings.Intern(rec.Get(col));
  }

  void BadNumber(const CsvRecord& rec, int col) {
    profile_.diagnostics.Add(DiagId::csv_bad_number, Where(rec.line()),
                             fmt::format("column '{}': '{}'", Column(col), rec.Get(col)));
  }
  // A required time column: false (diagnosed) when absent, bad or out of range.
  bool Time(const CsvRecord& rec, int col, int64_t* out) {
    const Result r = MicrosNs(rec.Get(col), rec.line(), out);
    if (r == Result::kAbsent || r == Result::kBad) BadTime(rec, col);
    return r == Result::kOk;
  }
  void EndOutOfRange(const CsvRecord& rec, int col) {
    profile_.diagnostics.Add(DiagId::time_out_of_range, Where(rec.line()),
                             fmt::format("column '{}': '{}': the row ends beyond the range", Column(col),
                                         rec.Get(col)));
  }
  void BadTime(const CsvRecord& rec, int col) {
    profile_.diagnostics.Add(DiagId::csv_bad_time, Where(rec.line()),
                             fmt::format("column '{}': '{}'", Column(col), rec.Get(col)));
  }

 private:
  SourceLocation Where(int64_t line) const { return {reader_.file(), line, -1}; }
  std::string_view Column(int col) const {
    return col >= 0 && static_cast<size_t>(col) < reader_.header().size()
               ? std::string_view(reader_.header()[static_cast<size_t>(col)])
               : std::string_view("?");
  }

  Profile& profile_;
  const CsvReader& reader_;
};

// The index of a column the file cannot do without; an error naming the header line without it.
StatusOr<int> RequiredColumn(const CsvReader& r, std::string_view column) {
  const int c = r.ColumnIndex(column);
  if (c < 0) {
    return ParseError(fmt::format("{}:{}: required column '{}' not in the header", r.file(),
                                  r.header_line(), column));
  }
  return c;
}

// The loop every loader below shares: `fill(record, row)` turns each record into a Row, or returns
// false to skip it (having diagnosed why). The rows come back only when the whole file was read.
template <typename Row, typename Fill>
StatusOr<std::vector<Row>> ReadRows(CsvReader& reader, Fill&& fill) {
  std::vector<Row> rows;
  CsvRecord rec;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool more, reader.Next(rec));
    if (!more) return rows;
    Row row;
    if (fill(rec, row)) rows.push_back(std::move(row));
  }
}

// ---- kernel_details.csv -------------------------------------------------------------------------

Status LoadKernelDetails(CsvReader& r, Cells& cells, Profile& profile) {
  PD_ASSIGN_OR_RETURN(const int c_name, RequiredColumn(r, "Name"));
  PD_ASSIGN_OR_RETURN(const int c_start, RequiredColumn(r, "Start Time(us)"));
  PD_ASSIGN_OR_RETURN(const int c_dur, RequiredColumn(r, "Duration(us)"));
  const int c_type = r.ColumnIndex("Type");
  const int c_shapes = r.ColumnIndex("Input Shapes");
  const int c_core = r.ColumnIndexAny({"Accelerator Core", "Task Type"});
  const int c_wait = r.ColumnIndex("Wait Time(us)");
  const int c_step = r.ColumnIndexAny({"Step Id", "Step ID"});
  const int c_aicore = r.ColumnIndex("aicore_time(us)");
  const int c_mac = r.ColumnIndex("mac_time(us)");
  const int c_aiv_vec = r.ColumnIndex("aiv_vec_time(us)");
  const int c_aic_mac = r.ColumnIndex("aic_mac_time(us)");
  const int c_aic_mte2 = r.ColumnIndex("aic_mte2_time(us)");
  const int c_aiv = r.ColumnIndex("aiv_time(us)");

  KernelDetailsTable t;
  t.file = r.file();
  t.columns = r.header();
  t.has_mac_time = c_mac >= 0;
  t.has_aiv_vec_time = c_aiv_vec >= 0;
  auto fill = [&](const CsvRecord& rec, KernelDetailRow& row) {
    if (!cells.Time(rec, c_start, &row.start_ns) || !cells.Time(rec, c_dur, &row.dur_ns)) return false;
    if (!SpanInRange(row.start_ns, row.dur_ns)) {
      cells.EndOutOfRange(rec, c_dur);
      return false;
    }
    row.type = cells.Str(rec, c_type);
    row.name = cells.Str(rec, c_name);
    row.input_shapes = cells.Str(rec, c_shapes);
    row.accelerator_core = cells.Str(rec, c_core);
    (void)cells.MetricNs(rec, c_wait);  // checked, not kept (KernelDetailRow)
    row.step_id = cells.Int(rec, c_step);
    const int64_t aicore_ns = cells.MetricNs(rec, c_aicore), mac_ns = cells.MetricNs(rec, c_mac),
                  aiv_vec_ns = cells.MetricNs(rec, c_aiv_vec);
    row.has_mac_or_vec_time = mac_ns != kAbsentNs || aiv_vec_ns != kAbsentNs;
    row.mac_or_aicore_positive = mac_ns > 0 || aicore_ns > 0;  // kAbsentNs is negative
    row.aic_mac_time_ns = cells.MetricNs(rec, c_aic_mac);
    row.aic_mte2_time_ns = cells.MetricNs(rec, c_aic_mte2);
    row.aiv_time_ns = cells.MetricNs(rec, c_aiv);
    row.line = static_cast<uint32_t>(rec.line());
    return true;
  };
  PD_ASSIGN_OR_RETURN(t.rows, ReadRows<KernelDetailRow>(r, fill));
  t.present = true;
  profile.npu.kernel_details = std::move(t);
  return Status::Ok();
}

// ---- op_statistic.csv ---------------------------------------------------------------------------

Status LoadOpStatistic(CsvReader& r, Cells& cells, Profile& profile) {
  PD_ASSIGN_OR_RETURN(const int c_type, RequiredColumn(r, "OP Type"));
  PD_ASSIGN_OR_RETURN(const int c_core, RequiredColumn(r, "Core Type"));
  const int c_count = r.ColumnIndex("Count");
  const int c_total = r.ColumnIndex("Total Time(us)");
  const int c_avg = r.ColumnIndex("Avg Time(us)");
  const int c_max = r.ColumnIndex("Max Time(us)");
  const int c_min = r.ColumnIndex("Min Time(us)");

  auto fill = [&](const CsvRecord& rec, OpStatisticRow& row) {
    auto time0 = [&](int col) {  // absent or bad -> 0 (bad diagnosed)
      const int64_t v = cells.MetricNs(rec, col);
      return v == kAbsentNs ? int64_t{0} : v;
    };
    row.op_type = cells.Str(rec, c_type);
    row.core_type = cells.Str(rec, c_core);
    const int64_t count = cells.Int(rec, c_count);
    row.count = count == kNoNumber ? 0 : count;
    row.total_ns = time0(c_total);
    row.avg_ns = time0(c_avg);
    row.max_ns = time0(c_max);
    row.min_ns = time0(c_min);
    return true;
  };
  PD_ASSIGN_OR_RETURN(profile.npu.op_statistic, ReadRows<OpStatisticRow>(r, fill));
  profile.npu.has_op_statistic = true;
  return Status::Ok();
}

// ---- operator_memory.csv ------------------------------------------------------------------------

Status LoadOperatorMemory(CsvReader& r, Cells& cells, Profile& profile) {
  PD_ASSIGN_OR_RETURN(const int c_name, RequiredColumn(r, "Name"));
  const int c_size = r.ColumnIndex("Size(KB)");
  const int c_alloc = r.ColumnIndex("Allocation Time(us)");
  const int c_release = r.ColumnIndex("Release Time(us)");
  const int c_dur = r.ColumnIndex("Duration(us)");
  const int c_device = r.ColumnIndex("Device Type");

  auto fill = [&](const CsvRecord& rec, OperatorMemoryRow& row) {
    row.name = cells.Str(rec, c_name);
    row.size_kb = cells.Double(rec, c_size);
    row.allocation_ns = cells.MetricNs(rec, c_alloc);
    row.release_ns = cells.MetricNs(rec, c_release);
    row.duration_ns = cells.MetricNs(rec, c_dur);
    row.device_type = cells.Str(rec, c_device);
    row.line = static_cast<uint32_t>(rec.line());
    return true;
  };
  PD_ASSIGN_OR_RETURN(profile.npu.operator_memory, ReadRows<OperatorMemoryRow>(r, fill));
  profile.npu.has_operator_memory = true;
  return Status::Ok();
}

// ---- memory_record.csv --------------------------------------------------------------------------

Status LoadMemoryRecord(CsvReader& r, Cells& cells, Profile& profile) {
  PD_ASSIGN_OR_RETURN(const int c_reserved, RequiredColumn(r, "Total Reserved(MB)"));
  // What a comparison reads (MemoryRecordSummary): the rows and the largest reserved total (an
  // empty or bad cell is 0, diagnosed). Taken only when the whole file was read.
  MemoryRecordSummary summary;
  CsvRecord rec;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool more, r.Next(rec));
    if (!more) break;
    ++summary.rows;
    summary.peak_reserved_mb = std::max(summary.peak_reserved_mb, cells.Double(rec, c_reserved));
  }
  profile.npu.memory_record = summary;
  profile.npu.has_memory_record = true;
  return Status::Ok();
}

// ---- step_trace_time.csv ------------------------------------------------------------------------

// A row is the step cell (into t.steps) and the µs values of the other columns.
// float(cell) as Python reads it (correctly rounded, like from_chars); NaN when absent or bad.
double PythonFloatOfCell(std::string_view cell) {
  if (IsAbsentCell(cell)) return std::numeric_limits<double>::quiet_NaN();
  const std::string_view t = TrimCell(cell);
  double v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::numeric_limits<double>::quiet_NaN();
  return v;
}

Status LoadStepTraceTime(CsvReader& r, Cells& cells, Profile& profile) {
  StepTraceTable t;
  t.columns.assign(r.header().begin() + 1, r.header().end());
  auto fill = [&](const CsvRecord& rec, std::vector<int64_t>& values) {
    t.steps.emplace_back(TrimCell(rec[0]));
    values.reserve(t.columns.size());
    std::vector<double>& floats = t.values_us_float.emplace_back();
    for (size_t c = 1; c < rec.size(); ++c) {
      values.push_back(cells.MetricNs(rec, static_cast<int>(c)));
      floats.push_back(PythonFloatOfCell(rec.Get(static_cast<int>(c))));
    }
    return true;
  };
  PD_ASSIGN_OR_RETURN(t.values_ns, ReadRows<std::vector<int64_t>>(r, fill));
  t.present = true;
  profile.npu.step_trace = std::move(t);
  return Status::Ok();
}

// A CSV side file's loader: opens the file, then hands the reader to the file's Load function,
// which looks up its columns, reads the rows (ReadRows) and moves its table into the profile.
class CsvSideFileLoader final : public FileLoader {
 public:
  using LoadFn = Status (*)(CsvReader& reader, Cells& cells, Profile& profile);
  CsvSideFileLoader(std::string_view name, LoadFn load) : name_(name), load_(load) {}
  std::string_view name() const override { return name_; }
  Status Load(const std::string& file, Profile& profile, const LoadOptions&) const override {
    PD_ASSIGN_OR_RETURN(std::unique_ptr<CsvReader> reader, CsvReader::Open(file, &profile.diagnostics));
    Cells cells(profile, *reader);
    return load_(*reader, cells, profile);
  }

 private:
  std::string_view name_;
  LoadFn load_;
};

}  // namespace

const FileLoader& KernelDetailsCsvLoader() {
  static const CsvSideFileLoader loader(kKernelDetailsCsv, LoadKernelDetails);
  return loader;
}
const FileLoader& OpStatisticCsvLoader() {
  static const CsvSideFileLoader loader(kOpStatisticCsv, LoadOpStatistic);
  return loader;
}
const FileLoader& OperatorMemoryCsvLoader() {
  static const CsvSideFileLoader loader(kOperatorMemoryCsv, LoadOperatorMemory);
  return loader;
}
const FileLoader& MemoryRecordCsvLoader() {
  static const CsvSideFileLoader loader(kMemoryRecordCsv, LoadMemoryRecord);
  return loader;
}
const FileLoader& StepTraceTimeCsvLoader() {
  static const CsvSideFileLoader loader(kStepTraceTimeCsv, LoadStepTraceTime);
  return loader;
}

}  // namespace profdiff
