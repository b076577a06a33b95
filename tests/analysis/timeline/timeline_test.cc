// Timeline facts derived once per profile: flow links, steps, the backward thread.
#include "profdiff/analysis/timeline/timeline.h"

#include <gtest/gtest.h>

#include "../../common/profile_builder.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

// Kernel launch `i` of `links` starts at (start_ts, start_track) and ends at (end_ts, end_track).
void ExpectLaunch(const Profile& p, const FlowLinks& links, size_t i, int64_t start_ts, TrackId start_track,
                  int64_t end_ts, TrackId end_track) {
  EXPECT_EQ(links.LaunchStart(p, i).ts_ns, start_ts) << i;
  EXPECT_EQ(links.LaunchStart(p, i).track, start_track) << i;
  EXPECT_EQ(links.LaunchEnd(p, i).ts_ns, end_ts) << i;
  EXPECT_EQ(links.LaunchEnd(p, i).track, end_track) << i;
}

TEST(Flows, PairsByKindAndIdInFirstSeenOrderLaterEventsReplace) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "10"), gpu = b.Track("0", "7");
  b.Flow(5, "ac2g", 100, cpu, 200, gpu);
  b.Flow(3, "AC2G", 110, cpu, 210, gpu);
  b.Flow(5, "fwdbwd", 120, cpu, 220, cpu);  // same id, other kind: its own flow
  b.Flow(5, "ac2g", 130, cpu, 230, gpu);    // replaces the first id-5 launch flow
  b.Flow(9, "other", 140, cpu, 240, gpu);   // not a used kind
  FlowEvent lone;
  lone.id = 77;
  lone.phase = 's';
  lone.cat = b.p.strings.Intern("ac2g");
  b.p.flows.push_back(lone);  // start without end
  FlowLinks links = LinkFlows(b.p, std::nullopt);
  ASSERT_EQ(links.kernel_launch.size(), 2u);
  EXPECT_EQ(b.p.flows[links.kernel_launch[0].start].ts_ns, 130);  // id 5 first seen first
  EXPECT_EQ(b.p.flows[links.kernel_launch[0].end].ts_ns, 230);
  EXPECT_EQ(b.p.flows[links.kernel_launch[1].start].ts_ns, 110);  // id 3
  ASSERT_EQ(links.fwd_bwd.size(), 1u);
  EXPECT_EQ(b.p.flows[links.fwd_bwd[0].end].ts_ns, 220);
  EXPECT_EQ(links.incomplete, 1u);
}

TEST(Flows, StringAndIntegerIdsNeverCollide) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "10"), gpu = b.Track("0", "7");
  b.Flow(4, "ac2g", 100, cpu, 200, gpu);
  b.Flow(4, "ac2g", 300, cpu, 400, gpu);
  b.p.flows[2].id_is_string = true;
  b.p.flows[3].id_is_string = true;
  EXPECT_EQ(LinkFlows(b.p, std::nullopt).kernel_launch.size(), 2u);
}

TEST(Flows, GpuFlowCatReplacesTheLaunchSetNpuUsesAsyncNpu) {
  ProfileBuilder g(DeviceKind::kGpu);
  TrackId cpu = g.Track("1", "10"), gpu = g.Track("0", "7");
  g.Flow(1, "ac2g", 100, cpu, 200, gpu);
  g.Flow(2, "MyCat", 100, cpu, 200, gpu);
  EXPECT_EQ(LinkFlows(g.p, std::nullopt).kernel_launch.size(), 1u);
  auto custom = LinkFlows(g.p, std::string("mycat"));
  ASSERT_EQ(custom.kernel_launch.size(), 1u);
  EXPECT_EQ(g.p.flows[custom.kernel_launch[0].start].id, 2u);
  EXPECT_EQ(ClassifyFlowCategory("async_npu", DeviceKind::kNpu, std::nullopt), FlowKind::kKernelLaunch);
  EXPECT_EQ(ClassifyFlowCategory("ac2g", DeviceKind::kNpu, std::nullopt), FlowKind::kOther);
  EXPECT_EQ(ClassifyFlowCategory("FwdBwd", DeviceKind::kNpu, std::nullopt), FlowKind::kFwdBwd);
}

