#include "profdiff/base/string_pool.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace profdiff {
namespace {
// Shared blocks start small and double up to kBlockSize: a pool of a few strings (a tiny trace, a
// parallel load's fragment of a small block) holds kilobytes, not a megabyte.
constexpr size_t kFirstBlockSize = 4 << 10;
constexpr size_t kBlockSize = 1 << 20;
}

StringPool::StringPool() {
  views_.emplace_back();
  index_.emplace(std::string_view(), kEmptyString);
}
StringPool::StringPool(StringPool&&) noexcept = default;
StringPool& StringPool::operator=(StringPool&&) noexcept = default;
StringPool::~StringPool() = default;

std::string_view StringPool::Store(std::string_view s) {
  if (s.size() > kBlockSize / 4) {
    // Large strings get their own block so they do not waste the tail of a shared one.
    auto block = std::make_unique_for_overwrite<char[]>(s.size());
    std::memcpy(block.get(), s.data(), s.size());
    std::string_view view(block.get(), s.size());
    blocks_.insert(blocks_.begin(), std::move(block));  // keep the current block last
    arena_bytes_ += s.size();
    return view;
  }
  if (blocks_.empty() || block_used_ + s.size() > block_cap_) {
    const size_t cap = std::min(kBlockSize, std::max({kFirstBlockSize, 2 * block_cap_, std::bit_ceil(s.size())}));
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(cap));
    block_used_ = 0;
    block_cap_ = cap;
    arena_bytes_ += cap;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  return {dst, s.size()};
}

void StringPool::Clear() {
  std::unique_ptr<char[]> current;
  if (block_cap_ > 0) current = std::move(blocks_.back());  // the shared block in use is reused
  blocks_.clear();
  if (current) blocks_.push_back(std::move(current));
  block_used_ = 0;
  arena_bytes_ = block_cap_;
  views_.clear();
  views_.emplace_back();
  index_.clear();
  index_.emplace(std::string_view(), kEmptyString);
}

StringId StringPool::Intern(std::string_view s) {
  auto it = index_.find(s);
  if (it != index_.end()) return it->second;
  std::string_view stored = Store(s);
  auto id = static_cast<StringId>(views_.size());
  views_.push_back(stored);
  index_.emplace(stored, id);
  return id;
}

StringId StringPool::Find(std::string_view s) const {
  auto it = index_.find(s);
  return it == index_.end() ? kNotInterned : it->second;
}

}  // namespace profdiff
