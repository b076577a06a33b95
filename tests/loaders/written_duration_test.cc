// Durations written with more digits than 1e-5 ns (an advisor trace_view.json writes
// "139.4186019897461" µs): the exact arithmetic keeps dur_ns + dur_sub_e5, and the value as written
// stays available for the reports that print it (Profile::WrittenDurUs).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "profdiff/loaders/loader.h"
#include "profdiff/loaders/trace_json.h"
#include "../common/temp_file.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

std::string WriteTemp(const std::string& name, const std::string& bytes) {
  return testing::WriteTempFile("written_duration_test_tmp", name, bytes);
}

std::string Event(const std::string& name, const std::string& dur) {
  return R"({"ph":"X","cat":"kernel","name":")" + name + R"(","ts":100,"dur":)" + dur +
         R"(,"pid":1,"tid":2})";
}

TEST(WrittenDuration, KeepsDigitsBeyondE5AndOnlyThose) {
  const std::string path = WriteTemp(
      "durs.json", "[" + Event("fine", "139.4186019897461") + "," + Event("e5", "53.84109375") + "," +
                       Event("whole", "7") + "," + Event("fine2", "0.12345678901") + "]");
  for (size_t chunk : {size_t{7}, size_t{64}, size_t{1} << 20}) {
    Profile p;
    ASSERT_TRUE(LoadTraceJson(path, p, LoadOptions{}, chunk).ok());
    ASSERT_EQ(p.slices.size(), 4u);
    // Exact arithmetic: ns plus 1e-5 ns digits, rounded half-even below that.
    EXPECT_EQ(p.slices[0].dur_ns, 139419);
    EXPECT_EQ(p.slices[0].dur_e5(), 13941860199);
    EXPECT_EQ(p.slices[1].dur_e5(), 5384109375);
    // Only the two texts with digits below 1e-5 ns are kept as written.
    ASSERT_EQ(p.fine_dur_us.size(), 2u);
    EXPECT_EQ(p.fine_dur_us[0].first, 0u);
    EXPECT_EQ(p.fine_dur_us[1].first, 3u);
    EXPECT_EQ(p.WrittenDurUs(0), 139.4186019897461);
    EXPECT_EQ(p.WrittenDurUs(1), 53.84109375);
    EXPECT_EQ(p.WrittenDurUs(2), 7.0);
    EXPECT_EQ(p.WrittenDurUs(3), 0.12345678901);
  }
}

}  // namespace
}  // namespace profdiff
