#include "profdiff/analysis/common/sequence_match.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace profdiff::analysis {

namespace {

// ---- Output assembly ------------------------------------------------------------------------------

// `matches` are (base, comparison) index pairs strictly increasing in both. Emits every item once:
// in each gap between two matches, the unmatched items of the side `gap_order` names first.
std::vector<MatchPair> AssemblePairs(const std::vector<std::pair<uint32_t, uint32_t>>& matches,
                                     size_t n, size_t m, GapOrder gap_order) {
  std::vector<MatchPair> out;
  out.reserve(n + m - matches.size());
  uint32_t b = 0, c = 0;
  auto flush = [&](uint32_t b_end, uint32_t c_end) {
    if (gap_order == GapOrder::kBaseFirst)
      for (; b < b_end; ++b) out.push_back({static_cast<int32_t>(b), kNoIndex});
    for (; c < c_end; ++c) out.push_back({kNoIndex, static_cast<int32_t>(c)});
    for (; b < b_end; ++b) out.push_back({static_cast<int32_t>(b), kNoIndex});
  };
  for (const auto& [bi, ci] : matches) {
    flush(bi, ci);
    out.push_back({static_cast<int32_t>(bi), static_cast<int32_t>(ci)});
    b = bi + 1;
    c = ci + 1;
  }
  flush(static_cast<uint32_t>(n), static_cast<uint32_t>(m));
  return out;
}

// ---- Bit-parallel LCS rows ---------------------------------------------------------------------------

// Keys are remapped to dense ids; an id that occurs on one side only can never match. Ids are
// assigned so that base-only and comparison-only items get distinct "never equal" ids.
struct DenseKeys {
  std::vector<uint32_t> b, c;
  uint32_t num_ids = 0;  // ids < num_ids occur on both sides
  static constexpr uint32_t kBaseOnly = UINT32_MAX - 1;
  static constexpr uint32_t kComparisonOnly = UINT32_MAX;
};

DenseKeys Densify(std::span<const MatchKey> base, std::span<const MatchKey> comparison) {
  std::unordered_map<MatchKey, uint32_t> in_base;
  in_base.reserve(base.size());
  for (MatchKey k : base) in_base.emplace(k, UINT32_MAX);
  DenseKeys d;
  d.c.resize(comparison.size());
  for (size_t i = 0; i < comparison.size(); ++i) {
    auto it = in_base.find(comparison[i]);
    if (it == in_base.end()) {
      d.c[i] = DenseKeys::kComparisonOnly;
      continue;
    }
    if (it->second == UINT32_MAX) it->second = d.num_ids++;
    d.c[i] = it->second;
  }
  d.b.resize(base.size());
  for (size_t j = 0; j < base.size(); ++j) {
    uint32_t id = in_base.find(base[j])->second;
    d.b[j] = id == UINT32_MAX ? DenseKeys::kBaseOnly : id;
  }
  return d;
}

class LcsSolver {
 public:
  LcsSolver(const uint32_t* b, const uint32_t* c, uint32_t num_ids)
      : b_(b), c_(c), count_(num_ids, 0), slot_(num_ids, -1), start_(num_ids, 0) {}

  // LCS matches of b[b0,b1) and c[c0,c1), appended to `matches_` (unordered).
  void Solve(uint32_t b0, uint32_t b1, uint32_t c0, uint32_t c1) {
    while (b0 < b1 && c0 < c1 && b_[b0] == c_[c0]) matches_.emplace_back(b0++, c0++);
    while (b0 < b1 && c0 < c1 && b_[b1 - 1] == c_[c1 - 1]) matches_.emplace_back(--b1, --c1);
    if (b0 == b1 || c0 == c1) return;
    const uint64_t n = b1 - b0, r = c1 - c0;
    if ((n + 1) * (r + 1) <= kSmallCells) {
      SolveSmall(b0, b1, c0, c1);
      return;
    }
    if (r == 1) {
      for (uint32_t j = b1; j > b0; --j)
        if (b_[j - 1] == c_[c0]) {
          matches_.emplace_back(j - 1, c0);
          break;
        }
      return;
    }
    const uint32_t mid = c0 + static_cast<uint32_t>(r / 2);
    fwd_.resize(n + 1);
    bwd_.resize(n + 1);
    Row(b0, b1, c0, mid, /*reversed=*/false, fwd_.data());
    Row(b0, b1, mid, c1, /*reversed=*/true, bwd_.data());
    // fwd_[j] = LCS(c[c0,mid), b[b0,b0+j)); bwd_[k] = LCS(c[mid,c1), last k items of b[b0,b1)).
    uint32_t best_j = 0;
    int64_t best = -1;
    for (uint64_t j = 0; j <= n; ++j) {
      int64_t v = int64_t{fwd_[j]} + int64_t{bwd_[n - j]};
      if (v > best) {
        best = v;
        best_j = static_cast<uint32_t>(j);
      }
    }
    if (best == 0) return;
    Solve(b0, b0 + best_j, c0, mid);
    Solve(b0 + best_j, b1, mid, c1);
  }

  std::vector<std::pair<uint32_t, uint32_t>>& matches() { return matches_; }

 private:
  static constexpr uint64_t kSmallCells = 1 << 14;
  static constexpr uint32_t kDenseMin = 64;  // a key with this many occurrences gets a dense mask

  // Textbook DP with the reference's tie preference on traceback (up only when strictly better).
  void SolveSmall(uint32_t b0, uint32_t b1, uint32_t c0, uint32_t c1) {
    const size_t n = b1 - b0, r = c1 - c0, w = n + 1;
    table_.assign((r + 1) * w, 0);
    for (size_t i = 1; i <= r; ++i)
      for (size_t j = 1; j <= n; ++j) {
        int32_t& cell = table_[i * w + j];
        if (c_[c0 + i - 1] == b_[b0 + j - 1])
          cell = table_[(i - 1) * w + j - 1] + 1;
        else
          cell = std::max(table_[(i - 1) * w + j], table_[i * w + j - 1]);
      }
    size_t i = r, j = n;
    while (i > 0 && j > 0) {
      if (c_[c0 + i - 1] == b_[b0 + j - 1]) {
        matches_.emplace_back(b0 + j - 1, c0 + i - 1);
        --i;
        --j;
      } else if (table_[(i - 1) * w + j] > table_[i * w + j - 1]) {
        --i;
      } else {
        --j;
      }
    }
  }

