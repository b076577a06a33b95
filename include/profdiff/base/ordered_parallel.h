// An ordered parallel map: items 0 .. n-1 are produced on worker threads, and consumed on the
// calling thread in index order, with a bounded number of results in flight (so that memory stays
// bounded however many items there are). The writers of big outputs use it: a sheet's rows rendered
// in chunks, a workbook part deflated in chunks, each written in order as soon as it is ready.
//
// `produce(i)` must be safe to call concurrently for different i; `consume(i, result)` runs on the
// calling thread only, in order 0, 1, ..., n-1. A consume that fails stops the run: no further item
// is consumed, the workers stop taking new items and are joined, and the failure is returned. With
// one thread (or one item) everything runs on the calling thread, in order, without a worker.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff {

// Threads to use for `requested` (0: one per core), never more than `items`, at least 1.
inline size_t ParallelThreads(size_t requested, size_t items) {
  size_t threads = requested != 0 ? requested : std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::max<size_t>(1, std::min(threads, items));
}

// Runs `task` on a thread of its own, or, when no thread can be had, when its result is asked for.
template <class F>
auto StartTask(F task) -> std::future<decltype(task())> {
  try {
    return std::async(std::launch::async, task);
  } catch (const std::system_error&) {
    return std::async(std::launch::deferred, task);
  }
}

// Buffers handed from the consumer back to the producers, so that big results reuse their memory
// instead of faulting fresh pages in for every item (on a virtual machine each page fault is dear).
class BufferPool {
 public:
  std::string Take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (spare_.empty()) return {};
    std::string s = std::move(spare_.back());
    spare_.pop_back();
    s.clear();
    return s;
  }
  void Give(std::string s) {
    std::lock_guard<std::mutex> lock(mu_);
    spare_.push_back(std::move(s));
  }

 private:
  std::mutex mu_;
  std::vector<std::string> spare_;
};

// A few threads that run the tasks given to them, in the order given, until the pool is destroyed
// (which runs what is queued, then joins them): for work that arrives a piece at a time (a part
// of a workbook written in chunks), where a thread per piece would be made and unmade each time.
// When no thread can be had, a task runs in Submit, on the caller's thread.
class WorkerPool {
 public:
  explicit WorkerPool(size_t threads) {
    for (size_t t = 0; t < threads; ++t) {
      try {
        threads_.emplace_back([this] { Work(); });
      } catch (const std::system_error&) {
        break;
      }
    }
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  template <class F>
  auto Submit(F task) -> std::future<decltype(task())> {
    auto packaged = std::make_shared<std::packaged_task<decltype(task())()>>(std::move(task));
    std::future<decltype(task())> result = packaged->get_future();
    if (threads_.empty()) {
      (*packaged)();
      return result;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.emplace_back([packaged] { (*packaged)(); });
    }
    cv_.notify_one();
    return result;
  }

 private:
  void Work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopped, and nothing left
      std::function<void()> task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      task();
      lock.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

template <class T, class Produce, class Consume>
Status OrderedParallel(size_t n, size_t threads, size_t window, Produce&& produce, Consume&& consume) {
  threads = ParallelThreads(threads, n);
  auto serial = [&]() -> Status {
    for (size_t i = 0; i < n; ++i) PD_RETURN_IF_ERROR(consume(i, produce(i)));
    return Status::Ok();
  };
  if (threads <= 1) return serial();
  window = std::max(window, threads);
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::optional<T>> ready;  // ready[k]: the result of item `base + k`
  size_t base = 0;                     // the next item to consume
  size_t next = 0;                     // the next item to produce
  bool stop = false;
  auto worker = [&] {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return stop || next >= n || next < base + window; });
      if (stop || next >= n) return;
      const size_t i = next++;
      if (ready.size() < i - base + 1) ready.resize(i - base + 1);
      lock.unlock();
      T result = produce(i);
      lock.lock();
      ready[i - base] = std::move(result);
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {  // no thread to be had: fewer workers, or none
      break;
    }
  }
  if (pool.empty()) return serial();
  Status status;
  {
    std::unique_lock<std::mutex> lock(mu);
    while (base < n) {
      cv.wait(lock, [&] { return !ready.empty() && ready.front().has_value(); });
      T result = std::move(*ready.front());
      ready.pop_front();
      const size_t i = base++;
      cv.notify_all();  // a window slot is free
      lock.unlock();
      status = consume(i, std::move(result));
      lock.lock();
      if (!status.ok()) {
        stop = true;
        cv.notify_all();
        break;
      }
    }
  }
  for (std::thread& t : pool) t.join();
  return status;
}

}  // namespace profdiff
