// A profile holds at most kMaxTracks tracks (a flow event keeps its track in 24 bits): past the
// limit, a new (pid, tid) gets the last track and a track_limit error, never a truncated id.
#include <gtest/gtest.h>

#include "profdiff/model/profile.h"

namespace profdiff {
namespace {

TEST(Track, PastTheLimitANewThreadGetsTheLastTrackAndAnError) {
  Profile p;
  p.meta.trace_file = "t.json";
  p.LimitTracksForTest(3);
  EXPECT_EQ(p.GetOrCreateTrack("1", "1"), 0u);
  EXPECT_EQ(p.GetOrCreateTrack("1", "2"), 1u);
  EXPECT_EQ(p.GetOrCreateTrack("2", "1"), 2u);
  EXPECT_EQ(p.diagnostics.count(DiagId::track_limit), 0u);
  EXPECT_EQ(p.GetOrCreateTrack("2", "2"), 2u);
  EXPECT_EQ(p.GetOrCreateTrack("3", "9"), 2u);
  EXPECT_EQ(p.tracks.size(), 3u);
  EXPECT_EQ(p.diagnostics.count(DiagId::track_limit), 2u);
  EXPECT_NE(p.diagnostics.Summary().find("pid 2 tid 2"), std::string::npos) << p.diagnostics.Summary();
  EXPECT_EQ(p.GetOrCreateTrack("1", "2"), 1u);  // the tracks made before are still found
}

TEST(Track, TheLimitFitsAFlowEventsTrack) {
  FlowEvent f;
  f.track = kMaxTracks - 1;
  EXPECT_EQ(static_cast<TrackId>(f.track), kMaxTracks - 1);
  f.phase = 'f';
  f.id_is_string = true;
  EXPECT_EQ(static_cast<TrackId>(f.track), kMaxTracks - 1);
  EXPECT_EQ(f.phase, static_cast<uint32_t>('f'));
}

}  // namespace
}  // namespace profdiff