  // out[j] = LCS(c[c0,c1), b[b0,b0+j)) for j = 0..n; with `reversed`, both ranges read backwards.
  void Row(uint32_t b0, uint32_t b1, uint32_t c0, uint32_t c1, bool reversed, int32_t* out) {
    const size_t n = b1 - b0;
    const size_t words = (n + 63) / 64;
    auto bpos = [&](size_t k) { return reversed ? b1 - 1 - k : b0 + k; };  // k-th item of b'
    // Occurrence counts and positions (in b' order) per id.
    touched_.clear();
    for (size_t k = 0; k < n; ++k) {
      uint32_t id = b_[bpos(k)];
      if (id >= count_.size()) continue;
      if (count_[id]++ == 0) touched_.push_back(id);
    }
    uint32_t total = 0, dense = 0;
    for (uint32_t id : touched_) {
      start_[id] = total;
      total += count_[id];
      if (count_[id] >= kDenseMin) slot_[id] = static_cast<int32_t>(dense++);
    }
    positions_.resize(total);
    masks_.assign(static_cast<size_t>(dense) * words, 0);
    // start_ serves as the fill cursor below; fill_ keeps the starts to restore afterwards.
    fill_.resize(touched_.size());
    for (size_t t = 0; t < touched_.size(); ++t) fill_[t] = start_[touched_[t]];
    for (size_t k = 0; k < n; ++k) {
      uint32_t id = b_[bpos(k)];
      if (id >= count_.size()) continue;
      positions_[start_[id]++] = static_cast<uint32_t>(k);
      if (slot_[id] >= 0) masks_[static_cast<size_t>(slot_[id]) * words + k / 64] |= uint64_t{1} << (k % 64);
    }
    for (size_t t = 0; t < touched_.size(); ++t) start_[touched_[t]] = fill_[t];

    v_.assign(words, ~uint64_t{0});
    scratch_.assign(words, 0);
    const size_t r = c1 - c0;
    for (size_t i = 0; i < r; ++i) {
      uint32_t id = c_[reversed ? c1 - 1 - i : c0 + i];
      if (id >= count_.size() || count_[id] == 0) continue;  // no match in this row: V unchanged
      const uint64_t* mask;
      if (slot_[id] >= 0) {
        mask = masks_.data() + static_cast<size_t>(slot_[id]) * words;
      } else {
        for (uint32_t p = start_[id], e = start_[id] + count_[id]; p < e; ++p)
          scratch_[positions_[p] / 64] |= uint64_t{1} << (positions_[p] % 64);
        mask = scratch_.data();
      }
      // Hyyrö: V' = (V + (V & M)) | (V & ~M); a 0 bit at k means the row grows at column k.
      uint64_t carry = 0;
      uint64_t* v = v_.data();
      for (size_t w = 0; w < words; ++w) {
        const uint64_t vw = v[w], mw = mask[w];
        uint64_t sum;
        const bool o1 = __builtin_add_overflow(vw, vw & mw, &sum);
        const bool o2 = __builtin_add_overflow(sum, carry, &sum);
        carry = (o1 || o2) ? 1 : 0;
        v[w] = sum | (vw & ~mw);
      }
      if (slot_[id] < 0)
        for (uint32_t p = start_[id], e = start_[id] + count_[id]; p < e; ++p)
          scratch_[positions_[p] / 64] = 0;
    }
    out[0] = 0;
    for (size_t k = 0; k < n; ++k) out[k + 1] = out[k] + static_cast<int32_t>(((v_[k / 64] >> (k % 64)) & 1) ^ 1);
    for (uint32_t id : touched_) {
      count_[id] = 0;
      slot_[id] = -1;
    }
  }

  const uint32_t* b_;
  const uint32_t* c_;
  std::vector<uint32_t> count_;
  std::vector<int32_t> slot_;
  std::vector<uint32_t> start_;
  std::vector<uint32_t> touched_, positions_, fill_;
  std::vector<uint64_t> masks_, v_, scratch_;
  std::vector<int32_t> fwd_, bwd_, table_;
  std::vector<std::pair<uint32_t, uint32_t>> matches_;
};

}  // namespace

std::vector<MatchPair> MatchNone(size_t base_size, size_t comparison_size) {
  std::vector<MatchPair> out;
  out.reserve(base_size + comparison_size);
  for (size_t j = 0; j < base_size; ++j) out.push_back({static_cast<int32_t>(j), kNoIndex});
  for (size_t i = 0; i < comparison_size; ++i) out.push_back({kNoIndex, static_cast<int32_t>(i)});
  return out;
}

void ApplyGapOrder(std::vector<MatchPair>& pairs, GapOrder gap_order) {
  const bool base_first = gap_order == GapOrder::kBaseFirst;
  auto first_side = [&](const MatchPair& p) {
    return base_first ? p.base != kNoIndex : p.comparison != kNoIndex;
  };
  auto gap_end = pairs.begin();
  while (gap_end != pairs.end()) {
    auto gap_begin = gap_end;
    while (gap_end != pairs.end() && (gap_end->base == kNoIndex || gap_end->comparison == kNoIndex))
      ++gap_end;
    std::stable_partition(gap_begin, gap_end, first_side);
    if (gap_end != pairs.end()) ++gap_end;  // the matched pair closing the gap
  }
}

std::vector<MatchPair> MatchLcs(std::span<const MatchKey> base,
                                std::span<const MatchKey> comparison, GapOrder gap_order) {
  if (base.empty() || comparison.empty()) return MatchNone(base.size(), comparison.size());
  DenseKeys d = Densify(base, comparison);
  LcsSolver solver(d.b.data(), d.c.data(), d.num_ids);
  solver.Solve(0, static_cast<uint32_t>(base.size()), 0, static_cast<uint32_t>(comparison.size()));
  auto& matches = solver.matches();
  std::sort(matches.begin(), matches.end());
  return AssemblePairs(matches, base.size(), comparison.size(), gap_order);
}

size_t LcsLength(std::span<const MatchKey> base, std::span<const MatchKey> comparison) {
  if (base.empty() || comparison.empty()) return 0;
  DenseKeys d = Densify(base, comparison);
  LcsSolver solver(d.b.data(), d.c.data(), d.num_ids);
  solver.Solve(0, static_cast<uint32_t>(base.size()), 0, static_cast<uint32_t>(comparison.size()));
  return solver.matches().size();
}

