// The forwarder of libxlsxwriter's minizip calls (xlsx_deflate.h).
#include "profdiff/report/xlsx_deflate.h"

#include <atomic>

#ifdef PROFDIFF_XLSX_FAST_DEFLATE
#include <dlfcn.h>
#include <zlib.h>
#ifdef PROFDIFF_XLSX_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/base/ordered_parallel.h"
#endif

namespace profdiff::report {
namespace {
std::atomic<uint64_t> g_parts_deflated_fast{0};
thread_local size_t t_deflate_threads = 0;
}  // namespace

bool XlsxFastDeflateBuilt() {
#ifdef PROFDIFF_XLSX_FAST_DEFLATE
  return true;
#else
  return false;
#endif
}

uint64_t XlsxPartsDeflatedFast() { return g_parts_deflated_fast.load(std::memory_order_relaxed); }

ScopedXlsxDeflateThreads::ScopedXlsxDeflateThreads(size_t threads) : previous_(t_deflate_threads) {
  t_deflate_threads = threads;
}

ScopedXlsxDeflateThreads::~ScopedXlsxDeflateThreads() { t_deflate_threads = previous_; }

}  // namespace profdiff::report

#ifdef PROFDIFF_XLSX_FAST_DEFLATE
namespace {

// minizip 1.1's zip.h, which libminizip1 ships without its headers: the types as the ABI has them.
using ZipFile = void*;
using UInt = unsigned int;
using ULong = unsigned long;  // NOLINT(google-runtime-int): zlib's uLong
constexpr int kZipOk = 0;                 // ZIP_OK
constexpr int kZipInternalError = -104;   // ZIP_INTERNALERROR

using OpenNewFile = int (*)(ZipFile, const char*, const void*, const void*, UInt, const void*, UInt, const char*, int,
                            int, int, int, int, int, const char*, ULong, ULong, ULong, int);
using WriteInFile = int (*)(ZipFile, const void*, unsigned);
using CloseFile = int (*)(ZipFile);
using CloseFileRaw64 = int (*)(ZipFile, uint64_t, ULong);

template <class F>
F Minizip(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}
OpenNewFile RealOpen() {
  static const auto f = Minizip<OpenNewFile>("zipOpenNewFileInZip4_64");
  return f;
}
WriteInFile RealWrite() {
  static const auto f = Minizip<WriteInFile>("zipWriteInFileInZip");
  return f;
}
CloseFile RealClose() {
  static const auto f = Minizip<CloseFile>("zipCloseFileInZip");
  return f;
}
CloseFileRaw64 RealCloseRaw64() {
  static const auto f = Minizip<CloseFileRaw64>("zipCloseFileInZipRaw64");
  return f;
}

struct DeflateParams {
  int level = 0;
  int window_bits = -MAX_WBITS;
  int mem_level = 8;
  int strategy = Z_DEFAULT_STRATEGY;
};

struct Deflated {
  bool ok = false;
  std::string input;  // handed back for the next chunk
  std::string bytes;
  uLong crc = 0;
  size_t in_size = 0;
};

constexpr size_t kWindow = 32 * 1024;  // deflate's window: what a chunk is primed with

#ifdef PROFDIFF_XLSX_ISAL
// One chunk with ISA-L's igzip at level 1 (xlsx_deflate.h): primed with `dictionary`, ended by a
// sync flush (or the stream's end when `last`), raw deflate as zlib's -MAX_WBITS writes it.
// The stream (82 KB) and level-1 buffer (276 KB) of the chunks deflated on this thread: made once a
// thread instead of once a 1 MiB chunk (isal_deflate_init resets the stream, and the buffer is set
// up again on first use).
struct IsalScratch {
  isal_zstream stream{};
  std::unique_ptr<uint8_t[]> level_buf{new uint8_t[ISAL_DEF_LVL1_DEFAULT]};
};

bool DeflateInto(const std::string& input, const std::string& dictionary, bool last, std::string& bytes) {
  thread_local const std::unique_ptr<IsalScratch> scratch = std::make_unique<IsalScratch>();
  isal_zstream* const zs = &scratch->stream;
  isal_deflate_init(zs);
  zs->level = 1;
  zs->level_buf = scratch->level_buf.get();
  zs->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
  zs->gzip_flag = IGZIP_DEFLATE;
  zs->flush = SYNC_FLUSH;
  zs->end_of_stream = last ? 1 : 0;
  if (!dictionary.empty() &&
      isal_deflate_set_dict(zs, reinterpret_cast<uint8_t*>(const_cast<char*>(dictionary.data())),
                            static_cast<uint32_t>(dictionary.size())) != COMP_OK)
    return false;
  zs->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(input.data()));
  zs->avail_in = static_cast<uint32_t>(input.size());
  // Stored blocks at worst: 5 bytes per 64 KiB, and the flush's few.
  bytes.resize(std::max(bytes.capacity(), input.size() + input.size() / 1024 + 1024));
  for (;;) {
    zs->next_out = reinterpret_cast<uint8_t*>(bytes.data()) + zs->total_out;
    zs->avail_out = static_cast<uint32_t>(bytes.size() - zs->total_out);
    if (isal_deflate(zs) != COMP_OK) return false;
    const int state = zs->internal_state.state;
    // Done: all input in and the stream ended (last) or the flush written (a new block is next).
    if (zs->avail_in == 0 && zs->avail_out > 0 && (last ? state == ZSTATE_END : state == ZSTATE_NEW_HDR)) break;
    if (zs->avail_out != 0) return false;  // no progress with room left
    bytes.resize(bytes.size() * 2);
  }
  bytes.resize(zs->total_out);
  return true;
}
#else
// One chunk with zlib at `level`: primed with `dictionary`, ended by a sync flush (or the stream's
// end when `last`).
bool DeflateInto(const DeflateParams& p, const std::string& input, const std::string& dictionary, bool last,
                 std::string& bytes) {
  z_stream zs{};
  if (deflateInit2(&zs, p.level, Z_DEFLATED, p.window_bits, p.mem_level, p.strategy) != Z_OK) return false;
  bool ok = dictionary.empty() ||
            deflateSetDictionary(&zs, reinterpret_cast<const Bytef*>(dictionary.data()),
                                 static_cast<uInt>(dictionary.size())) == Z_OK;
  bytes.resize(std::max(bytes.capacity(), deflateBound(&zs, input.size()) + 64));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
  while (ok) {
    if (zs.total_out == bytes.size()) bytes.resize(bytes.size() * 2);
    zs.next_out = reinterpret_cast<Bytef*>(bytes.data()) + zs.total_out;
    zs.avail_out = static_cast<uInt>(bytes.size() - zs.total_out);
    const int rc = deflate(&zs, flush);
    // Done: the stream ended (last), or the input is in and the flush complete (room was left over).
    if (rc == Z_STREAM_END || (rc == Z_OK && !last && zs.avail_in == 0 && zs.avail_out > 0)) break;
    // Out of room: go round with more. Anything else (an error, no progress with room left) fails.
    ok = (rc == Z_OK || rc == Z_BUF_ERROR) && zs.avail_out == 0;
  }
  bytes.resize(zs.total_out);
  deflateEnd(&zs);
  return ok;
}
#endif

