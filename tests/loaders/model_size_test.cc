// What the loaded model costs: LoadProfile leaves no growth slack in the model's arrays (they stay
// in memory for the whole run; on a 1 GB trace the slack was ~100 MB per side).
#include <gtest/gtest.h>

#include <string>

#include "profdiff/loaders/loader.h"

namespace profdiff {
namespace {

TEST(ModelSize, LoadProfileLeavesNoSlackInTheArrays) {
  for (const std::string path :
       {PROFDIFF_SOURCE_DIR "/tests/data/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz",
        PROFDIFF_SOURCE_DIR "/tests/data/ascend_910b_alexnet/rank0_ascend_pt"}) {
    auto loaded = LoadProfile(path, LoadOptions{});
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const Profile& p = **loaded;
    EXPECT_GT(p.args.size(), 1000u) << path;
    EXPECT_EQ(p.args.capacity(), p.args.size()) << path;
    EXPECT_EQ(p.slices.capacity(), p.slices.size()) << path;
    EXPECT_EQ(p.flows.capacity(), p.flows.size()) << path;
    EXPECT_EQ(p.counters.capacity(), p.counters.size()) << path;
    EXPECT_EQ(p.memory_events.capacity(), p.memory_events.size()) << path;
  }
}

}  // namespace
}  // namespace profdiff
