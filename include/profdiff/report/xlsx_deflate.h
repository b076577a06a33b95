// The zlib level a workbook's parts are deflated at.
//
// libxlsxwriter (1.1.4, Debian 12) zips a workbook through minizip at zlib's default level (6) and
// has no setting for it; deflating the sheets' XML was a sixth of a whole `compare` run. profdiff
// defines the one minizip entry point libxlsxwriter's packager calls, `zipOpenNewFileInZip4_64`
// (the executable's definition comes first in the dynamic linker's search), and forwards each call
// to minizip's own with level kXlsxDeflateLevel where libxlsxwriter asked for the default. Measured
// on the ResNet50 pair with every comparison (docs/performance.md "Every comparison"): 10 % fewer
// instructions for the whole run, a workbook 31 % bigger (zlib's levels 1-3 cost the same there; 3
// compresses best of them). Built only where libxlsxwriter links minizip as a shared library
// (CMake option PROFDIFF_XLSX_FAST_DEFLATE).
//
// With ISA-L (Debian's libisal-dev; CMake option PROFDIFF_XLSX_ISAL, on where pkg-config finds
// libisal) the chunks are deflated by its igzip at level 1 instead of zlib: 2.3 GB/s against zlib
// level 3's 0.39 GB/s on the 1 GB pair's 179 MB OperatorCompare sheet, a part 11 % bigger
// (docs/performance.md, "The workbook deflated by ISA-L"). The parts' bytes are the same either way;
// the zip's compressed bytes depend on the engine (and, with ISA-L, may on the CPU's instruction set).
#pragma once

#include <cstddef>
#include <cstdint>

namespace profdiff::report {

inline constexpr int kXlsxDeflateLevel = 3;

// Whether this build has the forwarder.
bool XlsxFastDeflateBuilt();

// How many workbook parts have been deflated by the forwarder in this process (0 when it is not
// built: the parts are then deflated at zlib's default level).
uint64_t XlsxPartsDeflatedFast();

// The bytes of each chunk deflated on its own worker.
inline constexpr size_t kXlsxDeflateChunk = size_t{1} << 20;

// While one lives, the parts of workbooks closed by this thread deflate on `threads` threads
// (0: one per core; 1: on this thread, still in chunks).
class ScopedXlsxDeflateThreads {
 public:
  explicit ScopedXlsxDeflateThreads(size_t threads);
  ~ScopedXlsxDeflateThreads();
  ScopedXlsxDeflateThreads(const ScopedXlsxDeflateThreads&) = delete;
  ScopedXlsxDeflateThreads& operator=(const ScopedXlsxDeflateThreads&) = delete;

 private:
  size_t previous_;
};

}  // namespace profdiff::report
