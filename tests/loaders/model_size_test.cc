// What the loaded model costs: LoadProfile leaves at most 1/8 of growth slack in the model's arrays
// (they stay for the whole run; on a 1 GB trace doubling left ~100 MB per side). The slack kept is
// never written (address space, not memory): the parallel reader sizes a plain file's arrays for
// the whole file a few percent too big, and copying them once more cost a tenth of the load.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "profdiff/loaders/loader.h"

namespace profdiff {
namespace {

template <typename T>
size_t Slack(const std::vector<T>& v) {
  return v.capacity() - v.size();
}

TEST(ModelSize, LoadProfileLeavesLittleSlackInTheArrays) {
  for (const std::string path :
       {PROFDIFF_SOURCE_DIR "/tests/data/kineto_resnet50_v100/worker0.1623143089861.pt.trace.json.gz",
        PROFDIFF_SOURCE_DIR "/tests/data/ascend_910b_alexnet/rank0_ascend_pt"}) {
    auto loaded = LoadProfile(path, LoadOptions{});
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    const Profile& p = **loaded;
    EXPECT_GT(p.args.size(), 1000u) << path;
    EXPECT_LE(Slack(p.args), p.args.capacity() / 8) << path;
    EXPECT_LE(Slack(p.slices), p.slices.capacity() / 8) << path;
    EXPECT_LE(Slack(p.flows), p.flows.capacity() / 8) << path;
    EXPECT_LE(Slack(p.counters), p.counters.capacity() / 8) << path;
    EXPECT_LE(Slack(p.memory_events), p.memory_events.capacity() / 8) << path;
  }
}

}  // namespace
}  // namespace profdiff