// ---- The reference recurrence, bit-parallel ---------------------------------------------------------
//
// Row i of the recurrence of docs/reference/operators.md#sequence-matching (i >= 2) is new[j] =
// M[j] ? new[j-1] + 1 : max(new[j-1], old[j]), with M[j] = (C[i] == B[j]). By induction new >= old
// and both rows are non-decreasing with steps of 0 or 1, so M[j] ? new[j-1] + 1 : ... equals
// max(old[j], new[j-1] + M[j]) and
//   new[j] = P[j] + max_{k<=j} (old[k] - P[k]),   P[j] = Σ_{t<=j} M[t].
// Hence, with D the step bits of a row (D[j] = row[j] − row[j−1]), the walk g = old − P moves up at
// Up = D_old & ~M and down at Down = M & ~D_old, and
//   D_new = M | NewMax,   flag(i, j) = NewMax[j],
// where NewMax marks the up steps that reach a new running maximum of g: the unmatched ')' of the
// parenthesis string with '(' = Down and ')' = Up. (A flag is "left < up" without a match, i.e. the
// row value grows without a match.) Row 1 is special: A[j] = [some C[1] == B[k], k <= j], one step
// bit at the first match, and no flags.
//
// Time O(n·m/64) plus the matches; memory O(n·sqrt-ish): rows are checkpointed every kBlock rows and
// each block's flags are recomputed when the backtrack reaches it (the forward pass runs twice).
namespace {

struct ParenEntry {
  uint8_t unmatched_up = 0;  // ')' of the byte not matched inside it (with no '(' carried in)
  uint8_t open = 0;          // '(' of the byte left open at its end
};

const std::vector<ParenEntry>& ParenTable() {
  static const std::vector<ParenEntry> table = [] {
    std::vector<ParenEntry> t(1 << 16);
    for (unsigned up = 0; up < 256; ++up)
      for (unsigned down = 0; down < 256; ++down) {
        unsigned h = 0, um = 0;
        for (unsigned k = 0; k < 8; ++k) {
          if ((down >> k) & 1) {
            ++h;
          } else if ((up >> k) & 1) {
            if (h > 0)
              --h;
            else
              um |= 1u << k;
          }
        }
        t[up | (down << 8)] = {static_cast<uint8_t>(um), static_cast<uint8_t>(h)};
      }
    return t;
  }();
  return table;
}

// Clears the lowest `*h` set bits of `bits` (all of them when there are fewer) and lowers *h by the
// number cleared.
inline uint64_t MatchOpens(uint64_t bits, uint64_t* h) {
  const auto cnt = static_cast<uint64_t>(__builtin_popcountll(bits));
  if (*h >= cnt) {
    *h -= cnt;
    return 0;
  }
  uint64_t k = *h;
  *h = 0;
  if (k == 0) return bits;
  if (k <= 4) {
    for (; k > 0; --k) bits &= bits - 1;
    return bits;
  }
  // Skip whole bytes while they hold no more than the remaining k set bits, then finish bit by bit.
  unsigned shift = 0;
  while (true) {
    const auto in_byte = static_cast<uint64_t>(__builtin_popcountll((bits >> shift) & 0xFF));
    if (in_byte > k) break;
    k -= in_byte;
    shift += 8;
    if (k == 0) break;
  }
  bits &= shift >= 64 ? 0 : ~uint64_t{0} << shift;
  for (; k > 0; --k) bits &= bits - 1;
  return bits;
}

class ReferenceRows {
 public:
  ReferenceRows(std::span<const MatchKey> base, std::span<const MatchKey> comparison)
      : b_(base), c_(comparison), n_(base.size()), words_((base.size() + 63) / 64), mask_(words_, 0) {
    // Positions of each base key (CSR over a dense id space).
    std::unordered_map<MatchKey, uint32_t> ids;
    ids.reserve(n_);
    std::vector<uint32_t> id_of(n_);
    for (size_t j = 0; j < n_; ++j) {
      auto [it, inserted] = ids.try_emplace(b_[j], static_cast<uint32_t>(ids.size()));
      id_of[j] = it->second;
    }
    start_.assign(ids.size() + 1, 0);
    for (uint32_t id : id_of) ++start_[id + 1];
    for (size_t k = 1; k < start_.size(); ++k) start_[k] += start_[k - 1];
    pos_.resize(n_);
    std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
    for (size_t j = 0; j < n_; ++j) pos_[fill[id_of[j]]++] = static_cast<uint32_t>(j);
    row_id_.resize(c_.size());
    for (size_t i = 0; i < c_.size(); ++i) {
      auto it = ids.find(c_[i]);
      row_id_[i] = it == ids.end() ? UINT32_MAX : it->second;
    }
  }

  size_t words() const { return words_; }

  // Step bits of row 1 into d.
  void FirstRow(uint64_t* d) {
    std::fill(d, d + words_, 0);
    const uint32_t id = row_id_[0];
    if (id != UINT32_MAX) {
      const uint32_t j = pos_[start_[id]];  // positions are ascending
      d[j / 64] |= uint64_t{1} << (j % 64);
    }
  }

  // Row i (1-based, i >= 2): d_new from d_old; its flags into f (may be null). On x86-64 a clone
  // with the POPCNT instruction is picked at load time (the generic build calls libgcc's popcount).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  __attribute__((target_clones("popcnt", "default")))
#endif
  void NextRow(size_t i, const uint64_t* d_old, uint64_t* d_new, uint64_t* f) {
    const uint32_t id = row_id_[i - 1];
    if (id != UINT32_MAX)
      for (uint32_t p = start_[id]; p < start_[id + 1]; ++p) mask_[pos_[p] / 64] |= uint64_t{1} << (pos_[p] % 64);
    const std::vector<ParenEntry>& table = ParenTable();
    uint64_t h = 0;
    for (size_t w = 0; w < words_; ++w) {
      const uint64_t m = mask_[w], d = d_old[w];
      const uint64_t up = d & ~m, down = m & ~d;
      uint64_t nm;
      if (down == 0) {
        nm = MatchOpens(up, &h);
      } else if (__builtin_popcountll(down) <= 8) {
        // Few '(': match the ')' of each run between them against the open count.
        nm = 0;
        uint64_t rest = up, dn = down;
        while (dn != 0) {
          const uint64_t below = (dn & (~dn + 1)) - 1;  // positions before the lowest '('
          nm |= MatchOpens(rest & below, &h);
          rest &= ~below;
          ++h;
          dn &= dn - 1;
        }
        nm |= MatchOpens(rest, &h);
      } else {
        nm = 0;
        for (unsigned byte = 0; byte < 8; ++byte) {
          const unsigned u = static_cast<unsigned>((up >> (8 * byte)) & 0xFF);
          const unsigned dn = static_cast<unsigned>((down >> (8 * byte)) & 0xFF);
          if ((u | dn) == 0) continue;
          const ParenEntry e = table[u | (dn << 8)];
          nm |= MatchOpens(e.unmatched_up, &h) << (8 * byte);
          h += e.open;
        }
      }
      d_new[w] = m | nm;
      if (f != nullptr) f[w] = nm;
    }
    if (id != UINT32_MAX)
      for (uint32_t p = start_[id]; p < start_[id + 1]; ++p) mask_[pos_[p] / 64] = 0;
  }

