#include "profdiff/report/json_report.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "profdiff/analysis/timeline/device_identity.h"
#include "profdiff/base/time.h"
#include "profdiff/report/output_file.h"

namespace profdiff::report {
namespace {

using json = OrderedJson;

}  // namespace

OrderedJson GateVerdictJson(const analysis::GateResult& g) {
  json j;
  j["result"] = std::string(analysis::Name(g.verdict));
  j["exit_code"] = analysis::GateExitCode(g.verdict);
  j["noise_floor_ms"] = g.noise_floor_ms;
  j["noise_floor_ns"] = g.noise_floor_ns;
  j["basis"] = std::string(analysis::Name(g.basis));
  auto steps = [](const std::optional<analysis::StepStats>& s) -> json {
    if (!s) return nullptr;
    return {{"count", s->count}, {"median_ns", s->median_ns}, {"mean_ns", s->mean_ns},
            {"min_ns", s->min_ns}, {"max_ns", s->max_ns}};
  };
  j["steps"] = {{"base", steps(g.base_steps)}, {"comparison", steps(g.comparison_steps)}};
  json thresholds = json::object();
  json checks = json::array();
  for (const analysis::GateCheck& c : g.checks) {
    thresholds[std::string(analysis::Name(c.category)) + "_pct"] = JsonNumber(c.threshold_pct);
    json e;
    e["category"] = std::string(analysis::Name(c.category));
    e["threshold_pct"] = JsonNumber(c.threshold_pct);
    e["evaluated"] = c.evaluated;
    e["result"] = std::string(analysis::Name(c.verdict));
    e["base_ns"] = c.evaluated ? json(c.base_ns) : json(nullptr);
    e["comparison_ns"] = c.evaluated ? json(c.comparison_ns) : json(nullptr);
    e["delta_ns"] = c.evaluated ? json(c.delta_ns) : json(nullptr);
    e["delta_ms"] = c.evaluated ? json(NsToMs(c.delta_ns)) : json(nullptr);
    e["delta_pct"] = c.evaluated && c.delta_pct ? JsonNumber(*c.delta_pct) : json(nullptr);
    e["reason"] = c.reason;
    checks.push_back(std::move(e));
  }
  j["thresholds"] = std::move(thresholds);
  j["checks"] = std::move(checks);
  j["incomparable_reasons"] = g.incomparable_reasons;
  j["unsafe_reasons"] = g.unsafe_reasons;
  return j;
}

namespace {

json Diags(const Diagnostics* d) {
  json arr = json::array();
  if (d == nullptr) return arr;
  for (size_t i = 0; i < kDiagCount; ++i) {
    const auto id = static_cast<DiagId>(i);
    const Diagnostics::Entry& e = d->entry(id);
    if (e.count == 0) continue;
    const DiagInfo& info = GetDiagInfo(id);
    json ex = json::array();
    for (const auto& x : e.examples)
      ex.push_back({{"where", x.where.ToString()}, {"detail", x.detail}});
    arr.push_back({{"id", std::string(info.name)},
                   {"severity", std::string(SeverityName(info.severity))},
                   {"description", std::string(info.description)},
                   {"count", e.count},
                   {"examples", std::move(ex)}});
  }
  return arr;
}

json Input(const JsonInput& in) {
  auto text = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
  auto number = [](int64_t v) { return v == kNoNumber ? json(nullptr) : json(v); };
  return {{"path", in.path},           {"format", in.format},           {"device", in.device},
          {"vendor", text(in.vendor)}, {"device_model", text(in.model)}, {"export", text(in.export_kind)},
          {"rank", number(in.rank)},   {"world_size", number(in.world_size)}};
}

// "text" | "db" | "trace-only" (Ascend), "trace" (Kineto): which rows an input can have.
std::string ExportKind(SourceFormat f) {
  switch (f) {
    case SourceFormat::kAscendDb: return "db";
    case SourceFormat::kAscendProfileDir:
    case SourceFormat::kAscendOutputDir: return "text";
    case SourceFormat::kAscendTraceView: return "trace-only";
    case SourceFormat::kKinetoJson: return "trace";
    default: return "";
  }
}

}  // namespace

JsonInput JsonInputFromProfile(const Profile& profile) {
  JsonInput in;
  in.path = profile.meta.input_path;
  in.format = std::string(Name(profile.meta.format));
  in.device = std::string(Name(profile.meta.device));
  const analysis::DeviceIdentity id = analysis::IdentifyDevice(profile);
  in.vendor = id.vendor;
  in.model = id.model;
  in.export_kind = ExportKind(profile.meta.format);
  in.rank = profile.meta.rank;
  in.world_size = profile.meta.world_size;
  return in;
}

namespace {

// The envelope: every top-level key before the sections.
json Envelope(const JsonReportContext& ctx, const analysis::GateResult& gate) {
  json j;
  j["schema"] = kJsonSchema;
  j["tool"] = {{"name", "profdiff"}, {"version", ctx.tool_version}};
  j["mode"] = ctx.mode;
  j["reference_line"] = ctx.reference_line ? json(*ctx.reference_line) : json(nullptr);
  j["inputs"] = {{"base", Input(ctx.base)}, {"comparison", Input(ctx.comparison)}};
  for (const auto& [key, value] : ctx.overall.items()) j[key] = value;
  j["verdict"] = gate.ran ? GateVerdictJson(gate) : json(nullptr);
  j["comparability_warnings"] = gate.warnings;
  // Why the pair is not a fair comparison (a gate on it is incomparable), with or without a gate.
  j["incomparable_reasons"] = gate.incomparable_reasons;
  j["warnings"] = ctx.warnings;
  j["diagnostics"] = {{"base", Diags(ctx.base_diagnostics)},
                      {"comparison", Diags(ctx.comparison_diagnostics)}};
  j["outputs"] = ctx.outputs;
  json empty = json::array();
  for (const EmptyComparison& e : ctx.empty_comparisons)
    empty.push_back({{"comparison", e.comparison}, {"sheets", e.sheets}, {"reason", e.reason}});
  j["empty_comparisons"] = empty;
  return j;
}

// Writes the document as nlohmann's dump(2) prints it (indent 2, UTF-8 kept, invalid UTF-8
// replaced), streaming each section's rows: the same serializer for every value, the layout of
// objects and arrays ("{\n", members at indent + 2, ",\n" between, "\n" + indent + "}") written here
// only where a section has rows.
class DocumentWriter {
 public:
  explicit DocumentWriter(std::ostream& out)
      : out_(out),
        serializer_(nlohmann::detail::output_adapter<char>(out), ' ', json::error_handler_t::replace) {}