// One chunk: primed with `dictionary`, ended by a sync flush (or the stream's end when `last`).
Deflated DeflateChunk([[maybe_unused]] const DeflateParams& p, std::string input, std::string bytes,
                      const std::string& dictionary, bool last) {
  Deflated out;
  out.bytes = std::move(bytes);
  out.in_size = input.size();
  out.crc = crc32_z(0, reinterpret_cast<const Bytef*>(input.data()), input.size());
#ifdef PROFDIFF_XLSX_ISAL
  out.ok = DeflateInto(input, dictionary, last, out.bytes);
#else
  out.ok = DeflateInto(p, input, dictionary, last, out.bytes);
#endif
  out.input = std::move(input);
  return out;
}

// A part being written: its chunks deflate on worker threads (at most `window` in flight) and are
// written to the zip in order.
class Part {
 public:
  Part(ZipFile file, DeflateParams params, size_t threads)
      : file_(file),
        params_(params),
        threads_(profdiff::ParallelThreads(threads, 64)),
        window_(2 * threads_) {}

  int Write(const void* data, unsigned size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
      const size_t take = std::min<size_t>(size, profdiff::report::kXlsxDeflateChunk - pending_.size());
      pending_.append(p, take);
      p += take;
      size -= static_cast<unsigned>(take);
      if (pending_.size() == profdiff::report::kXlsxDeflateChunk) {
        if (const int rc = Submit(false); rc != kZipOk) return rc;
      }
    }
    return kZipOk;
  }

  int Close() {
    int rc = Submit(true);
    while (rc == kZipOk && !in_flight_.empty()) rc = WriteOldest();
    in_flight_.clear();
    if (rc != kZipOk) return rc;
    const CloseFileRaw64 close = RealCloseRaw64();
    return close == nullptr ? kZipInternalError : close(file_, total_in_, crc_);
  }

 private:
  int Submit(bool last) {
    auto input = std::make_shared<std::string>(std::move(pending_));
    auto dictionary = std::make_shared<std::string>(std::move(dictionary_));
    // Every chunk but the last is kXlsxDeflateChunk bytes: the next one is primed with its last 32 KiB.
    dictionary_ = input->size() >= kWindow ? input->substr(input->size() - kWindow) : *input;
    pending_ = buffers_.Take();
    pending_.reserve(profdiff::report::kXlsxDeflateChunk);
    const DeflateParams params = params_;
    auto bytes = std::make_shared<std::string>(buffers_.Take());
    auto job = [params, input, bytes, dictionary, last] {
      return DeflateChunk(params, std::move(*input), std::move(*bytes), *dictionary, last);
    };
    // A part of one chunk (most parts) deflates on this thread: a worker would cost more than it saves.
    if (threads_ == 1 || (last && in_flight_.empty())) {
      in_flight_.push_back(std::async(std::launch::deferred, job));
    } else {
      if (!pool_) pool_ = std::make_unique<profdiff::WorkerPool>(threads_);
      in_flight_.push_back(pool_->Submit(job));
    }
    return in_flight_.size() >= window_ ? WriteOldest() : kZipOk;
  }

  int WriteOldest() {
    Deflated d = in_flight_.front().get();
    in_flight_.pop_front();
    if (!d.ok) return kZipInternalError;
    crc_ = total_in_ == 0 ? d.crc : crc32_combine(crc_, d.crc, static_cast<z_off_t>(d.in_size));
    total_in_ += d.in_size;
    const WriteInFile write = RealWrite();
    if (write == nullptr) return kZipInternalError;
    size_t offset = 0;
    while (offset < d.bytes.size()) {  // minizip takes an unsigned length
      const auto n = static_cast<unsigned>(std::min<size_t>(d.bytes.size() - offset, 1u << 30));
      if (const int rc = write(file_, d.bytes.data() + offset, n); rc < 0) return rc;
      offset += n;
    }
    buffers_.Give(std::move(d.input));
    buffers_.Give(std::move(d.bytes));
    return kZipOk;
  }

  ZipFile file_;
  DeflateParams params_;
  size_t threads_;  // 1: each chunk deflates on the calling thread, when it is written
  size_t window_;
  std::string pending_;
  std::string dictionary_;
  std::deque<std::future<Deflated>> in_flight_;
  profdiff::BufferPool buffers_;  // chunks' inputs and outputs, reused
  std::unique_ptr<profdiff::WorkerPool> pool_;  // made at the second chunk; last, so destroyed first
  uint64_t total_in_ = 0;
  uLong crc_ = 0;
};