 private:
  std::span<const MatchKey> b_, c_;
  size_t n_, words_;
  std::vector<uint64_t> mask_;
  std::vector<uint32_t> start_, pos_, row_id_;
};

}  // namespace

std::vector<MatchPair> MatchReferenceCompat(std::span<const MatchKey> base,
                                            std::span<const MatchKey> comparison,
                                            GapOrder gap_order) {
  const size_t n = base.size(), m = comparison.size();
  if (n == 0 || m == 0) return MatchNone(n, m);
  ReferenceRows rows(base, comparison);
  const size_t words = rows.words();
  // Blocks of rows 2..m; checkpoint[b] = step bits of the row before block b.
  constexpr size_t kBlock = 256;
  const size_t blocks = m >= 2 ? (m - 2) / kBlock + 1 : 0;
  std::vector<uint64_t> checkpoints(blocks * words);
  std::vector<uint64_t> cur(words), next(words);
  rows.FirstRow(cur.data());
  for (size_t i = 2; i <= m; ++i) {
    if ((i - 2) % kBlock == 0) std::copy(cur.begin(), cur.end(), checkpoints.begin() + static_cast<std::ptrdiff_t>(((i - 2) / kBlock) * words));
    rows.NextRow(i, cur.data(), next.data(), nullptr);
    std::swap(cur, next);
  }

  std::vector<uint64_t> flags(std::min(kBlock, m >= 2 ? m - 1 : 0) * words);
  size_t loaded = SIZE_MAX;
  auto flagged = [&](size_t i, size_t j) -> bool {
    if (i < 2) return false;
    const size_t b = (i - 2) / kBlock;
    if (b != loaded) {
      std::copy(checkpoints.begin() + static_cast<std::ptrdiff_t>(b * words),
                checkpoints.begin() + static_cast<std::ptrdiff_t>((b + 1) * words), cur.begin());
      const size_t first = 2 + b * kBlock, last = std::min(m, first + kBlock - 1);
      for (size_t r = first; r <= last; ++r) {
        rows.NextRow(r, cur.data(), next.data(), flags.data() + (r - first) * words);
        std::swap(cur, next);
      }
      loaded = b;
    }
    const uint64_t* row = flags.data() + (i - 2 - b * kBlock) * words;
    return (row[(j - 1) / 64] >> ((j - 1) % 64)) & 1;
  };

  std::vector<MatchPair> out;
  out.reserve(n + m);
  size_t i = m, j = n;
  while (i > 0 && j > 0) {
    if (comparison[i - 1] == base[j - 1]) {
      out.push_back({static_cast<int32_t>(j - 1), static_cast<int32_t>(i - 1)});
      --i;
      --j;
    } else if (flagged(i, j)) {
      out.push_back({kNoIndex, static_cast<int32_t>(i - 1)});
      --i;
    } else {
      out.push_back({static_cast<int32_t>(j - 1), kNoIndex});
      --j;
    }
  }
  for (; i > 0; --i) out.push_back({kNoIndex, static_cast<int32_t>(i - 1)});
  for (; j > 0; --j) out.push_back({static_cast<int32_t>(j - 1), kNoIndex});
  std::reverse(out.begin(), out.end());
  // The backtrack already emits a gap's comparison items first: a flag at (i, j) means
  // row_i[j-1] < row_{i-1}[j], and as row_i[j-1] >= row_{i-1}[j-1], row i-1 steps up at j; without
  // a match at (i-1, j) that step is a flag of row i-1 (row 1 has none). So once the backtrack
  // moves up inside a gap it keeps moving up until the next match. Only the 26.1 order needs
  // regrouping.
  if (gap_order == GapOrder::kBaseFirst) ApplyGapOrder(out, gap_order);
  return out;
}

// ---- difflib.SequenceMatcher matching blocks (26.1 reference) -------------------------------
//
// Python's get_matching_blocks (no isjunk, autojunk=False) takes, in a range base[alo,ahi) x
// comparison[blo,bhi), the longest common contiguous block; among the longest, the one ending
// (hence starting) earliest in base, then earliest in comparison; then it does the same left and
// right of the block. Without junk or "popular" items its extension loops never extend: the block
// found is already maximal. Transcribed directly, one range costs O(range x occurrences): O(n·m) on
// repetitive operator lists, and again for every range of the recursion.
//
// Here every range is answered from structures built once for the whole lists:
//  * a suffix automaton of the comparison list. A state is a class of substrings sharing one set of
//    end positions E(s); the suffix links form a tree, and a preorder of it puts every E(s) in one
//    contiguous run of one array of end positions (one entry per comparison position);
//  * a wavelet matrix over that array, answering "largest e in E(s) with e <= x" and "smallest e in
//    E(s) with e >= x" in O(log m).
// Scanning base[alo,ahi) through the automaton yields at each base position p the longest suffix of
// base[alo..p] that occurs in the comparison list. Only occurrences inside [blo,bhi) count;
// shortening a suffix moves its start right and keeps its end, so the longest usable one is the
// state's length capped at (largest end <= bhi-1) - blo + 1, or a shorter state down the suffix
// links when the cap falls below the state's shortest string. The first p reaching the maximum K is
// difflib's block end in base (its loop order is the same), and the smallest usable end in that
// state's E gives the block's comparison start. A suffix array could answer the same queries, but
// the automaton yields these matching lengths directly in one left-to-right pass that mirrors
// difflib's own scan.
//
// Cost: a range's longest block is at most its parent's (K); left of a block there is none of
// length K (the scan would have met it first). So the right range is searched with bound K and the
// left one with K-1 (skipped when 0), and a scan stops once it reaches its bound. A range is
// scanned to its end only when its block is shorter than its bound; along the nested ranges holding
// one base item those blocks are disjoint and strictly shorter each time, so that happens to an item
// at most sqrt(2n) times. (A stopped scan's prefix is scanned again only by the left range, or never.)
// Worst case O(n^1.5 log m), typically close to O((n + m) log m). Ranges wait on an explicit work
// stack: splits can be very unbalanced (bench/match_bench --adversarial).
namespace {

constexpr uint32_t kAbsent = UINT32_MAX;

// Suffix automaton over dense key ids. Transitions live in one open-addressing hash table keyed by
// (state, key); per-state key lists let a split copy its original's transitions.
class SuffixAutomaton {
 public:
  explicit SuffixAutomaton(std::span<const uint32_t> text) {
    const size_t cap = 2 * text.size() + 2;
    len_.reserve(cap);
    link_.reserve(cap);
    first_end_.reserve(cap);
    is_prefix_.reserve(cap);
    edge_head_.reserve(cap);
    size_t slots = 16;
    while (slots < 4 * text.size() + 8) slots *= 2;  // at most 3m transitions: load <= 3/4
    table_keys_.assign(slots, 0);
    table_targets_.assign(slots, kAbsent);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(slots));
    NewState(0, kAbsent, kAbsent, false);
    uint32_t last = 0;
    for (uint32_t p = 0; p < text.size(); ++p) last = Extend(last, text[p], p);
  }

