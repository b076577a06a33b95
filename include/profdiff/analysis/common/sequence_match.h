// Sequence matching of two operator/module lists (docs/reference/operators.md#fwd-bwd-segmentation,
// #sequence-matching, #matching-keys; 26.1 line: difflib).
//
// Items are reduced to integer keys by the caller (KeyMap below interns name, name+shape or
// op_name_map-mapped strings into one key space shared by both sides); matching only compares keys
// for equality (equal keys <=> equal strings). The result is the list of pairs in output order:
// (base index, comparison index), with kNoIndex (-1) for the missing side.
//
// Between two matched pairs (and before the first / after the last) the unmatched items of a "gap"
// are emitted side by side in index order; GapOrder says which side comes first. kComparisonFirst
// is what the 8.2 release line does (its recurrence), kBaseFirst what the 26.1 line does (difflib).
//
//  * MatchLcs (default): a true longest common subsequence in O(n·m/64) time and O(n+m) memory
//    (common prefix/suffix stripped, then Hirschberg divide and conquer driven by bit-parallel
//    LCS-length rows, Hyyrö's formulation).
//  * MatchReferenceCompat (--reference-compat): the 8.2 reference's recurrence exactly as
//    docs/reference/operators.md#sequence-matching describes it (not always a maximum matching),
//    computed bit-parallel (its rows' step bits follow a parenthesis-matching rule, see
//    sequence_match.cc): O(n·m/64) time for two passes, memory O(n·m/256 bits) of row checkpoints
//    plus one block of flags. Its own backtrack always emits a gap's comparison items first;
//    kBaseFirst regroups each gap.
//  * MatchSequenceMatcher: the 26.1 reference's pairing, Python's
//    difflib.SequenceMatcher(None, base, comparison, autojunk=False).get_matching_blocks(): the
//    longest common contiguous block (earliest in base, then earliest in comparison, on ties), then
//    the same left and right of it. Exact, with a suffix automaton of the comparison list and a
//    wavelet matrix for range-restricted occurrence queries (see sequence_match.cc); near-linear on
//    operator-like data.
//  * MatchNone (--disable_details): all base items, then all comparison items, whatever the
//    GapOrder (both release lines do this).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace profdiff::analysis {

using MatchKey = uint32_t;
inline constexpr int32_t kNoIndex = -1;

struct MatchPair {
  int32_t base = kNoIndex;        // index into the base list, or kNoIndex
  int32_t comparison = kNoIndex;  // index into the comparison list, or kNoIndex
  friend bool operator==(const MatchPair&, const MatchPair&) = default;
};

enum class MatchAlgorithm {
  kLcs,              // default: true LCS
  // --reference-compat: the 8.2 reference's recurrence
  // (docs/reference/operators.md#sequence-matching)
  kReferenceCompat,
  kSequenceMatcher,  // the 26.1 reference's difflib.SequenceMatcher matching blocks
  kNone,             // --disable_details: no matching
};

// Which side's unmatched items come first in each gap between matched pairs.
enum class GapOrder {
  kComparisonFirst,  // 8.2 reference (and profdiff's output so far)
  kBaseFirst,        // 26.1 reference (difflib opcodes: delete before insert)
};

// The reference logs a "comparison time is expected to exceed 30 minutes" WARNING above this many
// cells (n·m) for its recurrence (docs/reference/operators.md#sequence-matching).
inline constexpr uint64_t kReferenceSlowCells = 5'000'000'000ULL;

std::vector<MatchPair> MatchLcs(std::span<const MatchKey> base,
                                std::span<const MatchKey> comparison, GapOrder gap_order);
std::vector<MatchPair> MatchReferenceCompat(std::span<const MatchKey> base,
                                            std::span<const MatchKey> comparison,
                                            GapOrder gap_order);
std::vector<MatchPair> MatchSequenceMatcher(std::span<const MatchKey> base,
                                            std::span<const MatchKey> comparison,
                                            GapOrder gap_order);
std::vector<MatchPair> MatchNone(size_t base_size, size_t comparison_size);
std::vector<MatchPair> MatchSequences(MatchAlgorithm algorithm, std::span<const MatchKey> base,
                                      std::span<const MatchKey> comparison, GapOrder gap_order);

// One common contiguous block: base[base_begin, +size) == comparison[comparison_begin, +size).
struct MatchBlock {
  uint32_t base_begin = 0;
  uint32_t comparison_begin = 0;
  uint32_t size = 0;
  friend bool operator==(const MatchBlock&, const MatchBlock&) = default;
};

// The blocks of Python's SequenceMatcher(None, base, comparison, autojunk=False)
// .get_matching_blocks(), adjacent blocks merged, without the final (n, m, 0) sentinel.
std::vector<MatchBlock> SequenceMatcherBlocks(std::span<const MatchKey> base,
                                              std::span<const MatchKey> comparison);

// Stably reorders the unmatched items of every gap so that `gap_order`'s side comes first.
void ApplyGapOrder(std::vector<MatchPair>& pairs, GapOrder gap_order);

// Length of a longest common subsequence, bit-parallel (O(n·m/64) time, O(n) memory).
size_t LcsLength(std::span<const MatchKey> base, std::span<const MatchKey> comparison);

// Number of pairs with both sides present.
size_t CountMatched(std::span<const MatchPair> pairs);

// Interns strings into MatchKeys; use one KeyMap for both sides of a comparison.
class KeyMap {
 public:
  MatchKey Key(std::string_view s);
  size_t size() const { return index_.size(); }

 private:
  std::unordered_map<std::string, MatchKey> index_;
};

// ---- Forward/backward segmentation (docs/reference/operators.md#fwd-bwd-segmentation) -----------

struct SegmentItem {
  int64_t start_ns = 0;
  bool on_bwd_thread = false;  // the item's thread is the side's backward thread (bwd_tid)
};

// A run of consecutive items (in start order) on the backward thread, or off it.
struct Segment {
  uint32_t begin = 0;  // positions in `order` of the Segmentation
  uint32_t end = 0;
  bool is_bwd = false;
};

struct Segmentation {
  std::vector<uint32_t> order;    // item indices stably sorted by start_ns
  std::vector<Segment> segments;  // cover `order` in sequence
};

// Stable-sorts the items by start and cuts a new segment whenever on_bwd_thread changes.
Segmentation SegmentFwdBwd(std::span<const SegmentItem> items);

// Pairs segments in order (docs/reference/operators.md#fwd-bwd-segmentation): if the first segments
// have the same flag, i pairs with i; otherwise the side with more segments (comparison on a tie)
// first emits its first segment unmatched. Leftover segments are emitted unmatched. Result: (base
// segment, comparison segment) with kNoIndex for none.
std::vector<MatchPair> PairSegments(std::span<const Segment> base, std::span<const Segment> comparison);

// The whole operator matching of docs/reference/operators.md#fwd-bwd-segmentation,
// #sequence-matching: segments both sides (when `use_segments`, i.e. both sides have a bwd thread;
// otherwise the lists are matched as given), pairs the segments and matches each pair with
// `algorithm` and `gap_order`. Indices in the result refer to the input lists. If either side is
// empty, all base items then all comparison items are emitted unmatched.
std::vector<MatchPair> MatchSegmented(MatchAlgorithm algorithm, std::span<const MatchKey> base_keys,
                                      std::span<const SegmentItem> base_items,
                                      std::span<const MatchKey> comparison_keys,
                                      std::span<const SegmentItem> comparison_items,
                                      bool use_segments, GapOrder gap_order);

}  // namespace profdiff::analysis