// The parts this forwarder deflates, by zip file (minizip has one open part per file at a time).
class Parts {
 public:
  static Parts& Get() {
    static Parts parts;
    return parts;
  }
  void Begin(ZipFile file, DeflateParams params, size_t threads) {
    std::lock_guard<std::mutex> lock(mu_);
    parts_.emplace_back(file, std::make_unique<Part>(file, params, threads));
  }
  Part* Find(ZipFile file) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [f, part] : parts_)
      if (f == file) return part.get();
    return nullptr;
  }
  std::unique_ptr<Part> Take(ZipFile file) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = parts_.begin(); it != parts_.end(); ++it) {
      if (it->first != file) continue;
      std::unique_ptr<Part> part = std::move(it->second);
      parts_.erase(it);
      return part;
    }
    return nullptr;
  }

 private:
  std::mutex mu_;
  std::vector<std::pair<ZipFile, std::unique_ptr<Part>>> parts_;
};

}  // namespace

// libxlsxwriter's packager opens each part of the workbook with this call, at zlib's default level:
// such a part is opened raw (its bytes are deflated here, at kXlsxDeflateLevel, in chunks on every
// core). Any other request passes through unchanged.
extern "C" int zipOpenNewFileInZip4_64(ZipFile file, const char* filename, const void* zipfi,
                                       const void* extrafield_local, UInt size_extrafield_local,
                                       const void* extrafield_global, UInt size_extrafield_global,
                                       const char* comment, int method, int level, int raw, int window_bits,
                                       int mem_level, int strategy, const char* password, ULong crc_for_crypting,
                                       ULong version_made_by, ULong flag_base, int zip64) {
  const OpenNewFile real = RealOpen();
  if (real == nullptr) return kZipInternalError;  // minizip is not a shared library here: see CMake
  const bool ours = method == Z_DEFLATED && raw == 0 && password == nullptr &&
                    (level == Z_DEFAULT_COMPRESSION || level == 6) && RealWrite() != nullptr &&
                    RealCloseRaw64() != nullptr;
  if (!ours)
    return real(file, filename, zipfi, extrafield_local, size_extrafield_local, extrafield_global,
                size_extrafield_global, comment, method, level, raw, window_bits, mem_level, strategy, password,
                crc_for_crypting, version_made_by, flag_base, zip64);
  const DeflateParams params{profdiff::report::kXlsxDeflateLevel, window_bits, mem_level, strategy};
  const int rc = real(file, filename, zipfi, extrafield_local, size_extrafield_local, extrafield_global,
                      size_extrafield_global, comment, method, params.level, /*raw=*/1, window_bits, mem_level,
                      strategy, password, crc_for_crypting, version_made_by, flag_base, zip64);
  if (rc != kZipOk) return rc;
  Parts::Get().Begin(file, params, profdiff::report::t_deflate_threads);
  profdiff::report::g_parts_deflated_fast.fetch_add(1, std::memory_order_relaxed);
  return rc;
}

extern "C" int zipWriteInFileInZip(ZipFile file, const void* buf, unsigned len) {
  if (Part* part = Parts::Get().Find(file)) return part->Write(buf, len);
  const WriteInFile real = RealWrite();
  return real == nullptr ? kZipInternalError : real(file, buf, len);
}

extern "C" int zipCloseFileInZip(ZipFile file) {
  if (std::unique_ptr<Part> part = Parts::Get().Take(file)) return part->Close();
  const CloseFile real = RealClose();
  return real == nullptr ? kZipInternalError : real(file);
}
#endif
