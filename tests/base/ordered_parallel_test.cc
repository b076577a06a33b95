#include "profdiff/base/ordered_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace profdiff {
namespace {

TEST(OrderedParallel, ConsumesEveryItemInOrderAtAnyThreadCount) {
  for (size_t threads : {0, 1, 2, 3, 8}) {
    std::vector<size_t> consumed;
    const Status s = OrderedParallel<size_t>(
        200, threads, 4,
        [](size_t i) {
          if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));  // finish out of order
          return i * i;
        },
        [&](size_t i, size_t square) {
          EXPECT_EQ(square, i * i);
          consumed.push_back(i);
          return Status::Ok();
        });
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(consumed.size(), 200u);
    for (size_t i = 0; i < consumed.size(); ++i) EXPECT_EQ(consumed[i], i) << threads;
  }
}

TEST(OrderedParallel, KeepsAtMostTheWindowInFlight) {
  std::atomic<int> produced{0};
  std::atomic<int> most_ahead{0};
  std::atomic<int> consumed{0};
  const Status s = OrderedParallel<int>(
      100, 4, 6,
      [&](size_t) {
        const int ahead = ++produced - consumed;
        int seen = most_ahead.load();
        while (ahead > seen && !most_ahead.compare_exchange_weak(seen, ahead)) {
        }
        return 0;
      },
      [&](size_t, int) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));  // a slow consumer
        ++consumed;
        return Status::Ok();
      });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(produced.load(), 100);
  EXPECT_LE(most_ahead.load(), 7);  // the window, and the one being consumed
}

TEST(OrderedParallel, AFailedConsumeStopsTheRun) {
  for (size_t threads : {1, 2}) {
    std::atomic<int> produced{0};
    size_t consumed = 0;
    const Status s = OrderedParallel<int>(
        1000, threads, 4, [&](size_t) { return ++produced; },
        [&](size_t i, int) {
          ++consumed;
          return i == 10 ? IoError("disk full") : Status::Ok();
        });
    EXPECT_EQ(s.code(), StatusCode::kIoError);
    EXPECT_EQ(consumed, 11u);
    EXPECT_LT(produced.load(), 30);  // the workers stopped taking items
  }
}

TEST(OrderedParallel, NothingToDo) {
  bool called = false;
  const Status s = OrderedParallel<int>(
      0, 2, 4, [&](size_t) { called = true; return 0; }, [&](size_t, int) { called = true; return Status::Ok(); });
  EXPECT_TRUE(s.ok());
  EXPECT_FALSE(called);
}

TEST(BufferPool, GivesBackEmptyBuffersWithTheirMemory) {
  BufferPool pool;
  EXPECT_TRUE(pool.Take().empty());
  std::string big(1 << 20, 'x');
  const size_t capacity = big.capacity();
  pool.Give(std::move(big));
  const std::string again = pool.Take();
  EXPECT_TRUE(again.empty());
  EXPECT_GE(again.capacity(), capacity);
}

}  // namespace
}  // namespace profdiff

namespace profdiff {
namespace {

TEST(WorkerPool, RunsEveryTaskAndGivesItsResult) {
  std::vector<std::future<int>> results;
  std::atomic<int> ran{0};
  {
    WorkerPool pool(3);
    for (int i = 0; i < 100; ++i) results.push_back(pool.Submit([i, &ran] {
      ++ran;
      return i * 2;
    }));
    for (int i = 0; i < 100; ++i) EXPECT_EQ(results[i].get(), i * 2);
  }
  EXPECT_EQ(ran.load(), 100);
}

TEST(WorkerPool, DestroyingItRunsWhatIsQueued) {
  std::atomic<int> ran{0};
  {
    WorkerPool pool(1);
    for (int i = 0; i < 20; ++i) (void)pool.Submit([&ran] {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      return ++ran;
    });
  }
  EXPECT_EQ(ran.load(), 20);
}

TEST(WorkerPool, WithoutThreadsATaskRunsInSubmit) {
  WorkerPool pool(0);
  std::future<std::thread::id> where = pool.Submit([] { return std::this_thread::get_id(); });
  EXPECT_EQ(where.wait_for(std::chrono::seconds(0)), std::future_status::ready);
  EXPECT_EQ(where.get(), std::this_thread::get_id());
}

}  // namespace
}  // namespace profdiff
