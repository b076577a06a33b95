// What a run creates that must not outlive an interrupted process: temporary files (until renamed
// into place or deleted), private temporary directories (a DB copied to apply its -wal), and a
// compare run's outputs until the run ends. One process-wide registry under one mutex.
//
// On SIGINT, SIGTERM or SIGHUP (HandleSignalsWithCleanup, called by the executable's main before any
// other thread starts) a thread of its own takes the mutex, removes every registered path (newest
// first) and never gives the mutex back, so nothing is created or renamed into place after the
// clean-up; then the process dies of the signal (a shell shows 130 for SIGINT, 143 for SIGTERM).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace profdiff::cleanup {

enum class Kind : uint8_t {
  kFile,      // unlinked
  kTree,      // removed with everything in it (a private temporary directory)
  kEmptyDir,  // a directory the run created: removed when it is empty (rmdir), else kept
};

// Registers `path`; returns its id for Unregister.
uint64_t Register(std::string path, Kind kind);
// Forgets `id` (the path stays as it is). An unknown id is ignored.
void Unregister(uint64_t id);
// Removes the path registered as `id` as its kind says, then forgets it.
void Remove(uint64_t id);
// Runs `fn` holding the registry's mutex (it may call Register, Unregister and Remove): a rename
// into place and the registration of its result happen together, never split by a signal's
// clean-up.
void Locked(const std::function<void()>& fn);

// Removes every registered path, newest first, and keeps the mutex for good (tests: a child
// process). Async-signal-safe it is not: it runs on the signal thread, never in a handler.
void RemoveAllAndHold();

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and so in every thread it starts later)
// and starts the thread that waits for them: on one, RemoveAllAndHold, then the signal's default
// action. Call once, from main, before any other thread exists.
void HandleSignalsWithCleanup();

}  // namespace profdiff::cleanup
