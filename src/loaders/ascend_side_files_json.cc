// JSON side files of an Ascend text export: communication.json, profiler_info_*.json,
// profiler_metadata.json. They are small and read whole with nlohmann::ordered_json (file order of
// the step keys matters: the last step with a bandwidth block wins in the reference).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <utility>

#include "profdiff/io/csv_reader.h"
#include "profdiff/loaders/ascend_side_files.h"

namespace profdiff {
namespace {

using Json = nlohmann::ordered_json;

StatusOr<std::string> ReadWholeFile(const std::string& file) {
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    if (err == ENOENT) return NotFound(fmt::format("{}: no such file", file));
    return IoError(fmt::format("{}: cannot open: {}", file, std::strerror(err)));
  }
  std::string text;
  char buf[64 * 1024];
  for (;;) {
    const size_t n = std::fread(buf, 1, sizeof buf, f);
    text.append(buf, n);
    if (n < sizeof buf) break;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return IoError(fmt::format("{}: read error", file));
  return text;
}

// Parses `text`; a syntax error names the file and byte offset.
StatusOr<Json> ParseJson(const std::string& file, const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    return ParseError(fmt::format("{}@byte {}: invalid JSON: {}", file, e.byte, e.what()));
  } catch (const Json::exception& e) {
    return ParseError(fmt::format("{}: invalid JSON: {}", file, e.what()));
  }
}

// Byte offset of the top-level value (after white space and a UTF-8 BOM), for messages.
size_t ValueOffset(const std::string& text) {
  size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  return i;
}

double NumberOr0(const Json& obj, std::string_view key) {
  auto it = obj.find(std::string(key));
  if (it == obj.end() || !it->is_number()) return 0;
  return it->get<double>();
}

const Json* FindObject(const Json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(std::string(key));
  if (it == obj.end() || !it->is_object()) return nullptr;
  return &*it;
}

// ---- communication.json, communication_matrix.json: every operator whole -------------------------

// Every operator of a `step -> type -> name -> value` document, in file order, but the "Total ..."
// entries (the reference skips a name that starts with "Total"). A step or type whose value is not
// an object is skipped and named, as the reference skips it with a warning.
CommunicationOpRecords OperatorRecords(const Json& doc) {
  CommunicationOpRecords out;
  out.present = true;
  for (const auto& [step_key, step] : doc.items()) {
    if (!step.is_object()) {
      out.skipped.push_back(fmt::format("{}: not an object", step_key));
      continue;
    }
    for (const auto& [type, ops] : step.items()) {
      if (!ops.is_object()) {
        out.skipped.push_back(fmt::format("{}/{}: not an object", step_key, type));
        continue;
      }
      for (const auto& [name, value] : ops.items()) {
        if (name.starts_with("Total")) continue;
        out.ops.push_back(CommunicationOpRecord{step_key, type, name, value.dump()});
      }
    }
  }
  return out;
}

class CommunicationLoader final : public FileLoader {
 public:
  std::string_view name() const override { return "communication.json"; }

  Status Load(const std::string& file, Profile& profile, const LoadOptions& options) const override {
    PD_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(file));
    CommunicationInfo info;
    info.present = true;
    if (TrimCell(text).empty()) {
      info.empty = true;
      profile.npu.communication = std::move(info);
      return Status::Ok();
    }
    PD_ASSIGN_OR_RETURN(Json doc, ParseJson(file, text));
    if (!doc.is_object()) {
      return ParseError(fmt::format("{}@byte {}: top level is a JSON {}, expected an object of steps", file,
                                    ValueOffset(text), doc.type_name()));
    }
    info.empty = doc.empty();
    for (const auto& [step_key, step] : doc.items()) {
      CommunicationStep s;
      s.step = step_key;
      const Json* collective = FindObject(step, "collective");
      const Json* total = collective != nullptr ? FindObject(*collective, "Total Op Info") : nullptr;
      const Json* bw = total != nullptr ? FindObject(*total, "Communication Bandwidth Info") : nullptr;
      if (bw != nullptr) {
        s.has_collective_bandwidth = true;
        for (const auto& [transport, v] : bw->items()) {
          if (!v.is_object()) continue;
          TransportBandwidth t;
          t.transit_size_mb = NumberOr0(v, "Transit Size(MB)");
          t.transit_time_ms = NumberOr0(v, "Transit Time(ms)");
          t.bandwidth_gb_s = t.transit_time_ms > 0 ? t.transit_size_mb / t.transit_time_ms : 0;  // MB/ms
          s.collective_bandwidth[transport] = t;
        }
      }
      info.steps.push_back(std::move(s));
    }
    if (options.cluster_tables) info.records = OperatorRecords(doc);
    profile.npu.communication = std::move(info);
    return Status::Ok();
  }
};

