// ByteSource: reads a file in fixed-size chunks, transparently gunzipping when the file starts with the
// gzip magic (1f 8b). Memory use is independent of the file size: one input chunk (plus zlib's state).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "profdiff/base/status.h"

namespace profdiff {

class ByteSource {
 public:
  static constexpr size_t kDefaultChunkBytes = size_t{4} << 20;  // 4 MiB

  // Opens `path`. `chunk_bytes` is the size of one read from the file (tests use tiny chunks).
  static StatusOr<std::unique_ptr<ByteSource>> Open(const std::string& path,
                                                    size_t chunk_bytes = kDefaultChunkBytes);
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  ~ByteSource();

  // Reads up to `n` (decompressed) bytes into `out`; returns the number read, 0 only at end of data.
  // A read error or a corrupt/truncated gzip stream is an error naming the file and the offset; every
  // later Read returns the same error (a reader that read ahead meets it where a serial one would).
  StatusOr<size_t> Read(char* out, size_t n);

  // Reads and discards the rest of the data: Ok at its end, else the read or gzip error. A reader
  // that met malformed data in a gzip file calls it to tell a damaged file (the gzip error, which
  // explains the malformed data) from a file whose content is malformed (Ok). At most `max_bytes`
  // more are decompressed (a small gzip can hold gigabytes of zeros): Ok when it stops there.
  Status Drain(uint64_t max_bytes = UINT64_MAX);

  // A Read has returned an error (the error the reader got is the source's own).
  bool failed() const { return !failure_.ok(); }
  const Status& failure() const { return failure_; }
  const std::string& path() const { return path_; }
  bool gzipped() const { return gzip_; }
  size_t chunk_bytes() const { return chunk_bytes_; }
  // Decompressed bytes handed out so far.
  uint64_t offset() const { return offset_; }
  // A plain (not gzip) regular file mapped read-only, for a reader that parses it in place (the
  // parallel trace reader): the whole file, or an empty view when it cannot be mapped (then read it).
  // Valid for the source's lifetime. ReleaseBefore() gives back the memory of the part before `end`,
  // parsed and no longer viewed (the file is unchanged; its pages stay in the page cache). Such a
  // reader moves the read position on with SeekTo() and counts its progress with CountProgress().
  std::string_view Map();
  void ReleaseBefore(uint64_t end);

  Status SeekTo(uint64_t offset);
  void CountProgress(uint64_t bytes) {
    if (progress_ != nullptr) progress_->fetch_add(bytes, std::memory_order_relaxed);
  }
  // Size of the file on disk (compressed size for .gz).
  uint64_t file_bytes() const { return file_bytes_; }
  // Adds the bytes read from the file on disk (compressed bytes for .gz) to `counter` as they are
  // read, for a progress display on another thread; null: none.
  void set_progress(std::atomic<uint64_t>* counter) { progress_ = counter; }
  // Adds the bytes a .gz inflates to to `counter` as they are produced (a small gzip can hold
  // gigabytes: its compressed bytes alone would show no progress for minutes); null: none.
  void set_inflated_progress(std::atomic<uint64_t>* counter) { inflated_progress_ = counter; }

 private:
  struct Inflater;
  ByteSource() = default;
  StatusOr<size_t> ReadRaw(char* out, size_t n);
  StatusOr<size_t> ReadGzip(char* out, size_t n);

  std::string path_;
  FILE* file_ = nullptr;
  bool gzip_ = false;
  bool eof_ = false;
  Status failure_;  // the error of the Read that failed (Ok until one does)
  size_t chunk_bytes_ = kDefaultChunkBytes;
  uint64_t offset_ = 0;
  uint64_t file_bytes_ = 0;
  uint64_t raw_offset_ = 0;  // compressed bytes consumed
  std::atomic<uint64_t>* progress_ = nullptr;
  std::atomic<uint64_t>* inflated_progress_ = nullptr;
  std::unique_ptr<Inflater> inflater_;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
  uint64_t released_ = 0;  // mapped bytes before this were given back
};

// Reads a whole (possibly gzipped) file into memory; for small side files only.
StatusOr<std::string> ReadWholeFile(const std::string& path);

}  // namespace profdiff