  uint32_t size() const { return static_cast<uint32_t>(len_.size()); }
  uint32_t len(uint32_t s) const { return len_[s]; }
  uint32_t link(uint32_t s) const { return link_[s]; }
  uint32_t first_end(uint32_t s) const { return first_end_[s]; }  // smallest e in E(s)
  bool is_prefix(uint32_t s) const { return is_prefix_[s]; }      // E(s) holds first_end itself

  template <typename F>
  void ForEachEdge(uint32_t s, F&& f) const {
    for (uint32_t e = edge_head_[s]; e != kAbsent; e = edge_next_[e])
      f(edge_key_[e], Next(s, edge_key_[e]));
  }

  uint32_t Next(uint32_t s, uint32_t key) const {
    const uint64_t k = Pack(s, key);
    for (size_t h = Slot(k);; h = (h + 1) & (table_keys_.size() - 1)) {
      if (table_keys_[h] == k) return table_targets_[h];
      if (table_keys_[h] == 0) return kAbsent;
    }
  }

 private:
  static uint64_t Pack(uint32_t s, uint32_t key) { return (uint64_t{s} + 1) << 32 | key; }
  size_t Slot(uint64_t k) const {
    return static_cast<size_t>((k * 0x9E3779B97F4A7C15ULL) >> shift_);
  }

  uint32_t NewState(uint32_t len, uint32_t link, uint32_t first_end, bool is_prefix) {
    len_.push_back(len);
    link_.push_back(link);
    first_end_.push_back(first_end);
    is_prefix_.push_back(is_prefix);
    edge_head_.push_back(kAbsent);
    return static_cast<uint32_t>(len_.size() - 1);
  }

  // Sets the transition (s, key) to `target`, recording the key in s's list when it is new.
  void SetNext(uint32_t s, uint32_t key, uint32_t target) {
    const uint64_t k = Pack(s, key);
    size_t h = Slot(k);
    while (table_keys_[h] != 0 && table_keys_[h] != k) h = (h + 1) & (table_keys_.size() - 1);
    if (table_keys_[h] == 0) {
      table_keys_[h] = k;
      edge_key_.push_back(key);
      edge_next_.push_back(edge_head_[s]);
      edge_head_[s] = static_cast<uint32_t>(edge_key_.size() - 1);
    }
    table_targets_[h] = target;
  }

  // Appends text[p] = x to the automaton whose whole text so far ends in state `last`.
  uint32_t Extend(uint32_t last, uint32_t x, uint32_t p) {
    const uint32_t cur = NewState(len_[last] + 1, kAbsent, p, true);
    uint32_t s = last;
    for (; s != kAbsent && Next(s, x) == kAbsent; s = link_[s]) SetNext(s, x, cur);
    if (s == kAbsent) {
      link_[cur] = 0;
      return cur;
    }
    const uint32_t q = Next(s, x);
    if (len_[s] + 1 == len_[q]) {
      link_[cur] = q;
      return cur;
    }
    // q also holds strings longer than len(s)+1 whose end sets differ from now on: split off the
    // short ones into a copy of q.
    const uint32_t split = NewState(len_[s] + 1, link_[q], first_end_[q], false);
    for (uint32_t e = edge_head_[q]; e != kAbsent; e = edge_next_[e])
      SetNext(split, edge_key_[e], Next(q, edge_key_[e]));
    for (; s != kAbsent && Next(s, x) == q; s = link_[s]) SetNext(s, x, split);
    link_[q] = split;
    link_[cur] = split;
    return cur;
  }

  std::vector<uint32_t> len_, link_, first_end_, edge_head_, edge_key_, edge_next_;
  std::vector<bool> is_prefix_;
  std::vector<uint64_t> table_keys_;  // 0 = empty slot
  std::vector<uint32_t> table_targets_;
  unsigned shift_ = 0;
};

// Set bits of a word, branch-free. __builtin_popcountll becomes a libgcc call in the generic x86-64
// build (no POPCNT), which cost a quarter of the matching time in the wavelet ranks.
inline uint32_t PopCount64(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<uint32_t>((x * 0x0101010101010101ULL) >> 56);
}

// Wavelet matrix over an array of values < 2^bits: counts and order statistics in any index range.
class WaveletMatrix {
 public:
  WaveletMatrix(std::vector<uint32_t> values, unsigned bits) : size_(values.size()), levels_(bits) {
    std::vector<uint32_t> zeros_part, ones_part;
    for (unsigned d = 0; d < bits; ++d) {
      Level& lv = levels_[d];
      const unsigned bit = bits - 1 - d;
      lv.words.assign(size_ / 64 + 1, 0);
      lv.ranks.assign(size_ / 64 + 1, 0);
      zeros_part.clear();
      ones_part.clear();
      for (size_t i = 0; i < size_; ++i) {
        if ((values[i] >> bit) & 1) {
          lv.words[i / 64] |= uint64_t{1} << (i % 64);
          ones_part.push_back(values[i]);
        } else {
          zeros_part.push_back(values[i]);
        }
      }
      for (size_t w = 1; w < lv.words.size(); ++w)
        lv.ranks[w] = lv.ranks[w - 1] + PopCount64(lv.words[w - 1]);
      lv.zeros = static_cast<uint32_t>(zeros_part.size());
      std::copy(ones_part.begin(), ones_part.end(),
                std::copy(zeros_part.begin(), zeros_part.end(), values.begin()));
    }
  }

