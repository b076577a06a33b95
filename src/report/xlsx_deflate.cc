// The forwarder of libxlsxwriter's minizip calls (xlsx_deflate.h).
#include "profdiff/report/xlsx_deflate.h"

#include <atomic>

#ifdef PROFDIFF_XLSX_FAST_DEFLATE
#include <dlfcn.h>
#endif

namespace profdiff::report {
namespace {
std::atomic<uint64_t> g_parts_deflated_fast{0};
}  // namespace

bool XlsxFastDeflateBuilt() {
#ifdef PROFDIFF_XLSX_FAST_DEFLATE
  return true;
#else
  return false;
#endif
}

uint64_t XlsxPartsDeflatedFast() { return g_parts_deflated_fast.load(std::memory_order_relaxed); }

}  // namespace profdiff::report

#ifdef PROFDIFF_XLSX_FAST_DEFLATE
namespace {

// minizip 1.1's zip.h, which libminizip1 ships without its headers: the types as the ABI has them.
using ZipFile = void*;
using UInt = unsigned int;
using ULong = unsigned long;  // NOLINT(google-runtime-int): zlib's uLong
constexpr int kZDeflated = 8;            // Z_DEFLATED
constexpr int kZDefaultCompression = -1;  // Z_DEFAULT_COMPRESSION
constexpr int kZipInternalError = -104;   // ZIP_INTERNALERROR

using OpenNewFile = int (*)(ZipFile, const char*, const void*, const void*, UInt, const void*, UInt, const char*, int,
                            int, int, int, int, int, const char*, ULong, ULong, ULong, int);

OpenNewFile MinizipOpenNewFile() {
  static const auto real = reinterpret_cast<OpenNewFile>(dlsym(RTLD_NEXT, "zipOpenNewFileInZip4_64"));
  return real;
}

}  // namespace

// libxlsxwriter's packager opens each part of the workbook with this call; the level it asks is
// zlib's default. Any other request passes through unchanged.
extern "C" int zipOpenNewFileInZip4_64(ZipFile file, const char* filename, const void* zipfi,
                                       const void* extrafield_local, UInt size_extrafield_local,
                                       const void* extrafield_global, UInt size_extrafield_global,
                                       const char* comment, int method, int level, int raw, int window_bits,
                                       int mem_level, int strategy, const char* password, ULong crc_for_crypting,
                                       ULong version_made_by, ULong flag_base, int zip64) {
  const OpenNewFile real = MinizipOpenNewFile();
  if (real == nullptr) return kZipInternalError;  // minizip is not a shared library here: see CMake
  if (method == kZDeflated && raw == 0 && (level == kZDefaultCompression || level == 6)) {
    level = profdiff::report::kXlsxDeflateLevel;
    profdiff::report::g_parts_deflated_fast.fetch_add(1, std::memory_order_relaxed);
  }
  return real(file, filename, zipfi, extrafield_local, size_extrafield_local, extrafield_global,
              size_extrafield_global, comment, method, level, raw, window_bits, mem_level, strategy, password,
              crc_for_crypting, version_made_by, flag_base, zip64);
}
#endif
