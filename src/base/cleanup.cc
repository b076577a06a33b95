#include "profdiff/base/cleanup.h"

#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace profdiff::cleanup {
namespace {

struct Entry {
  uint64_t id = 0;
  std::string path;
  Kind kind = Kind::kFile;
};

struct Registry {
  std::recursive_mutex mutex;
  std::vector<Entry> entries;  // registration order
  uint64_t next_id = 1;
};

// Never destroyed: the signal thread may use it while the process exits.
Registry& TheRegistry() {
  static Registry* registry = new Registry();
  return *registry;
}

void RemovePath(const Entry& e) {
  std::error_code ec;
  switch (e.kind) {
    case Kind::kFile: ::unlink(e.path.c_str()); break;
    case Kind::kTree: std::filesystem::remove_all(e.path, ec); break;
    case Kind::kEmptyDir: ::rmdir(e.path.c_str()); break;
  }
}

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void WaitForSignals(sigset_t set) {
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  RemoveAllAndHold();
  std::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);  // this thread has it unblocked: the default action ends the process
  ::_exit(128 + sig);
}

}  // namespace

uint64_t Register(std::string path, Kind kind) {
  Registry& r = TheRegistry();
  std::lock_guard lock(r.mutex);
  const uint64_t id = r.next_id++;
  r.entries.push_back({id, std::move(path), kind});
  return id;
}

void Unregister(uint64_t id) {
  Registry& r = TheRegistry();
  std::lock_guard lock(r.mutex);
  for (auto it = r.entries.begin(); it != r.entries.end(); ++it) {
    if (it->id != id) continue;
    r.entries.erase(it);
    return;
  }
}

void Remove(uint64_t id) {
  Registry& r = TheRegistry();
  std::lock_guard lock(r.mutex);
  for (auto it = r.entries.begin(); it != r.entries.end(); ++it) {
    if (it->id != id) continue;
    RemovePath(*it);
    r.entries.erase(it);
    return;
  }
}

void Locked(const std::function<void()>& fn) {
  std::lock_guard lock(TheRegistry().mutex);
  fn();
}

void RemoveAllAndHold() {
  Registry& r = TheRegistry();
  r.mutex.lock();  // never unlocked: nothing is created or renamed into place after this
  for (auto it = r.entries.rbegin(); it != r.entries.rend(); ++it) RemovePath(*it);
  r.entries.clear();
}

void HandleSignalsWithCleanup() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kSignals) {
    struct sigaction current {};
    // A signal the parent ignores (nohup's SIGHUP, SIGINT of a background job) stays ignored.
    if (sigaction(s, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    sigaddset(&set, s);
  }
  if (pthread_sigmask(SIG_BLOCK, &set, nullptr) != 0) return;
  try {
    std::thread(WaitForSignals, set).detach();
  } catch (const std::system_error&) {
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);  // no thread: the default actions, as before
  }
}

}  // namespace profdiff::cleanup