  // Number of values < x among positions [l, r).
  uint32_t CountLess(uint32_t l, uint32_t r, uint64_t x) const {
    if (x >> levels_.size() != 0) return r - l;
    uint32_t count = 0;
    for (size_t d = 0; d < levels_.size(); ++d) {
      const Level& lv = levels_[d];
      const uint32_t l1 = Rank1(lv, l), r1 = Rank1(lv, r);
      if ((x >> (levels_.size() - 1 - d)) & 1) {
        count += (r - r1) - (l - l1);
        l = lv.zeros + l1;
        r = lv.zeros + r1;
      } else {
        l -= l1;
        r -= r1;
      }
    }
    return count;
  }

  // The k-th smallest value (0-based) among positions [l, r); requires k < r - l.
  uint32_t KthSmallest(uint32_t l, uint32_t r, uint32_t k) const {
    uint32_t value = 0;
    for (const Level& lv : levels_) {
      const uint32_t l1 = Rank1(lv, l), r1 = Rank1(lv, r);
      const uint32_t zeros_in = (r - r1) - (l - l1);
      value <<= 1;
      if (k < zeros_in) {
        l -= l1;
        r -= r1;
      } else {
        k -= zeros_in;
        value |= 1;
        l = lv.zeros + l1;
        r = lv.zeros + r1;
      }
    }
    return value;
  }

 private:
  struct Level {
    std::vector<uint64_t> words;
    std::vector<uint32_t> ranks;  // set bits before each word
    uint32_t zeros = 0;
  };
  static uint32_t Rank1(const Level& lv, uint32_t i) {
    const uint64_t below = lv.words[i / 64] & ((uint64_t{1} << (i % 64)) - 1);
    return lv.ranks[i / 64] + PopCount64(below);
  }
  size_t size_;
  std::vector<Level> levels_;
};

// The automaton frozen for the scans, with the end sets E(s) of all states: E(s) is the run
// [run_begin, run_begin + run_size) of the wavelet matrix's array (suffix-link tree preorder). A
// state's fields share one record and its transitions one sorted run of `edges_`, so a scan step
// touches a few cache lines instead of a hash table spread over megabytes.
class ComparisonIndex {
 public:
  explicit ComparisonIndex(const SuffixAutomaton& sam) : wavelet_({}, 0) {
    const uint32_t states = sam.size();
    states_.resize(states + 1);  // plus a sentinel closing the last edge run
    for (uint32_t s = 0; s < states; ++s) {
      State& st = states_[s];
      st.len = sam.len(s);
      st.link = sam.link(s);
      st.link_len = s == 0 ? 0 : sam.len(sam.link(s));
      st.first_end = sam.first_end(s);
      st.edge_begin = static_cast<uint32_t>(edges_.size());
      sam.ForEachEdge(s, [&](uint32_t key, uint32_t target) { edges_.push_back({key, target}); });
      std::sort(edges_.begin() + st.edge_begin, edges_.end(),
                [](const Edge& x, const Edge& y) { return x.key < y.key; });
    }
    states_[states].edge_begin = static_cast<uint32_t>(edges_.size());
    BuildEndRuns(sam);
  }

  uint32_t len(uint32_t s) const { return states_[s].len; }
  uint32_t link(uint32_t s) const { return states_[s].link; }
  uint32_t link_len(uint32_t s) const { return states_[s].link_len; }

  uint32_t Next(uint32_t s, uint32_t key) const {
    const Edge* b = edges_.data() + states_[s].edge_begin;
    const Edge* e = edges_.data() + states_[s + 1].edge_begin;
    if (e - b > 8) {
      b = std::lower_bound(b, e, key, [](const Edge& x, uint32_t k) { return x.key < k; });
      return b != e && b->key == key ? b->target : kAbsent;
    }
    for (; b != e; ++b)
      if (b->key == key) return b->target;
    return kAbsent;
  }

  // The longest l <= len such that the state's string of length l occurs inside [blo, bhi), or 0
  // when none of the state's strings (lengths link_len+1 .. len(s)) does. The string of length l
  // ending at e starts at e-l+1, so the largest end e <= bhi-1 decides: l <= e - blo + 1.
  uint32_t UsableLength(uint32_t s, uint32_t len, uint32_t blo, uint32_t bhi) const {
    const State& st = states_[s];
    int64_t last;  // largest end <= bhi-1
    if (st.last_end < bhi) {
      last = st.last_end;
    } else if (st.first_end >= bhi) {
      return 0;
    } else if (uint64_t{st.first_end} + 1 >= uint64_t{blo} + len) {
      return len;  // the first end already leaves room for the whole length
    } else {
      const uint32_t b = st.run_begin, e = b + st.run_size;
      last = wavelet_.KthSmallest(b, e, wavelet_.CountLess(b, e, bhi) - 1);
    }
    const int64_t cap = last - int64_t{blo} + 1;
    if (cap <= int64_t{st.link_len}) return 0;
    return static_cast<uint32_t>(std::min<int64_t>(len, cap));
  }

  // Smallest e in E(s) with e >= x, or kAbsent.
  uint32_t FirstAtLeast(uint32_t s, uint32_t x) const {
    const State& st = states_[s];
    if (st.first_end >= x) return st.first_end;
    if (st.last_end < x) return kAbsent;
    const uint32_t b = st.run_begin, e = b + st.run_size;
    return wavelet_.KthSmallest(b, e, wavelet_.CountLess(b, e, x));
  }

 private:
  struct State {
    uint32_t len = 0, link = kAbsent, link_len = 0;
    uint32_t first_end = 0, last_end = 0;  // smallest and largest element of E(s)
    uint32_t run_begin = 0, run_size = 0;  // E(s) in the wavelet matrix
    uint32_t edge_begin = 0;               // transitions: edges_[edge_begin, next state's)
  };
  struct Edge {
    uint32_t key, target;
  };

