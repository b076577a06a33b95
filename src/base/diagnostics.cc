#include "profdiff/base/diagnostics.h"

#include <algorithm>

#include <fmt/format.h>

namespace profdiff {
namespace {

constexpr std::array<DiagInfo, kDiagCount> kDiagTable = {{
#define PD_DIAG_ROW_(id, sev, desc) DiagInfo{#id, DiagSeverity::sev, desc},
    PD_DIAGNOSTICS(PD_DIAG_ROW_)
#undef PD_DIAG_ROW_
}};

// The table is built from the same X-macro as the enum, so they cannot drift apart; checked anyway.
constexpr bool TableIsComplete() {
  for (const auto& info : kDiagTable) {
    if (info.name.empty() || info.description.empty()) return false;
  }
  return true;
}
static_assert(TableIsComplete(), "every diagnostic needs a name and a description");

}  // namespace

const DiagInfo& GetDiagInfo(DiagId id) { return kDiagTable[static_cast<size_t>(id)]; }

std::string_view SeverityName(DiagSeverity s) {
  switch (s) {
    case DiagSeverity::kInfo: return "info";
    case DiagSeverity::kWarning: return "warning";
    case DiagSeverity::kError: return "error";
  }
  return "?";
}

std::string SourceLocation::ToString() const {
  if (line > 0 && byte_offset >= 0) return fmt::format("{}:{} (byte {})", file, line, byte_offset);
  if (line > 0) return fmt::format("{}:{}", file, line);
  if (byte_offset >= 0) return fmt::format("{}@byte {}", file, byte_offset);
  return file;
}

void Diagnostics::Add(DiagId id, SourceLocation where, std::string detail) {
  Entry& e = entries_[static_cast<size_t>(id)];
  ++e.count;
  if (e.examples.size() < kMaxExamples) e.examples.push_back({std::move(where), std::move(detail)});
}

void Diagnostics::Insert(DiagId id, SourceLocation where, std::string detail) {
  Entry& e = entries_[static_cast<size_t>(id)];
  ++e.count;
  auto later = std::find_if(e.examples.begin(), e.examples.end(), [&](const Example& ex) {
    return ex.where.byte_offset > where.byte_offset;
  });
  if (later == e.examples.end() && e.examples.size() >= kMaxExamples) return;
  e.examples.insert(later, Example{std::move(where), std::move(detail)});
  if (e.examples.size() > kMaxExamples) e.examples.pop_back();
}

void Diagnostics::ShiftLines(int64_t lines) {
  for (Entry& e : entries_) {
    for (Example& ex : e.examples) {
      if (ex.where.line > 0) ex.where.line += lines;
    }
  }
}

void Diagnostics::Merge(const Diagnostics& other) {
  for (size_t i = 0; i < kDiagCount; ++i) {
    Entry& mine = entries_[i];
    const Entry& theirs = other.entries_[i];
    mine.count += theirs.count;
    for (const auto& ex : theirs.examples) {
      if (mine.examples.size() >= kMaxExamples) break;
      mine.examples.push_back(ex);
    }
  }
}

uint64_t Diagnostics::total(DiagSeverity at_least) const {
  uint64_t n = 0;
  for (size_t i = 0; i < kDiagCount; ++i) {
    if (kDiagTable[i].severity >= at_least) n += entries_[i].count;
  }
  return n;
}

Status Diagnostics::CheckStrict() const {
  for (size_t i = 0; i < kDiagCount; ++i) {
    const Entry& e = entries_[i];
    if (kDiagTable[i].severity != DiagSeverity::kError || e.count == 0) continue;
    std::string where = e.examples.empty() ? std::string("?") : e.examples.front().where.ToString();
    std::string detail = e.examples.empty() ? std::string() : e.examples.front().detail;
    return ParseError(fmt::format("{}: {} ({} occurrence{}, --strict){}{}", where,
                                  kDiagTable[i].description, e.count, e.count == 1 ? "" : "s",
                                  detail.empty() ? "" : ": ", detail));
  }
  return Status::Ok();
}

std::string Diagnostics::Summary() const {
  std::string out;
  for (size_t i = 0; i < kDiagCount; ++i) {
    const Entry& e = entries_[i];
    if (e.count == 0) continue;
    out += fmt::format("{} {} x{}: {}", SeverityName(kDiagTable[i].severity), kDiagTable[i].name,
                       e.count, kDiagTable[i].description);
    if (!e.examples.empty()) {
      out += fmt::format(" (first at {}{}{})", e.examples.front().where.ToString(),
                         e.examples.front().detail.empty() ? "" : ": ", e.examples.front().detail);
    }
    out += '\n';
  }
  return out;
}

}  // namespace profdiff
