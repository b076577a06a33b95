// InspectText/InspectJson on a profile big enough that its slices are summed beside its python
// functions and steps (two threads): the same text and JSON as on one thread.
#include <gtest/gtest.h>

#include <string>

#include "profdiff/cli/commands.h"
#include "profdiff/model/profile.h"

namespace profdiff {
namespace {

Profile BigProfile() {
  Profile p;
  p.processes.push_back({p.strings.Intern("7"), 7, p.strings.Intern("python"), kEmptyString, kNoNumber});
  for (int t = 0; t < 3; ++t)
    p.tracks.push_back({0, p.strings.Intern(std::to_string(t)), t, kEmptyString, kNoNumber});
  const StringId op = p.strings.Intern("aten::add");
  constexpr int kSlices = (1 << 20) + 1000;  // past the threshold of a second thread
  p.slices.reserve(kSlices);
  for (int i = 0; i < kSlices; ++i) {
    Slice& s = p.slices.emplace_back();
    s.ts_ns = 1000 + int64_t{i} * 10;
    s.dur_ns = 5 + i % 7;
    s.name = op;
    s.track = static_cast<TrackId>(i % 3);
    s.kind = i % 5 == 0 ? SliceKind::kNpuTask : SliceKind::kCpuOp;
  }
  // Step markers, out of start order in the array.
  for (int step : {3, 1, 2}) {
    Slice& s = p.slices.emplace_back();
    s.ts_ns = 500 + int64_t{step} * 1000;
    s.dur_ns = 900;
    s.name = p.strings.Intern("ProfilerStep#" + std::to_string(step));
    s.kind = SliceKind::kStepMarker;
  }
  // Python functions starting before and ending after every slice: they set the span's ends.
  p.python_functions.Add({10, 20, 1, op});
  p.python_functions.Add({20, int64_t{1} << 30, 2, op});
  return p;
}

TEST(InspectSummary, TwoThreadsPrintWhatOneThreadPrints) {
  const Profile p = BigProfile();
  const std::string one = cli::InspectText(p, 1), two = cli::InspectText(p, 0);
  EXPECT_EQ(one, two);
  EXPECT_EQ(cli::InspectJson(p, 1), cli::InspectJson(p, 2));
  // The figures themselves: the python functions and the steps are in the text.
  EXPECT_NE(two.find("slices: 1049581\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  python_function      2\n"), std::string::npos) << two;
  EXPECT_NE(two.find("steps: 3\n  ProfilerStep#1 "), std::string::npos) << two;
  EXPECT_NE(two.find("first ts_ns 10, last ts_ns 10496750, end_ns 1073741844,"), std::string::npos) << two;
  EXPECT_NE(two.find("tid 1  name \"\"  slices 349860\n"), std::string::npos) << two;
}

}  // namespace
}  // namespace profdiff