// A trace's launches are read through the same functions as a DB export's.
TEST(Flows, LaunchEndsAndIdsOfATrace) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "10"), gpu = b.Track("0", "7");
  b.Flow(6, "ac2g", 100, cpu, 200, gpu);
  b.Flow(8, "ac2g", 110, cpu, 210, gpu);
  b.p.flows[2].id_is_string = true;  // a string id (its StringId in `id`)
  b.p.flows[3].id_is_string = true;
  const FlowLinks links = LinkFlows(b.p, std::nullopt);
  ASSERT_EQ(links.kernel_launch.size(), 2u);
  EXPECT_FALSE(links.launches_are_slices);
  ExpectLaunch(b.p, links, 0, 100, cpu, 200, gpu);
  EXPECT_EQ(links.LaunchId(b.p, 0), 6);
  EXPECT_EQ(links.LaunchId(b.p, 1), std::nullopt);
}

// An Ascend DB export's launches are its loader's slice pairs (DbInfo::launch_links), in their
// order; its flow events are fwdbwd only (an async_npu one would not be a launch).
TEST(Flows, ADbExportsLaunchesAreItsSlicePairs) {
  ProfileBuilder b(DeviceKind::kNpu);
  b.p.meta.format = SourceFormat::kAscendDb;
  TrackId cpu = b.Track("1", "10"), npu = b.Track("2", "3");
  const SliceId op = b.Add(cpu, SliceKind::kCpuOp, "aten::add", "cpu_op", 100, 50);
  const SliceId task = b.Add(npu, SliceKind::kNpuTask, "Add", "", 400, 10);
  const SliceId other = b.Add(npu, SliceKind::kNpuTask, "Mul", "", 300, 10);
  b.p.npu.db.launch_links = {{700, op, task}, {12, op, other}};
  b.p.npu.db.launch_ids_without_end = 3;
  b.Flow(5, "async_npu", 100, cpu, 300, npu);
  b.Flow(9, "fwdbwd", 100, cpu, 150, cpu);
  const FlowLinks links = LinkFlows(b.p, std::nullopt);
  ASSERT_EQ(links.kernel_launch.size(), 2u);
  EXPECT_TRUE(links.launches_are_slices);
  ExpectLaunch(b.p, links, 0, 100, cpu, 400, npu);
  ExpectLaunch(b.p, links, 1, 100, cpu, 300, npu);
  EXPECT_EQ(links.LaunchId(b.p, 0), 700);
  EXPECT_EQ(links.LaunchId(b.p, 1), 12);
  EXPECT_EQ(links.fwd_bwd.size(), 1u);
  EXPECT_EQ(links.incomplete, 3u);
}

TEST(Timeline, StepsSortedByStartIdsInFileOrderBackwardThreadFirstOnGpuLastOnNpu) {
  for (DeviceKind device : {DeviceKind::kGpu, DeviceKind::kNpu}) {
    ProfileBuilder b(device);
    TrackId host = b.Track("1", "10"), bwd1 = b.Track("1", "11"), bwd2 = b.Track("1", "12");
    b.Add(host, SliceKind::kStepMarker, "ProfilerStep#8", "user_annotation", 500, 100);
    b.Add(host, SliceKind::kStepMarker, "ProfilerStep#7", "user_annotation", 100, 100);
    b.Add(host, SliceKind::kCpuOp, "aten::mm", "cpu_op", 120, 10);
    b.Add(host, SliceKind::kStepMarker, "ProfilerStep#x", "user_annotation", 900, 10);  // no id
    b.Flow(1, "fwdbwd", 120, host, 700, bwd1);
    b.Flow(2, "fwdbwd", 130, host, 800, bwd2);
    Timeline t = BuildTimeline(b.p, {});
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].id, 7);
    EXPECT_EQ(t.steps[0].end_ns, 200);
    EXPECT_EQ(t.step_ids, (std::vector<int64_t>{8, 7}));
    EXPECT_TRUE(t.HasStep(8));
    EXPECT_FALSE(t.HasStep(9));
    EXPECT_EQ(t.backward_tid, device == DeviceKind::kGpu ? 11 : 12);
    ASSERT_TRUE(t.backward_track.has_value());
    EXPECT_EQ(*t.backward_track, device == DeviceKind::kGpu ? bwd1 : bwd2);
  }
}