  // Run sizes and largest ends (children before parents: a link is always shorter), then the
  // preorder array of ends in which every subtree's prefix states are consecutive.
  void BuildEndRuns(const SuffixAutomaton& sam) {
    const uint32_t states = sam.size();
    std::vector<uint32_t> child_start(states + 1, 0), children(states - 1);
    for (uint32_t s = 1; s < states; ++s) ++child_start[sam.link(s) + 1];
    for (uint32_t s = 0; s < states; ++s) child_start[s + 1] += child_start[s];
    std::vector<uint32_t> fill(child_start.begin(), child_start.end() - 1);
    for (uint32_t s = 1; s < states; ++s) children[fill[sam.link(s)]++] = s;
    uint32_t max_len = 0;
    for (uint32_t s = 0; s < states; ++s) max_len = std::max(max_len, sam.len(s));
    std::vector<uint32_t> by_len(max_len + 2, 0), order(states);
    for (uint32_t s = 0; s < states; ++s) ++by_len[sam.len(s) + 1];
    for (uint32_t k = 0; k <= max_len; ++k) by_len[k + 1] += by_len[k];
    for (uint32_t s = 0; s < states; ++s) order[by_len[sam.len(s)]++] = s;
    for (uint32_t s = 0; s < states; ++s)
      if (sam.is_prefix(s)) {
        states_[s].run_size = 1;
        states_[s].last_end = sam.first_end(s);
      }
    for (uint32_t k = states; k-- > 1;) {
      const State& st = states_[order[k]];
      State& up = states_[st.link];
      up.run_size += st.run_size;
      up.last_end = std::max(up.last_end, st.last_end);
    }
    std::vector<uint32_t> ends, stack{0};
    ends.reserve(states_[0].run_size);
    while (!stack.empty()) {
      const uint32_t s = stack.back();
      stack.pop_back();
      states_[s].run_begin = static_cast<uint32_t>(ends.size());
      if (sam.is_prefix(s)) ends.push_back(sam.first_end(s));
      stack.insert(stack.end(), children.begin() + child_start[s],
                   children.begin() + child_start[s + 1]);
    }
    unsigned bits = 1;
    while (ends.size() >> bits != 0) ++bits;
    wavelet_ = WaveletMatrix(std::move(ends), bits);
  }

  std::vector<State> states_;
  std::vector<Edge> edges_;
  WaveletMatrix wavelet_;
};

// Answers difflib's find_longest_match for any range pair (see the section comment).
class LongestBlockFinder {
 public:
  LongestBlockFinder(std::span<const MatchKey> base, std::span<const MatchKey> comparison)
      : base_ids_(base.size(), kAbsent), index_(SuffixAutomaton(ComparisonIds(comparison))) {
    for (size_t p = 0; p < base.size(); ++p) {
      auto it = ids_.find(base[p]);
      if (it != ids_.end()) base_ids_[p] = it->second;
    }
  }

  // The longest block of base[alo,ahi) x comparison[blo,bhi) with difflib's tie-break, knowing that
  // none is longer than `bound`; size 0 when there is none.
  MatchBlock Find(uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi, uint32_t bound) const {
    bound = std::min({bound, ahi - alo, bhi - blo});
    uint32_t s = 0, len = 0, best = 0, best_end = 0, best_state = 0;
    for (uint32_t p = alo; p < ahi && best < bound; ++p) {
      const uint32_t x = base_ids_[p];
      if (x == kAbsent) {  // not in the comparison list at all
        s = 0;
        len = 0;
        continue;
      }
      uint32_t t;
      while ((t = index_.Next(s, x)) == kAbsent) {  // the root has every comparison key
        len = index_.link_len(s);
        s = index_.link(s);
      }
      s = t;
      ++len;
      KeepInside(blo, bhi, &s, &len);
      if (len > best) {
        best = len;
        best_end = p;
        best_state = s;
      }
    }
    if (best == 0) return {alo, blo, 0};
    const uint32_t end = index_.FirstAtLeast(best_state, blo + best - 1);
    return {best_end + 1 - best, end + 1 - best, best};
  }

 private:
  std::vector<uint32_t> ComparisonIds(std::span<const MatchKey> comparison) {
    std::vector<uint32_t> out(comparison.size());
    ids_.reserve(comparison.size());
    for (size_t i = 0; i < comparison.size(); ++i)
      out[i] = ids_.try_emplace(comparison[i], static_cast<uint32_t>(ids_.size())).first->second;
    return out;
  }

  // Shortens the match (state *s, length *len) to its longest suffix occurring in
  // comparison[blo,bhi).
  void KeepInside(uint32_t blo, uint32_t bhi, uint32_t* s, uint32_t* len) const {
    while (*len > 0) {
      const uint32_t usable = index_.UsableLength(*s, *len, blo, bhi);
      if (usable > 0) {
        *len = usable;
        return;
      }
      *len = index_.link_len(*s);  // all suffixes of the state's shortest string are in its link
      *s = index_.link(*s);
    }
  }

  std::unordered_map<MatchKey, uint32_t> ids_;  // comparison key -> dense id (used by index_)
  std::vector<uint32_t> base_ids_;
  ComparisonIndex index_;
};

}  // namespace

std::vector<MatchBlock> SequenceMatcherBlocks(std::span<const MatchKey> base,
                                              std::span<const MatchKey> comparison) {
  const auto n = static_cast<uint32_t>(base.size()), m = static_cast<uint32_t>(comparison.size());
  std::vector<MatchBlock> blocks;
  if (n == 0 || m == 0) return blocks;
  const LongestBlockFinder finder(base, comparison);
  struct Range {
    uint32_t alo, ahi, blo, bhi, bound;
  };
  std::vector<Range> work{{0, n, 0, m, std::min(n, m)}};
  while (!work.empty()) {
    const Range r = work.back();
    work.pop_back();
    const MatchBlock b = finder.Find(r.alo, r.ahi, r.blo, r.bhi, r.bound);
    if (b.size == 0) continue;
    blocks.push_back(b);
    if (r.alo < b.base_begin && r.blo < b.comparison_begin && b.size > 1)
      work.push_back({r.alo, b.base_begin, r.blo, b.comparison_begin, b.size - 1});
    const uint32_t a_end = b.base_begin + b.size, b_end = b.comparison_begin + b.size;
    if (a_end < r.ahi && b_end < r.bhi) work.push_back({a_end, r.ahi, b_end, r.bhi, b.size});
  }
  std::sort(blocks.begin(), blocks.end(),
            [](const MatchBlock& x, const MatchBlock& y) { return x.base_begin < y.base_begin; });
  // Merge blocks that continue each other (difflib does too; the pairs are the same either way).
  size_t kept = 1;
  for (size_t k = 1; k < blocks.size(); ++k) {
    MatchBlock& last = blocks[kept - 1];
    if (last.base_begin + last.size == blocks[k].base_begin &&
        last.comparison_begin + last.size == blocks[k].comparison_begin)
      last.size += blocks[k].size;
    else
      blocks[kept++] = blocks[k];
  }
  blocks.resize(std::min(kept, blocks.size()));
  return blocks;
}

