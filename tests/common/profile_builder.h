// Builds small Profiles in code for the analysis tests (overall, operators, and the comparisons to come).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profdiff/model/profile.h"

namespace profdiff::analysis::testing {

class ProfileBuilder {
 public:
  explicit ProfileBuilder(DeviceKind device) {
    p.meta.device = device;
    p.meta.format = device == DeviceKind::kGpu ? SourceFormat::kKinetoJson : SourceFormat::kAscendProfileDir;
    p.meta.path_level = device == DeviceKind::kNpu ? "profiling" : "";
  }
  TrackId Track(std::string_view pid, std::string_view tid, std::string_view name = "", int64_t sort = kNoNumber) {
    TrackId t = p.GetOrCreateTrack(pid, tid);
    if (!name.empty()) p.tracks[t].name = p.strings.Intern(name);
    p.tracks[t].sort_index = sort;
    return t;
  }
  // args: integer args, then string args.
  SliceId Add(TrackId track, SliceKind kind, std::string_view name, std::string_view cat, int64_t ts, int64_t dur,
              std::vector<std::pair<ArgKey, int64_t>> ints = {},
              std::vector<std::pair<ArgKey, std::string>> texts = {}) {
    Slice s;
    s.ts_ns = ts;
    s.dur_ns = dur;
    s.name = p.strings.Intern(name);
    s.cat_index = p.CatIndex(p.strings.Intern(cat));
    s.track = track;
    s.kind = kind;
    s.args_begin = static_cast<uint32_t>(p.args.size());
    for (auto& [k, v] : ints) p.args.push_back(Arg::Int(k, v, p.strings));
    for (auto& [k, v] : texts) p.args.push_back(Arg::Text(k, ArgType::kString, p.strings.Intern(v)));
    s.args_count = static_cast<uint8_t>(p.args.size() - s.args_begin);
    p.slices.push_back(s);
    return static_cast<SliceId>(p.slices.size() - 1);
  }
  void Flow(uint64_t id, std::string_view cat, int64_t start_ts, TrackId start_track, int64_t end_ts,
            TrackId end_track) {
    FlowEvent s;
    s.id = id;
    s.phase = 's';
    s.ts_ns = start_ts;
    s.track = start_track;
    s.cat = p.strings.Intern(cat);
    FlowEvent f = s;
    f.phase = 'f';
    f.ts_ns = end_ts;
    f.track = end_track;
    p.flows.push_back(s);
    p.flows.push_back(f);
  }
  Profile p;
};

}  // namespace profdiff::analysis::testing
