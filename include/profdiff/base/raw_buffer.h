// Bytes that grow without being zeroed or copied twice: a read buffer that may hold a value up to
// the loaders' 1 GiB cap. std::vector<char> zero-fills every byte it grows by and, growing, keeps
// the old and the new array alive at once (1.5x the bytes at the peak); realloc() of a large block
// moves its pages with mremap on Linux instead, so the peak stays near the bytes held.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>

namespace profdiff {

class RawBuffer {
 public:
  RawBuffer() = default;
  RawBuffer(const RawBuffer&) = delete;
  RawBuffer& operator=(const RawBuffer&) = delete;
  RawBuffer(RawBuffer&& other) noexcept { swap(other); }
  RawBuffer& operator=(RawBuffer&& other) noexcept {
    swap(other);
    return *this;
  }
  ~RawBuffer() { std::free(data_); }

  size_t size() const { return size_; }
  char* data() { return data_; }
  const char* data() const { return data_; }
  char& operator[](size_t i) { return data_[i]; }
  const char& operator[](size_t i) const { return data_[i]; }
  // Sets the size to `n`, keeping the first min(size, n) bytes; new bytes are uninitialised. Throws
  // std::bad_alloc as a vector would when the memory cannot be had.
  void resize(size_t n) {
    if (n == size_) return;
    void* p = std::realloc(data_, n == 0 ? 1 : n);
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<char*>(p);
    size_ = n;
  }
  void swap(RawBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace profdiff
