// A slice is 32 bytes: its duration in 47 bits with the sub-ns remainder beside it, its track in 24
// bits, its category a 16-bit index into the profile's table (past kMaxSliceCats categories a new one
// gets the last index and a category_limit error, never a truncated index).
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "profdiff/model/profile.h"

namespace profdiff {
namespace {

TEST(Slice, FieldsHoldTheirWholeRange) {
  Slice s;
  s.ts_ns = (int64_t{1} << 62);
  s.dur_ns = Slice::kMaxDurNs;
  s.dur_sub_e5 = -Slice::kE5PerNs / 2;
  s.track = kMaxTracks - 1;
  s.kind = SliceKind::kHcclTask;
  s.cat_index = UINT16_MAX;
  s.args_count = Slice::kMaxArgs;
  EXPECT_EQ(s.dur_ns, Slice::kMaxDurNs);
  EXPECT_EQ(s.dur_sub_e5, -50000);
  EXPECT_EQ(s.dur_e5(), Slice::kMaxDurNs * Slice::kE5PerNs - 50000);
  EXPECT_EQ(s.end_ns(), (int64_t{1} << 62) + Slice::kMaxDurNs);
  EXPECT_EQ(static_cast<TrackId>(s.track), kMaxTracks - 1);
  EXPECT_EQ(s.kind, SliceKind::kHcclTask);
  s.dur_sub_e5 = Slice::kE5PerNs / 2;
  EXPECT_EQ(s.dur_sub_e5, 50000);
  EXPECT_EQ(s.dur_ns, Slice::kMaxDurNs);  // the neighbours untouched
  EXPECT_EQ(static_cast<TrackId>(s.track), kMaxTracks - 1);
}

TEST(Slice, CategoriesAreIndexedAndLimited) {
  Profile p;
  p.meta.trace_file = "t.json";
  const StringId a = p.strings.Intern("a"), b = p.strings.Intern("b"), c = p.strings.Intern("c");
  EXPECT_EQ(p.CatIndex(kEmptyString), 0);
  EXPECT_EQ(p.CatIndex(a), 1);
  EXPECT_EQ(p.CatIndex(b), 2);
  EXPECT_EQ(p.CatIndex(a), 1);
  p.LimitCatsForTest(3);
  EXPECT_EQ(p.CatIndex(c), 2);  // past the limit: the last, with an error
  EXPECT_EQ(p.diagnostics.count(DiagId::category_limit), 1u);
  EXPECT_NE(p.diagnostics.Summary().find("cat c"), std::string::npos) << p.diagnostics.Summary();
  EXPECT_EQ(p.CatIndex(b), 2);
  EXPECT_EQ(p.CatIndex(a), 1);
  Slice s;
  s.cat_index = p.CatIndex(a);
  EXPECT_EQ(p.Cat(s), a);
  p.Clear();
  EXPECT_EQ(p.slice_cats.size(), 1u);
  EXPECT_EQ(p.CatIndex(a), 1);  // the cache of the last category is cleared too
}

// The compact python functions and those kept as slices are read together in the order they were
// read (slice_before: how many compact rows precede each python-function slice); a profile without
// compact rows (a trace) reads its slices.
TEST(PythonFunction, ReadInTheirOrderWithTheSlices) {
  Profile p;
  auto name = [&](const char* n) { return p.strings.Intern(n); };
  for (const char* n : {"a", "b", "c"}) p.python_functions.Add({10, 5, 0, name(n)});
  for (auto [n, kind] : {std::pair{"X", SliceKind::kPythonFunction}, std::pair{"op", SliceKind::kCpuOp},
                         std::pair{"Z", SliceKind::kPythonFunction}}) {
    Slice s;
    s.name = name(n);
    s.kind = kind;
    p.slices.push_back(s);
  }
  p.slices.back().phase = 'i';
  p.python_functions.slice_before = {0, 2};
  std::string order;
  p.ForEachPythonFunction(
      [&](const PythonFunctionView& f) { order += std::string(p.str(f.name)) + (f.complete ? "" : "'"); });
  EXPECT_EQ(order, "XabZ'c");
  EXPECT_EQ(p.CountByKind()[static_cast<size_t>(SliceKind::kPythonFunction)], 5u);
  p.python_functions.Clear();
  order.clear();
  p.ForEachPythonFunction([&](const PythonFunctionView& f) { order += p.str(f.name); });
  EXPECT_EQ(order, "XZ");
  EXPECT_TRUE(p.HasPythonFunctions());
  p.slices.clear();
  EXPECT_FALSE(p.HasPythonFunctions());
}

// The compact rows are written as numbers of a few bytes each: every row reads back, whatever its
// start (either end of int64, backwards), duration (0 to 2^40 - 1), track or name, across blocks.
TEST(PythonFunction, EveryRowReadsBackFromItsEncoding) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  std::vector<PythonFunction> rows = {{kMin, 0, 0, 0},
                                      {kMax, PythonFunction::kMaxDurNs, kMaxTracks - 1, UINT32_MAX},
                                      {kMin, 1, 1, 1},
                                      {-5, 127, 127, 128},
                                      {-6, 128, 128, 127}};
  std::mt19937_64 rng(7);
  int64_t ts_ns = 1'700'000'000'000'000'000;
  for (int i = 0; i < 300'000; ++i) {  // past a 1 MiB block
    ts_ns += static_cast<int64_t>(rng() % 2'000'000) - 1000;
    rows.push_back({ts_ns, static_cast<int64_t>(rng() % (uint64_t{1} << (rng() % 41))),
                    static_cast<TrackId>(rng() % kMaxTracks), static_cast<StringId>(rng() >> 32)});
  }
  PythonFunctionTable t;
  for (const PythonFunction& f : rows) t.Add(f);
  ASSERT_EQ(t.size(), rows.size());
  std::vector<PythonFunction> back;
  t.ForEach([&](const PythonFunction& f) { back.push_back(f); });
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(back[i], rows[i]) << i;
  EXPECT_GT(t.encoded_bytes(), PythonFunctionTable::kBlockBytes);
  EXPECT_LT(t.encoded_bytes(), rows.size() * 20);
  t.Clear();
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.encoded_bytes(), 0u);
  t.ForEach([&](const PythonFunction&) { ADD_FAILURE(); });
}

// A DB export's op launches and compute tasks are kept small (12 and 24 bytes); every connection id
// reads back, and the cube flag beside the type's string id leaves it whole.
TEST(DbRows, LaunchesAndComputeTasksKeepTheirFields) {
  for (int64_t id : {int64_t{0}, int64_t{-1}, int64_t{7}, (int64_t{1} << 32) + 5, std::numeric_limits<int64_t>::min(),
                     std::numeric_limits<int64_t>::max()}) {
    const DbLaunch l(id, 42);
    EXPECT_EQ(l.connection_id(), id);
    EXPECT_EQ(l.op, 42u);
  }
  DbComputeTask t{-3, 9, 11, (StringId{1} << 31) - 1, 0};
  t.pmu_cube = 1;
  EXPECT_EQ(StringId{t.rts_type}, (StringId{1} << 31) - 1);
  EXPECT_EQ(StringId{t.pmu_cube}, 1u);
  EXPECT_EQ(t.connection_id, -3);
  EXPECT_EQ(t.global_task_id, 9);
  EXPECT_EQ(t.slice, 11u);
}

}  // namespace
}  // namespace profdiff
