#include "profdiff/io/byte_source.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace profdiff {

struct ByteSource::Inflater {
  z_stream zs{};
  bool initialised = false;
  bool stream_ended = false;  // the current gzip member is complete
  std::vector<unsigned char> in;
  ~Inflater() {
    if (initialised) inflateEnd(&zs);
  }
};

StatusOr<std::unique_ptr<ByteSource>> ByteSource::Open(const std::string& path, size_t chunk_bytes) {
  std::unique_ptr<ByteSource> src(new ByteSource());
  src->path_ = path;
  src->chunk_bytes_ = std::max<size_t>(chunk_bytes, 1);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    if (err == ENOENT) return NotFound(fmt::format("{}: no such file", path));
    return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(err)));
  }
  if (S_ISDIR(st.st_mode)) return InvalidArgument(fmt::format("{}: is a directory, not a file", path));
  src->file_bytes_ = static_cast<uint64_t>(st.st_size);
  src->file_ = std::fopen(path.c_str(), "rb");
  if (src->file_ == nullptr) {
    return IoError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  // Sniff the gzip magic without consuming it (the inflater reads the header itself).
  unsigned char magic[2] = {0, 0};
  size_t got = std::fread(magic, 1, 2, src->file_);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) src->gzip_ = true;
  if (std::fseek(src->file_, 0, SEEK_SET) != 0) {
    return IoError(fmt::format("{}: cannot seek: {}", path, std::strerror(errno)));
  }
  if (src->gzip_) {
    src->inflater_ = std::make_unique<Inflater>();
    Inflater& inf = *src->inflater_;
    inf.in.resize(std::min<size_t>(src->chunk_bytes_, size_t{1} << 20));
    if (inflateInit2(&inf.zs, 15 + 16) != Z_OK) return Internal(fmt::format("{}: zlib init failed", path));
    inf.initialised = true;
  }
  return src;
}

ByteSource::~ByteSource() {
  if (map_ != nullptr) ::munmap(map_, map_bytes_);
  if (file_ != nullptr) std::fclose(file_);
}

std::string_view ByteSource::Map() {
  if (map_ != nullptr) return {static_cast<const char*>(map_), map_bytes_};
  if (gzip_ || file_bytes_ == 0 || file_bytes_ > SIZE_MAX) return {};
  void* p = ::mmap(nullptr, static_cast<size_t>(file_bytes_), PROT_READ, MAP_PRIVATE, ::fileno(file_), 0);
  if (p == MAP_FAILED) return {};
  (void)::madvise(p, static_cast<size_t>(file_bytes_), MADV_SEQUENTIAL);
  map_ = p;
  map_bytes_ = static_cast<size_t>(file_bytes_);
  return {static_cast<const char*>(map_), map_bytes_};
}

void ByteSource::ReleaseBefore(uint64_t end) {
  if (map_ == nullptr) return;
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  end = std::min<uint64_t>(end, map_bytes_) / page * page;  // whole pages only
  if (end <= released_) return;
  (void)::madvise(static_cast<char*>(map_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

Status ByteSource::SeekTo(uint64_t offset) {
  if (gzip_) return Internal(fmt::format("{}: cannot seek in a gzip stream", path_));
  if (std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0) {
    return IoError(fmt::format("{}: cannot seek: {}", path_, std::strerror(errno)));
  }
  offset_ = offset;
  raw_offset_ = offset;
  eof_ = false;
  return Status::Ok();
}

StatusOr<size_t> ByteSource::Read(char* out, size_t n) {
  if (!failure_.ok()) return failure_;
  n = std::min(n, chunk_bytes_);
  if (n == 0 || eof_) return size_t{0};
  StatusOr<size_t> got = gzip_ ? ReadGzip(out, n) : ReadRaw(out, n);
  if (got.ok()) {
    offset_ += *got;
    if (gzip_ && inflated_progress_ != nullptr) inflated_progress_->fetch_add(*got, std::memory_order_relaxed);
    if (*got == 0) eof_ = true;
  } else {
    failure_ = got.status();
  }
  return got;
}

StatusOr<size_t> ByteSource::ReadRaw(char* out, size_t n) {
  size_t got = std::fread(out, 1, n, file_);
  if (got < n && std::ferror(file_)) {
    return IoError(fmt::format("{}@byte {}: read error: {}", path_, raw_offset_ + got, std::strerror(errno)));
  }
  raw_offset_ += got;
  if (progress_ != nullptr) progress_->fetch_add(got, std::memory_order_relaxed);
  return got;
}

StatusOr<size_t> ByteSource::ReadGzip(char* out, size_t n) {
  Inflater& inf = *inflater_;
  z_stream& zs = inf.zs;
  zs.next_out = reinterpret_cast<Bytef*>(out);
  zs.avail_out = static_cast<uInt>(std::min<size_t>(n, UINT32_MAX));
  while (zs.avail_out > 0) {
    if (zs.avail_in == 0) {
      size_t got = std::fread(inf.in.data(), 1, inf.in.size(), file_);
      if (got == 0) {
        if (std::ferror(file_)) {
          return IoError(fmt::format("{}@byte {}: read error: {}", path_, raw_offset_, std::strerror(errno)));
        }
        if (!inf.stream_ended) {
          return ParseError(fmt::format("{}@byte {}: truncated gzip stream (after {} decompressed bytes)",
                                        path_, raw_offset_, offset_ + (n - zs.avail_out)));
        }
        break;  // clean end of the last member
      }
      raw_offset_ += got;
      if (progress_ != nullptr) progress_->fetch_add(got, std::memory_order_relaxed);
      zs.next_in = inf.in.data();
      zs.avail_in = static_cast<uInt>(got);
      if (inf.stream_ended) {
        // Another gzip member follows (concatenated .gz files are valid gzip).
        if (inflateReset(&zs) != Z_OK) return Internal(fmt::format("{}: zlib reset failed", path_));
        inf.stream_ended = false;
      }
    } else if (inf.stream_ended) {
      if (inflateReset(&zs) != Z_OK) return Internal(fmt::format("{}: zlib reset failed", path_));
      inf.stream_ended = false;
    }
    int rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      inf.stream_ended = true;
      continue;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      return ParseError(fmt::format("{}@byte {}: corrupt gzip data: {}", path_,
                                    raw_offset_ - zs.avail_in, zs.msg != nullptr ? zs.msg : "inflate failed"));
    }
    if (rc == Z_BUF_ERROR && zs.avail_in != 0) {
      return ParseError(fmt::format("{}@byte {}: corrupt gzip data", path_, raw_offset_ - zs.avail_in));
    }
  }
  return n - zs.avail_out;
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  PD_ASSIGN_OR_RETURN(std::unique_ptr<ByteSource> src, ByteSource::Open(path));
  std::string data;
  if (!src->gzipped()) data.reserve(src->file_bytes());
  std::vector<char> buf(std::min<size_t>(src->chunk_bytes(), size_t{1} << 20));
  for (;;) {
    PD_ASSIGN_OR_RETURN(size_t got, src->Read(buf.data(), buf.size()));
    if (got == 0) break;
    data.append(buf.data(), got);
  }
  return data;
}

Status ByteSource::Drain(uint64_t max_bytes) {
  std::string sink(chunk_bytes_, '\0');
  for (uint64_t drained = 0; drained < max_bytes;) {
    PD_ASSIGN_OR_RETURN(size_t n, Read(sink.data(), sink.size()));
    if (n == 0) return Status::Ok();
    drained += n;
  }
  return Status::Ok();
}

}  // namespace profdiff