class CommunicationMatrixLoader final : public FileLoader {
 public:
  std::string_view name() const override { return "communication_matrix.json"; }

  Status Load(const std::string& file, Profile& profile, const LoadOptions&) const override {
    PD_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(file));
    if (TrimCell(text).empty()) {
      profile.npu.communication_matrix.present = true;
      return Status::Ok();
    }
    PD_ASSIGN_OR_RETURN(Json doc, ParseJson(file, text));
    if (!doc.is_object()) {
      return ParseError(fmt::format("{}@byte {}: top level is a JSON {}, expected an object of steps", file,
                                    ValueOffset(text), doc.type_name()));
    }
    profile.npu.communication_matrix = OperatorRecords(doc);
    return Status::Ok();
  }
};

// ---- profiler_info_*.json -----------------------------------------------------------------------

class ProfilerInfoLoader final : public FileLoader {
 public:
  std::string_view name() const override { return "profiler_info.json"; }

  Status Load(const std::string& file, Profile& profile, const LoadOptions&) const override {
    PD_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(file));
    PD_ASSIGN_OR_RETURN(Json doc, ParseJson(file, text));
    if (!doc.is_object() || doc.empty()) {
      return ParseError(fmt::format("{}@byte {}: invalid profiler info: top level is {} JSON {}, expected a "
                                    "non-empty object",
                                    file, ValueOffset(text), doc.empty() ? "an empty" : "a", doc.type_name()));
    }
    std::string level;
    if (const Json* config = FindObject(doc, "config")) {
      if (const Json* exp = FindObject(*config, "experimental_config")) {
        auto it = exp->find("_profiler_level");
        if (it != exp->end() && it->is_string()) level = it->get<std::string>();
      }
    }
    int64_t rank = kNoNumber;
    auto it = doc.find("rank_id");
    if (it != doc.end()) {
      if (it->is_number_integer()) {
        rank = it->get<int64_t>();
      } else if (it->is_string()) {  // "0" in 2025-Q4 files
        const std::string& s = it->get_ref<const std::string&>();
        int64_t v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && p == s.data() + s.size() && !s.empty()) rank = v;
      }
    }
    profile.meta.profiler_info_json = std::move(text);
    profile.meta.profiler_level = std::move(level);
    if (rank != kNoNumber) profile.meta.rank = rank;
    return Status::Ok();
  }
};

// ---- profiler_metadata.json ---------------------------------------------------------------------

class ProfilerMetadataLoader final : public FileLoader {
 public:
  std::string_view name() const override { return "profiler_metadata.json"; }

  Status Load(const std::string& file, Profile& profile, const LoadOptions&) const override {
    PD_ASSIGN_OR_RETURN(std::string text, ReadWholeFile(file));
    if (TrimCell(text).empty()) return Status::Ok();  // empty metadata: nothing to take
    PD_ASSIGN_OR_RETURN(Json doc, ParseJson(file, text));
    if (!doc.is_object()) {
      return ParseError(fmt::format("{}@byte {}: top level is a JSON {}, expected an object", file,
                                    ValueOffset(text), doc.type_name()));
    }
    std::map<std::string, std::string> names;
    std::map<std::string, std::vector<int64_t>> ranks;
    if (const Json* groups = FindObject(doc, "parallel_group_info")) {
      for (const auto& [group_id, info] : groups->items()) {
        if (!info.is_object()) continue;
        auto it = info.find("group_name");
        if (it != info.end() && it->is_string()) names[group_id] = it->get<std::string>();
        std::vector<int64_t>& list = ranks[group_id];
        auto gr = info.find("global_ranks");
        if (gr == info.end() || !gr->is_array()) continue;
        for (const Json& r : *gr)
          if (r.is_number_integer()) list.push_back(r.get<int64_t>());
        std::sort(list.begin(), list.end());
      }
    }
    profile.npu.parallel_group_names = std::move(names);
    profile.npu.parallel_group_ranks = std::move(ranks);
    if (const Json* args = FindObject(doc, "distributed_args")) {
      if (!args->empty()) profile.npu.distributed_args_json = args->dump();
      auto it = args->find("world_size");
      if (it != args->end() && it->is_number_integer()) profile.meta.world_size = it->get<int64_t>();
    }
    return Status::Ok();
  }
};

}  // namespace

const FileLoader& CommunicationJsonLoader() {
  static const CommunicationLoader loader;
  return loader;
}
const FileLoader& CommunicationMatrixJsonLoader() {
  static const CommunicationMatrixLoader loader;
  return loader;
}
const FileLoader& ProfilerInfoJsonLoader() {
  static const ProfilerInfoLoader loader;
  return loader;
}
const FileLoader& ProfilerMetadataJsonLoader() {
  static const ProfilerMetadataLoader loader;
  return loader;
}

}  // namespace profdiff