std::vector<MatchPair> MatchSequenceMatcher(std::span<const MatchKey> base,
                                            std::span<const MatchKey> comparison,
                                            GapOrder gap_order) {
  if (base.empty() || comparison.empty()) return MatchNone(base.size(), comparison.size());
  std::vector<std::pair<uint32_t, uint32_t>> matches;
  for (const MatchBlock& b : SequenceMatcherBlocks(base, comparison))
    for (uint32_t k = 0; k < b.size; ++k)
      matches.emplace_back(b.base_begin + k, b.comparison_begin + k);
  return AssemblePairs(matches, base.size(), comparison.size(), gap_order);
}

std::vector<MatchPair> MatchSequences(MatchAlgorithm algorithm, std::span<const MatchKey> base,
                                      std::span<const MatchKey> comparison, GapOrder gap_order) {
  switch (algorithm) {
    case MatchAlgorithm::kLcs:
      return MatchLcs(base, comparison, gap_order);
    case MatchAlgorithm::kReferenceCompat:
      return MatchReferenceCompat(base, comparison, gap_order);
    case MatchAlgorithm::kSequenceMatcher:
      return MatchSequenceMatcher(base, comparison, gap_order);
    case MatchAlgorithm::kNone:
      break;
  }
  return MatchNone(base.size(), comparison.size());
}

size_t CountMatched(std::span<const MatchPair> pairs) {
  size_t k = 0;
  for (const MatchPair& p : pairs) k += (p.base != kNoIndex && p.comparison != kNoIndex) ? 1 : 0;
  return k;
}

MatchKey KeyMap::Key(std::string_view s) {
  auto it = index_.find(std::string(s));
  if (it != index_.end()) return it->second;
  MatchKey k = static_cast<MatchKey>(index_.size());
  index_.emplace(std::string(s), k);
  return k;
}

// ---- Segmentation ----------------------------------------------------------------------------------

Segmentation SegmentFwdBwd(std::span<const SegmentItem> items) {
  Segmentation s;
  s.order.resize(items.size());
  std::iota(s.order.begin(), s.order.end(), 0u);
  std::stable_sort(s.order.begin(), s.order.end(),
                   [&](uint32_t x, uint32_t y) { return items[x].start_ns < items[y].start_ns; });
  for (uint32_t p = 0; p < s.order.size(); ++p) {
    bool bwd = items[s.order[p]].on_bwd_thread;
    if (s.segments.empty() || s.segments.back().is_bwd != bwd) s.segments.push_back({p, p, bwd});
    s.segments.back().end = p + 1;
  }
  return s;
}

std::vector<MatchPair> PairSegments(std::span<const Segment> base, std::span<const Segment> comparison) {
  std::vector<MatchPair> out;
  size_t i = 0, k = 0;
  if (!base.empty() && !comparison.empty() && base[0].is_bwd != comparison[0].is_bwd) {
    if (base.size() > comparison.size())
      out.push_back({static_cast<int32_t>(i++), kNoIndex});
    else
      out.push_back({kNoIndex, static_cast<int32_t>(k++)});
  }
  for (; i < base.size() && k < comparison.size(); ++i, ++k)
    out.push_back({static_cast<int32_t>(i), static_cast<int32_t>(k)});
  for (; i < base.size(); ++i) out.push_back({static_cast<int32_t>(i), kNoIndex});
  for (; k < comparison.size(); ++k) out.push_back({kNoIndex, static_cast<int32_t>(k)});
  return out;
}

std::vector<MatchPair> MatchSegmented(MatchAlgorithm algorithm, std::span<const MatchKey> base_keys,
                                      std::span<const SegmentItem> base_items,
                                      std::span<const MatchKey> comparison_keys,
                                      std::span<const SegmentItem> comparison_items,
                                      bool use_segments, GapOrder gap_order) {
  assert(base_keys.size() == base_items.size() || !use_segments);
  assert(comparison_keys.size() == comparison_items.size() || !use_segments);
  if (base_keys.empty() || comparison_keys.empty())
    return MatchNone(base_keys.size(), comparison_keys.size());
  if (!use_segments) return MatchSequences(algorithm, base_keys, comparison_keys, gap_order);

  const Segmentation bs = SegmentFwdBwd(base_items);
  const Segmentation cs = SegmentFwdBwd(comparison_items);
  std::vector<MatchPair> out;
  out.reserve(base_keys.size() + comparison_keys.size());
  std::vector<MatchKey> bk, ck;
  for (const MatchPair& sp : PairSegments(bs.segments, cs.segments)) {
    const Segment* bseg = sp.base != kNoIndex ? &bs.segments[sp.base] : nullptr;
    const Segment* cseg = sp.comparison != kNoIndex ? &cs.segments[sp.comparison] : nullptr;
    if (bseg && cseg) {
      bk.clear();
      ck.clear();
      for (uint32_t p = bseg->begin; p < bseg->end; ++p) bk.push_back(base_keys[bs.order[p]]);
      for (uint32_t p = cseg->begin; p < cseg->end; ++p) ck.push_back(comparison_keys[cs.order[p]]);
      for (const MatchPair& p : MatchSequences(algorithm, bk, ck, gap_order)) {
        MatchPair q;
        if (p.base != kNoIndex) q.base = static_cast<int32_t>(bs.order[bseg->begin + p.base]);
        if (p.comparison != kNoIndex)
          q.comparison = static_cast<int32_t>(cs.order[cseg->begin + p.comparison]);
        out.push_back(q);
      }
    } else if (bseg) {
      for (uint32_t p = bseg->begin; p < bseg->end; ++p)
        out.push_back({static_cast<int32_t>(bs.order[p]), kNoIndex});
    } else {
      for (uint32_t p = cseg->begin; p < cseg->end; ++p)
        out.push_back({kNoIndex, static_cast<int32_t>(cs.order[p])});
    }
  }
  return out;
}

}  // namespace profdiff::analysis