// The steps of the markers a caller collected are FindSteps' (a slice of another kind among them is
// no step; a marker left out is none).
TEST(Timeline, StepsOfMarkersAreFindStepsOfThoseMarkers) {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId host = b.Track("1", "10");
  b.Add(host, SliceKind::kStepMarker, "ProfilerStep#8", "user_annotation", 500, 100);  // slice 0
  b.Add(host, SliceKind::kCpuOp, "aten::mm", "cpu_op", 120, 10);                       // slice 1
  b.Add(host, SliceKind::kStepMarker, "ProfilerStep#7", "user_annotation", 100, 100);  // slice 2
  b.Add(host, SliceKind::kStepMarker, "ProfilerStep#9", "user_annotation", 100, 50);   // slice 3
  const std::vector<Step> all = FindSteps(b.p), some = StepsOfMarkers(b.p, {0, 1, 3});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, 7);  // by start, ties in slice order
  EXPECT_EQ(all[1].id, 9);
  EXPECT_EQ(all[2].id, 8);
  const std::vector<Step> same = StepsOfMarkers(b.p, {0, 2, 3});
  ASSERT_EQ(same.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(same[i].slice, all[i].slice) << i;
  ASSERT_EQ(some.size(), 2u);
  EXPECT_EQ(some[0].id, 9);
  EXPECT_EQ(some[1].id, 8);
  EXPECT_EQ(some[1].end_ns, 600);
}

TEST(Timeline, TextTidsKeepTheirBackwardTrackNoFwdBwdMeansNone) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId host = b.Track("1", "10"), bwd = b.Track("1", "autograd thread");
  b.Flow(1, "fwdbwd", 120, host, 700, bwd);
  Timeline t = BuildTimeline(b.p, {});
  EXPECT_EQ(t.backward_tid, kNoNumber);  // not a number
  ASSERT_TRUE(t.backward_track.has_value());
  EXPECT_EQ(b.p.str(b.p.tracks[*t.backward_track].tid_text), "autograd thread");
  ProfileBuilder none(DeviceKind::kGpu);
  EXPECT_FALSE(BuildTimeline(none.p, {}).backward_track.has_value());
}

TEST(Flows, FirstFwdBwdEndByIdCountsIdsWithoutAStart) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId host = b.Track("1", "10"), p2 = b.Track("2", "20"), p3 = b.Track("3", "30");
  FlowEvent lone_end;  // id 9 appears first, with an end only
  lone_end.id = 9;
  lone_end.phase = 'f';
  lone_end.ts_ns = 50;
  lone_end.track = p3;
  lone_end.cat = b.p.strings.Intern("fwdbwd");
  b.p.flows.push_back(lone_end);
  b.Flow(1, "fwdbwd", 100, host, 200, p2);
  FlowLinks links = LinkFlows(b.p, std::nullopt);
  ASSERT_EQ(links.fwd_bwd.size(), 1u);  // the complete flow only
  ASSERT_TRUE(links.fwd_bwd_first_end_by_id.has_value());
  EXPECT_EQ(b.p.flows[*links.fwd_bwd_first_end_by_id].track, p3);
  EXPECT_FALSE(LinkFlows(ProfileBuilder(DeviceKind::kGpu).p, std::nullopt).fwd_bwd_first_end_by_id.has_value());
}

// A step with a marker on two threads spans from the first start to the last end; ids ascend; the
// first marker in the given order names the span (every per-step measure reads these spans).
TEST(Timeline, StepSpansFoldEachIdsMarkers) {
  const std::vector<Step> steps = {{7, 10, 100, 200}, {3, 11, 50, 90}, {7, 12, 90, 250}, {3, 13, 40, 60}};
  const std::vector<StepSpan> spans = StepSpans(steps);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].id, 3);
  EXPECT_EQ(spans[0].start_ns, 40);
  EXPECT_EQ(spans[0].end_ns, 90);
  EXPECT_EQ(spans[0].slice, 11u);
  EXPECT_EQ(spans[1].id, 7);
  EXPECT_EQ(spans[1].start_ns, 90);
  EXPECT_EQ(spans[1].end_ns, 250);
  EXPECT_EQ(spans[1].slice, 10u);
  const std::optional<StepSpan> seven = SpanOf(steps, 7);
  ASSERT_TRUE(seven.has_value());
  EXPECT_EQ(seven->start_ns, 90);
  EXPECT_EQ(seven->end_ns, 250);
  EXPECT_EQ(seven->slice, 10u);
  EXPECT_FALSE(SpanOf(steps, 5).has_value());
  EXPECT_TRUE(StepSpans({}).empty());
}

}  // namespace
}  // namespace profdiff::analysis