  void Document(const json& envelope, const std::vector<JsonSection>& sections) {
    out_ << "{\n";
    size_t left = envelope.size() + sections.size();
    for (const auto& [key, value] : envelope.items()) {
      Key(key, 2);
      Value(value, 2);
      Separator(--left);
    }
    for (const JsonSection& s : sections) {
      Key(s.key, 2);
      Body(s.body, 2);
      Separator(--left);
    }
    out_ << "}\n";
  }

 private:
  void Indent(unsigned n) {
    for (unsigned i = 0; i < n; ++i) out_.put(' ');
  }
  void Key(const std::string& key, unsigned indent) {
    Indent(indent);
    serializer_.dump(json(key), false, false, 0);
    out_ << ": ";
  }
  void Value(const json& v, unsigned indent) { serializer_.dump(v, true, false, 2, indent); }
  void Separator(size_t left) { out_ << (left == 0 ? "\n" : ",\n"); }

  void Body(const JsonBody& body, unsigned indent) {
    if (body.rows.empty() || !body.value.is_object() || body.value.empty()) {
      Value(body.rows.empty() ? body.value : MaterializeJsonBody(body), indent);
      return;
    }
    out_ << "{\n";
    size_t left = body.value.size();
    for (const auto& [key, value] : body.value.items()) {
      Key(key, indent + 2);
      const JsonRows* rows = nullptr;
      for (const auto& [name, r] : body.rows)
        if (name == key) rows = &r;
      if (rows != nullptr) {
        Rows(*rows, indent + 2);
      } else {
        Value(value, indent + 2);
      }
      Separator(--left);
    }
    Indent(indent);
    out_ << '}';
  }

  void Rows(const JsonRows& rows, unsigned indent) {
    if (rows.count == 0) {
      out_ << "[]";
      return;
    }
    out_ << "[\n";
    for (size_t i = 0; i < rows.count; ++i) {
      Indent(indent + 2);
      Value(rows.row(i), indent + 2);
      Separator(rows.count - 1 - i);
    }
    Indent(indent);
    out_ << ']';
  }

  std::ostream& out_;
  nlohmann::detail::serializer<OrderedJson> serializer_;
};

}  // namespace

OrderedJson BuildJsonSummaryDocument(const JsonReportContext& ctx, const analysis::GateResult& gate) {
  json j = Envelope(ctx, gate);
  for (const JsonSection& s : ctx.sections) j[s.key] = s.body.value;
  return j;
}

OrderedJson BuildJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate) {
  json j = Envelope(ctx, gate);
  for (const JsonSection& s : ctx.sections) j[s.key] = MaterializeJsonBody(s.body);
  return j;
}

std::string DumpJsonReport(const OrderedJson& j) {
  // Invalid UTF-8 in labels or paths is replaced rather than aborting the dump.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void WriteJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate, std::ostream& out) {
  DocumentWriter(out).Document(Envelope(ctx, gate), ctx.sections);
}

Status WriteJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate,
                       const std::string& path, bool force) {
  return WriteViaTempFile(path, force, [&](const std::string& tmp) -> Status {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return IoError("cannot write " + path + ": " + std::strerror(errno));
    WriteJsonReport(ctx, gate, out);
    out.flush();
    if (!out) return IoError("cannot write " + path + ": " + std::strerror(errno));
    return Status::Ok();
  });
}

std::string RenderJsonReport(const JsonReportContext& ctx, const analysis::GateResult& gate) {
  std::ostringstream out;
  WriteJsonReport(ctx, gate, out);
  return std::move(out).str();
}

}  // namespace profdiff::report
