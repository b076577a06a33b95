// Thin entry point: everything lives in profdiff_cli so tests can drive it in-process.
#include "profdiff/cli/app.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // No fast bins: a freed small chunk beyond the thread's cache is merged with its neighbours when
  // it is freed, not later. With fast bins, a phase that freed a million small chunks left their
  // merging to the next large allocation on that arena, whichever phase made it: on the 1 GB pair an
  // empty communication sheet was charged 2.3-2.7 ms of another row's frees (docs/performance.md).
  // Small allocations still come from the per-thread cache. Under a sanitizer's allocator this does
  // nothing.
  (void)mallopt(M_MXFAST, 0);
#endif
  return profdiff::cli::Main(argc, argv);
}
