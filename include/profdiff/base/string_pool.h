// StringPool: interns strings so events carry a 4-byte id instead of a std::string. Id 0 is always
// the empty string. Views returned by Get() stay valid for the pool's lifetime.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace profdiff {

using StringId = uint32_t;
inline constexpr StringId kEmptyString = 0;

class StringPool {
 public:
  StringPool();
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;
  StringPool(StringPool&&) noexcept;
  StringPool& operator=(StringPool&&) noexcept;
  ~StringPool();

  StringId Intern(std::string_view s);
  // Forgets every string (only the empty one is left, id 0), keeping memory for the next ones.
  void Clear();
  // Returns the id of `s` if it was interned, else nullopt-like kNotInterned.
  static constexpr StringId kNotInterned = UINT32_MAX;
  StringId Find(std::string_view s) const;

  std::string_view Get(StringId id) const { return views_[id]; }
  size_t size() const { return views_.size(); }
  // Bytes held by the character arena (for memory reporting).
  size_t arena_bytes() const { return arena_bytes_; }

 private:
  std::string_view Store(std::string_view s);

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_cap_ = 0;
  size_t arena_bytes_ = 0;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, StringId> index_;
};

}  // namespace profdiff
