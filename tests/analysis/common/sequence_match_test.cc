#include "profdiff/analysis/common/sequence_match.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace profdiff::analysis {
namespace {

// Keys from single letters, so oracle lists read like the spec.
std::vector<MatchKey> Keys(const std::string& s) {
  std::vector<MatchKey> k;
  for (char ch : s) k.push_back(static_cast<MatchKey>(ch));
  return k;
}

// Renders pairs as "(a,-),(b,b),(-,e)" using the letters of the two lists.
std::string Render(const std::vector<MatchPair>& pairs, const std::string& b, const std::string& c) {
  std::string out;
  for (const MatchPair& p : pairs) {
    if (!out.empty()) out += ',';
    out += '(';
    out += p.base == kNoIndex ? '-' : b[p.base];
    out += ',';
    out += p.comparison == kNoIndex ? '-' : c[p.comparison];
    out += ')';
  }
  return out;
}

// ---- Direct transcription of the text (deliberately naive: a std::set of flags) -----------------
// See docs/reference/operators.md#sequence-matching.
std::vector<MatchPair> ReferenceTextTranscription(const std::vector<MatchKey>& B, const std::vector<MatchKey>& C) {
  const size_t n = B.size(), m = C.size();
  std::vector<MatchPair> out;
  if (m == 0) {
    for (size_t j = 0; j < n; ++j) out.push_back({static_cast<int32_t>(j), kNoIndex});
    return out;
  }
  if (n == 0) {
    for (size_t i = 0; i < m; ++i) out.push_back({kNoIndex, static_cast<int32_t>(i)});
    return out;
  }
  // 1-based B[1..n], C[1..m] as in the text.
  auto b = [&](size_t j) { return B[j - 1]; };
  auto c = [&](size_t i) { return C[i - 1]; };
  std::vector<long> A(n + 1, 0);
  std::set<std::pair<size_t, size_t>> F;
  for (size_t j = 1; j <= n; ++j) A[j] = (c(1) == b(j)) ? 1 : A[j - 1];
  for (size_t i = 2; i <= m; ++i) {
    for (size_t j = 1; j <= n; ++j) {
      if (c(i) == b(j)) {
        A[j] = A[j - 1] + 1;
      } else {
        long left = A[j - 1], up = A[j];
        if (left < up)
          F.insert({i, j});
        else
          A[j] = left;
      }
    }
  }
  std::vector<MatchPair> rev;
  size_t i = m, j = n;
  while (i > 0 && j > 0) {
    if (c(i) == b(j)) {
      rev.push_back({static_cast<int32_t>(j - 1), static_cast<int32_t>(i - 1)});
      --i;
      --j;
    } else if (F.count({i, j})) {
      rev.push_back({kNoIndex, static_cast<int32_t>(i - 1)});
      --i;
    } else {
      rev.push_back({static_cast<int32_t>(j - 1), kNoIndex});
      --j;
    }
  }
  while (i > 0) {
    rev.push_back({kNoIndex, static_cast<int32_t>(i - 1)});
    --i;
  }
  while (j > 0) {
    rev.push_back({static_cast<int32_t>(j - 1), kNoIndex});
    --j;
  }
  return {rev.rbegin(), rev.rend()};
}

// Textbook O(n·m) LCS length.
size_t DpLcsLength(const std::vector<MatchKey>& b, const std::vector<MatchKey>& c) {
  std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (size_t i = 1; i <= c.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = c[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Checks that `pairs` is a valid alignment: each index once, in order, matched keys equal; with
// `gap_order`, unmatched comparison items precede unmatched base items between two matches.
void ExpectValidAlignment(const std::vector<MatchPair>& pairs, const std::vector<MatchKey>& b,
                          const std::vector<MatchKey>& c, bool gap_order) {
  int32_t next_b = 0, next_c = 0;
  bool base_only_seen_in_gap = false;
  for (const MatchPair& p : pairs) {
    if (p.base != kNoIndex) {
      ASSERT_EQ(p.base, next_b);
      ++next_b;
    }
    if (p.comparison != kNoIndex) {
      ASSERT_EQ(p.comparison, next_c);
      ++next_c;
    }
    if (p.base != kNoIndex && p.comparison != kNoIndex) {
      ASSERT_EQ(b[p.base], c[p.comparison]);
      base_only_seen_in_gap = false;
    } else if (p.base != kNoIndex) {
      base_only_seen_in_gap = true;
    } else if (gap_order) {
      ASSERT_FALSE(base_only_seen_in_gap) << "comparison-only item after a base-only item in a gap";
    }
  }
  EXPECT_EQ(static_cast<size_t>(next_b), b.size());
  EXPECT_EQ(static_cast<size_t>(next_c), c.size());
}

constexpr MatchAlgorithm kAllAlgorithms[] = {MatchAlgorithm::kLcs, MatchAlgorithm::kReferenceCompat,
                                             MatchAlgorithm::kSequenceMatcher,
                                             MatchAlgorithm::kNone};
constexpr GapOrder kBothOrders[] = {GapOrder::kComparisonFirst, GapOrder::kBaseFirst};

std::vector<MatchKey> RandomKeys(std::mt19937& rng, size_t len, uint32_t alphabet) {
  std::uniform_int_distribution<uint32_t> d(0, alphabet - 1);
  std::vector<MatchKey> k(len);
  for (auto& x : k) x = d(rng);
  return k;
}

// ---- Oracles ------------------------------------------------------------------------------------
// See docs/reference/operators.md#sequence-matching, docs/reference/README.md#oracle-tests.

TEST(ReferenceCompat, NotATrueLcs) {
  auto b = Keys("bbaa"), c = Keys("aab");
  auto pairs = MatchReferenceCompat(b, c, GapOrder::kComparisonFirst);
  EXPECT_EQ(CountMatched(pairs), 1u);
  EXPECT_EQ(Render(pairs, "bbaa", "aab"), "(-,a),(-,a),(b,-),(b,b),(a,-),(a,-)");
  EXPECT_EQ(pairs, ReferenceTextTranscription(b, c));
  // The true LCS has 2.
  EXPECT_EQ(CountMatched(MatchLcs(b, c, GapOrder::kComparisonFirst)), 2u);
  EXPECT_EQ(LcsLength(b, c), 2u);
}

TEST(ReferenceCompat, TieRuleOracles) {
  EXPECT_EQ(Render(MatchReferenceCompat(Keys("abcd"), Keys("bce"), GapOrder::kComparisonFirst),
                   "abcd", "bce"),
            "(a,-),(b,b),(c,c),(-,e),(d,-)");
  EXPECT_EQ(Render(MatchReferenceCompat(Keys("ABCD"), Keys("BXCE"), GapOrder::kComparisonFirst),
                   "ABCD", "BXCE"),
            "(A,-),(B,B),(-,X),(C,C),(-,E),(D,-)");
}

TEST(Lcs, TieRuleOraclesLookLikeTheReference) {
  EXPECT_EQ(Render(MatchLcs(Keys("abcd"), Keys("bce"), GapOrder::kComparisonFirst), "abcd", "bce"),
            "(a,-),(b,b),(c,c),(-,e),(d,-)");
  EXPECT_EQ(
      Render(MatchLcs(Keys("ABCD"), Keys("BXCE"), GapOrder::kComparisonFirst), "ABCD", "BXCE"),
      "(A,-),(B,B),(-,X),(C,C),(-,E),(D,-)");
}

TEST(Matching, EmptySides) {
  for (auto algo : kAllAlgorithms)
    for (auto order : kBothOrders) {
      EXPECT_EQ(Render(MatchSequences(algo, Keys("ab"), Keys(""), order), "ab", ""), "(a,-),(b,-)");
      EXPECT_EQ(Render(MatchSequences(algo, Keys(""), Keys("xy"), order), "", "xy"), "(-,x),(-,y)");
      EXPECT_TRUE(MatchSequences(algo, Keys(""), Keys(""), order).empty());
    }
}

TEST(Matching, NoneIsAllBaseThenAllComparison) {
  // Whatever the gap order: both reference lines emit all base items first under --disable_details.
  for (auto order : kBothOrders)
    EXPECT_EQ(
        Render(MatchSequences(MatchAlgorithm::kNone, Keys("ab"), Keys("ab"), order), "ab", "ab"),
        "(a,-),(b,-),(-,a),(-,b)");
}

TEST(Matching, KeyMapSharesKeysAcrossSides) {
  KeyMap keys;
  MatchKey a = keys.Key("aten::add");
  EXPECT_EQ(keys.Key("aten::mul"), a + 1);
  EXPECT_EQ(keys.Key(std::string("aten::") + "add"), a);
  EXPECT_EQ(keys.size(), 2u);
}

// ---- Randomised cross-checks -------------------------------------------------------------------------

TEST(ReferenceCompat, MatchesTextTranscriptionOnRandomInputs) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> len(0, 14), alpha(1, 5);
  for (int t = 0; t < 3000; ++t) {
    uint32_t a = static_cast<uint32_t>(alpha(rng));
    auto b = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto c = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    ASSERT_EQ(MatchReferenceCompat(b, c, GapOrder::kComparisonFirst),
              ReferenceTextTranscription(b, c))
        << "case " << t;
  }
  // A few wider rows (several 64-bit flag words per row).
  for (int t = 0; t < 40; ++t) {
    auto b = RandomKeys(rng, 150 + static_cast<size_t>(t) * 3, 4);
    auto c = RandomKeys(rng, 90 + static_cast<size_t>(t) * 5, 4);
    ASSERT_EQ(MatchReferenceCompat(b, c, GapOrder::kComparisonFirst),
              ReferenceTextTranscription(b, c))
        << "wide case " << t;
  }
  // Rows spanning several checkpoint blocks (256 rows each) and many words, with few and many keys
  // (dense '(' runs exercise the byte table, sparse ones the word fast path).
  for (int t = 0; t < 12; ++t) {
    const uint32_t a = t % 3 == 0 ? 2 : (t % 3 == 1 ? 6 : 40);
    auto b = RandomKeys(rng, 300 + static_cast<size_t>(t) * 37, a);
    auto c = RandomKeys(rng, 520 + static_cast<size_t>(t) * 41, a);
    ASSERT_EQ(MatchReferenceCompat(b, c, GapOrder::kComparisonFirst),
              ReferenceTextTranscription(b, c))
        << "multi-block case " << t;
  }
}

TEST(Lcs, MaximalOnSmallRandomInputs) {
  std::mt19937 rng(777);
  std::uniform_int_distribution<int> len(0, 40), alpha(1, 8);
  for (int t = 0; t < 5000; ++t) {
    uint32_t a = static_cast<uint32_t>(alpha(rng));
    auto b = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto c = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto pairs = MatchLcs(b, c, GapOrder::kComparisonFirst);
    ExpectValidAlignment(pairs, b, c, /*gap_order=*/true);
    ASSERT_EQ(CountMatched(pairs), DpLcsLength(b, c)) << "case " << t;
    // The reference recurrence never finds more than the LCS.
    ASSERT_LE(CountMatched(MatchReferenceCompat(b, c, GapOrder::kComparisonFirst)),
              CountMatched(pairs));
  }
}

// Sizes above the small-DP cut-off exercise Hirschberg with bit-parallel rows, multi-word carries,
// dense and sparse match masks.
TEST(Lcs, MaximalOnLargerRandomInputs) {
  std::mt19937 rng(4242);
  std::uniform_int_distribution<int> len(130, 900);
  const uint32_t alphabets[] = {1, 2, 3, 5, 20, 200, 5000};
  for (int t = 0; t < 120; ++t) {
    uint32_t a = alphabets[t % 7];
    auto b = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto c = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto pairs = MatchLcs(b, c, GapOrder::kComparisonFirst);
    ExpectValidAlignment(pairs, b, c, /*gap_order=*/true);
    size_t dp = DpLcsLength(b, c);
    ASSERT_EQ(CountMatched(pairs), dp) << "case " << t << " alphabet " << a;
    ASSERT_EQ(LcsLength(b, c), dp);
  }
}

TEST(Lcs, MaximalOnEditedRepeatedPatterns) {
  // Operator-like sequences: a repeated layer pattern with random insertions, deletions, renames.
  std::mt19937 rng(99);
  for (int t = 0; t < 30; ++t) {
    std::vector<MatchKey> layer = RandomKeys(rng, 12 + static_cast<size_t>(t % 5), 10);
    std::vector<MatchKey> b;
    for (int r = 0; r < 60; ++r) b.insert(b.end(), layer.begin(), layer.end());
    std::vector<MatchKey> c = b;
    std::uniform_int_distribution<size_t> pos(0, c.size() - 1);
    for (int e = 0; e < 15; ++e) {
      size_t p = pos(rng) % c.size();
      switch (e % 3) {
        case 0: c.insert(c.begin() + static_cast<long>(p), 1000u + static_cast<MatchKey>(e)); break;
        case 1: c.erase(c.begin() + static_cast<long>(p)); break;
        default: c[p] = 2000u + static_cast<MatchKey>(e); break;
      }
    }
    auto pairs = MatchLcs(b, c, GapOrder::kComparisonFirst);
    ExpectValidAlignment(pairs, b, c, true);
    ASSERT_EQ(CountMatched(pairs), DpLcsLength(b, c)) << "case " << t;
  }
}

TEST(Lcs, IdenticalAndDisjoint) {
  std::vector<MatchKey> b(5000);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<MatchKey>(i % 37);
  EXPECT_EQ(CountMatched(MatchLcs(b, b, GapOrder::kComparisonFirst)), b.size());
  std::vector<MatchKey> c(3000, 999);
  auto pairs = MatchLcs(b, c, GapOrder::kComparisonFirst);
  EXPECT_EQ(CountMatched(pairs), 0u);
  ASSERT_EQ(pairs.size(), 8000u);
  EXPECT_EQ(pairs.front().comparison, 0);  // comparison-only items first in the (single) gap
  EXPECT_EQ(pairs.back().base, 4999);
}

// ---- Segmentation (docs/reference/operators.md#fwd-bwd-segmentation) ----------------------------

TEST(Segments, OracleFromSpec) {
  // base [A(t1), B(t2,bwd), C(t2), D(t1)] vs comparison [A, B(bwd), Y(bwd), D]
  //   -> (A,A),(B,B),(-,Y),(C,-),(D,D)
  std::vector<SegmentItem> bi = {{10, false}, {20, true}, {30, true}, {40, false}};
  std::vector<SegmentItem> ci = {{10, false}, {20, true}, {30, true}, {40, false}};
  for (auto algo : {MatchAlgorithm::kReferenceCompat, MatchAlgorithm::kLcs}) {
    auto pairs =
        MatchSegmented(algo, Keys("ABCD"), bi, Keys("ABYD"), ci, true, GapOrder::kComparisonFirst);
    EXPECT_EQ(Render(pairs, "ABCD", "ABYD"), "(A,A),(B,B),(-,Y),(C,-),(D,D)");
  }
}

TEST(Segments, CutOnBwdChangesOnlyAndSortByStart) {
  // Input not in start order; two different non-bwd threads stay in one segment (flag only).
  std::vector<SegmentItem> items = {{30, true}, {10, false}, {20, false}, {40, true}, {50, false}};
  Segmentation s = SegmentFwdBwd(items);
  EXPECT_EQ(s.order, (std::vector<uint32_t>{1, 2, 0, 3, 4}));
  ASSERT_EQ(s.segments.size(), 3u);
  EXPECT_FALSE(s.segments[0].is_bwd);
  EXPECT_EQ(s.segments[0].end - s.segments[0].begin, 2u);
  EXPECT_TRUE(s.segments[1].is_bwd);
  EXPECT_EQ(s.segments[1].end - s.segments[1].begin, 2u);
  EXPECT_FALSE(s.segments[2].is_bwd);
  // Stable for equal starts.
  std::vector<SegmentItem> same = {{5, false}, {5, false}, {5, false}};
  EXPECT_EQ(SegmentFwdBwd(same).order, (std::vector<uint32_t>{0, 1, 2}));
}

TEST(Segments, PairingRules) {
  auto seg = [](std::initializer_list<bool> flags) {
    std::vector<Segment> v;
    for (bool f : flags) v.push_back({0, 0, f});
    return v;
  };
  auto render = [](const std::vector<MatchPair>& p) {
    std::string s;
    for (auto& x : p) s += "(" + std::to_string(x.base) + "," + std::to_string(x.comparison) + ")";
    return s;
  };
  // Same first flag: i with i, leftovers unmatched.
  EXPECT_EQ(render(PairSegments(seg({false, true, false}), seg({false, true}))), "(0,0)(1,1)(2,-1)");
  // Different first flag, base has more: base's first is unmatched.
  EXPECT_EQ(render(PairSegments(seg({true, false, true}), seg({false, true}))), "(0,-1)(1,0)(2,1)");
  // Different first flag, comparison has more: comparison's first is unmatched.
  EXPECT_EQ(render(PairSegments(seg({false, true}), seg({true, false, true}))), "(-1,0)(0,1)(1,2)");
  // Tie: the comparison side's first segment is emitted unmatched.
  EXPECT_EQ(render(PairSegments(seg({false, true}), seg({true, false}))), "(-1,0)(0,1)(1,-1)");
  EXPECT_EQ(render(PairSegments(seg({}), seg({true}))), "(-1,0)");
}

TEST(Segments, EmptySideEmitsEverythingUnmatched) {
  std::vector<SegmentItem> bi = {{1, false}, {2, true}};
  for (auto algo : kAllAlgorithms)
    for (auto order : kBothOrders) {
      auto pairs = MatchSegmented(algo, Keys("ab"), bi, Keys(""), {}, true, order);
      EXPECT_EQ(Render(pairs, "ab", ""), "(a,-),(b,-)");
    }
}

TEST(Segments, UnmatchedSegmentItemsKeepOriginalIndices) {
  // base: [x(bwd), a, b]; comparison: [a, b] -> base has 2 segments, comparison 1, flags differ:
  // base's first segment (x) is unmatched, then [a,b] vs [a,b].
  std::vector<SegmentItem> bi = {{5, true}, {10, false}, {20, false}};
  std::vector<SegmentItem> ci = {{10, false}, {20, false}};
  auto pairs = MatchSegmented(MatchAlgorithm::kLcs, Keys("xab"), bi, Keys("ab"), ci, true,
                              GapOrder::kComparisonFirst);
  EXPECT_EQ(Render(pairs, "xab", "ab"), "(x,-),(a,a),(b,b)");
  // Without segmentation the lists are matched as given.
  auto flat = MatchSegmented(MatchAlgorithm::kLcs, Keys("xab"), bi, Keys("ab"), ci, false,
                             GapOrder::kComparisonFirst);
  EXPECT_EQ(Render(flat, "xab", "ab"), "(x,-),(a,a),(b,b)");
}

// ---- Test reference model: CPython's difflib, transcribed literally ----------------------------
//
// Lib/difflib.py SequenceMatcher(isjunk=None, a=base, b=comparison, autojunk=False): __chain_b
// builds b2j (every item of b with its ascending positions; no junk, no "popular" items),
// find_longest_match scans a with the j2len dictionaries, get_matching_blocks recurses through a
// queue (a stack: pop()), sorts and merges the blocks. Deliberately naive: std::map for the
// dictionaries. isbjunk is always false here, so the two junk-extension loops are left out; the
// non-junk ones are kept as written.
struct PyMatch {
  size_t a = 0, b = 0, size = 0;
};

class DifflibModel {
 public:
  DifflibModel(const std::vector<MatchKey>& a, const std::vector<MatchKey>& b) : a_(a), b_(b) {
    for (size_t j = 0; j < b_.size(); ++j) b2j_[b_[j]].push_back(j);
  }

  PyMatch FindLongestMatch(size_t alo, size_t ahi, size_t blo, size_t bhi) const {
    size_t besti = alo, bestj = blo, bestsize = 0;
    std::map<size_t, size_t> j2len;
    const std::vector<size_t> nothing;
    for (size_t i = alo; i < ahi; ++i) {
      std::map<size_t, size_t> newj2len;
      auto found = b2j_.find(a_[i]);
      for (size_t j : found == b2j_.end() ? nothing : found->second) {
        if (j < blo) continue;
        if (j >= bhi) break;
        auto prev = j > 0 ? j2len.find(j - 1) : j2len.end();  // j2lenget(j-1, 0)
        const size_t k = newj2len[j] = (prev == j2len.end() ? 0 : prev->second) + 1;
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = std::move(newj2len);
    }
    while (besti > alo && bestj > blo && a_[besti - 1] == b_[bestj - 1]) {
      --besti;
      --bestj;
      ++bestsize;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi &&
           a_[besti + bestsize] == b_[bestj + bestsize])
      ++bestsize;
    return {besti, bestj, bestsize};
  }

  // get_matching_blocks() without the final (la, lb, 0) sentinel.
  std::vector<PyMatch> GetMatchingBlocks() const {
    std::vector<std::array<size_t, 4>> queue{{0, a_.size(), 0, b_.size()}};
    std::vector<PyMatch> matching_blocks;
    while (!queue.empty()) {
      const auto [alo, ahi, blo, bhi] = queue.back();
      queue.pop_back();
      const PyMatch x = FindLongestMatch(alo, ahi, blo, bhi);
      if (x.size == 0) continue;
      matching_blocks.push_back(x);
      if (alo < x.a && blo < x.b) queue.push_back({alo, x.a, blo, x.b});
      if (x.a + x.size < ahi && x.b + x.size < bhi)
        queue.push_back({x.a + x.size, ahi, x.b + x.size, bhi});
    }
    std::sort(matching_blocks.begin(), matching_blocks.end(),
              [](const PyMatch& x, const PyMatch& y) {
                return std::tie(x.a, x.b, x.size) < std::tie(y.a, y.b, y.size);
              });
    std::vector<PyMatch> non_adjacent;
    PyMatch cur;
    for (const PyMatch& m : matching_blocks) {
      if (cur.a + cur.size == m.a && cur.b + cur.size == m.b) {
        cur.size += m.size;
      } else {
        if (cur.size > 0) non_adjacent.push_back(cur);
        cur = m;
      }
    }
    if (cur.size > 0) non_adjacent.push_back(cur);
    return non_adjacent;
  }

 private:
  const std::vector<MatchKey>& a_;
  const std::vector<MatchKey>& b_;
  std::map<MatchKey, std::vector<size_t>> b2j_;
};

// The 26.1 reference's rows from the blocks: in each gap the base-only items, then the
// comparison-only ones; then the block's pairs. (With kComparisonFirst the two gap runs swap.)
std::vector<MatchPair> DifflibPairs(const std::vector<MatchKey>& a, const std::vector<MatchKey>& b,
                                    GapOrder order) {
  std::vector<PyMatch> blocks = DifflibModel(a, b).GetMatchingBlocks();
  blocks.push_back({a.size(), b.size(), 0});
  std::vector<MatchPair> out;
  size_t i = 0, j = 0;
  for (const PyMatch& m : blocks) {
    std::vector<MatchPair> base_only, comparison_only;
    for (; i < m.a; ++i) base_only.push_back({static_cast<int32_t>(i), kNoIndex});
    for (; j < m.b; ++j) comparison_only.push_back({kNoIndex, static_cast<int32_t>(j)});
    if (order == GapOrder::kComparisonFirst) std::swap(base_only, comparison_only);
    out.insert(out.end(), base_only.begin(), base_only.end());
    out.insert(out.end(), comparison_only.begin(), comparison_only.end());
    for (size_t k = 0; k < m.size; ++k, ++i, ++j)
      out.push_back({static_cast<int32_t>(i), static_cast<int32_t>(j)});
  }
  return out;
}

std::vector<MatchBlock> ToBlocks(const std::vector<PyMatch>& py) {
  std::vector<MatchBlock> out;
  for (const PyMatch& m : py)
    out.push_back(
        {static_cast<uint32_t>(m.a), static_cast<uint32_t>(m.b), static_cast<uint32_t>(m.size)});
  return out;
}

std::string RenderSm(const std::string& b, const std::string& c,
                     GapOrder order = GapOrder::kBaseFirst) {
  return Render(MatchSequenceMatcher(Keys(b), Keys(c), order), b, c);
}

// Expected rows printed by the real Python 3.11: the blocks of
// difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks(), with the base-only
// items before the comparison-only ones in each gap.
TEST(SequenceMatcher, HandCasesCheckedWithPython) {
  // Longest block first, earliest in base: the docstring example of find_longest_match.
  EXPECT_EQ(RenderSm(" abcd", "abcd abcd"),
            "(-,a),(-,b),(-,c),(-,d),( , ),(a,a),(b,b),(c,c),(d,d)");
  // The spec's oracles of docs/reference/operators.md#sequence-matching, now with the base item
  // first in the trailing gap.
  EXPECT_EQ(RenderSm("abcd", "bce"), "(a,-),(b,b),(c,c),(d,-),(-,e)");
  EXPECT_EQ(RenderSm("ABCD", "BXCE"), "(A,-),(B,B),(-,X),(C,C),(D,-),(-,E)");
  // Not an LCS of items either way: a contiguous block wins.
  EXPECT_EQ(RenderSm("bbaa", "aab"), "(b,-),(b,-),(a,a),(a,a),(-,b)");
  EXPECT_EQ(RenderSm("xyab", "abxy"), "(-,a),(-,b),(x,x),(y,y),(a,-),(b,-)");
  EXPECT_EQ(RenderSm("ab", "acab"), "(-,a),(-,c),(a,a),(b,b)");
  // Ties of length 1 resolved by base position first, then comparison position.
  EXPECT_EQ(RenderSm("aXbXc", "abcXXX"), "(a,a),(-,b),(-,c),(X,X),(b,-),(X,X),(c,-),(-,X)");
  EXPECT_EQ(RenderSm("ba", "ab"), "(-,a),(b,b),(a,-)");
  EXPECT_EQ(RenderSm("ABCABBA", "CBABAC"),
            "(-,C),(-,B),(A,A),(B,B),(-,A),(C,C),(A,-),(B,-),(B,-),(A,-)");
  EXPECT_EQ(RenderSm("qabxcd", "abycdf"), "(q,-),(a,a),(b,b),(x,-),(-,y),(c,c),(d,d),(-,f)");
  EXPECT_EQ(RenderSm("abab", "babab"), "(-,b),(a,a),(b,b),(a,a),(b,b)");
  EXPECT_EQ(RenderSm("aaa", "aaaa"), "(a,a),(a,a),(a,a),(-,a)");
  EXPECT_EQ(RenderSm("abc", "xyz"), "(a,-),(b,-),(c,-),(-,x),(-,y),(-,z)");
  // The same blocks with the 8.2 gap order.
  EXPECT_EQ(RenderSm("qabxcd", "abycdf", GapOrder::kComparisonFirst),
            "(q,-),(a,a),(b,b),(-,y),(x,-),(c,c),(d,d),(-,f)");
  EXPECT_EQ(RenderSm("abc", "xyz", GapOrder::kComparisonFirst),
            "(-,x),(-,y),(-,z),(a,-),(b,-),(c,-)");
  // Blocks (Python: [(1, 0, 2), (4, 3, 2), (6, 6, 0)]).
  EXPECT_EQ(SequenceMatcherBlocks(Keys("qabxcd"), Keys("abycdf")),
            (std::vector<MatchBlock>{{1, 0, 2}, {4, 3, 2}}));
}

TEST(SequenceMatcher, ModelAgreesWithPythonOnHandCases) {
  // The test's model must itself reproduce Python (the rows above).
  auto model = [](const std::string& b, const std::string& c) {
    return Render(DifflibPairs(Keys(b), Keys(c), GapOrder::kBaseFirst), b, c);
  };
  EXPECT_EQ(model(" abcd", "abcd abcd"), "(-,a),(-,b),(-,c),(-,d),( , ),(a,a),(b,b),(c,c),(d,d)");
  EXPECT_EQ(model("aXbXc", "abcXXX"), "(a,a),(-,b),(-,c),(X,X),(b,-),(X,X),(c,-),(-,X)");
  EXPECT_EQ(model("ABCABBA", "CBABAC"),
            "(-,C),(-,B),(A,A),(B,B),(-,A),(C,C),(A,-),(B,-),(B,-),(A,-)");
}

// Random inputs of several shapes, cross-checked block by block and pair by pair with the model.
void ExpectSameAsModel(const std::vector<MatchKey>& b, const std::vector<MatchKey>& c,
                       const std::string& what) {
  const std::vector<PyMatch> py = DifflibModel(b, c).GetMatchingBlocks();
  ASSERT_EQ(SequenceMatcherBlocks(b, c), ToBlocks(py)) << what;
  for (GapOrder order : kBothOrders) {
    ASSERT_EQ(MatchSequenceMatcher(b, c, order), DifflibPairs(b, c, order)) << what;
    ASSERT_EQ(MatchSequences(MatchAlgorithm::kSequenceMatcher, b, c, order),
              DifflibPairs(b, c, order))
        << what;
  }
}

std::vector<MatchKey> Repeated(std::mt19937& rng, size_t len, size_t period, uint32_t alphabet) {
  std::vector<MatchKey> pattern = RandomKeys(rng, period, alphabet), out;
  while (out.size() < len) out.push_back(pattern[out.size() % period]);
  return out;
}

// Random insertions, deletions and substitutions (new keys from `alphabet`, which may exceed the
// input's).
std::vector<MatchKey> Edited(std::mt19937& rng, const std::vector<MatchKey>& in, int per_mille,
                             uint32_t alphabet) {
  std::uniform_int_distribution<int> r(0, 999);
  std::uniform_int_distribution<uint32_t> key(0, alphabet - 1);
  std::vector<MatchKey> out;
  for (MatchKey k : in) {
    const int x = r(rng);
    if (x < per_mille / 3) continue;
    if (x < 2 * per_mille / 3) out.push_back(key(rng));
    out.push_back(x < per_mille ? key(rng) : k);
  }
  return out;
}

TEST(SequenceMatcher, MatchesDifflibModelOnRandomInputs) {
  std::mt19937 rng(2611);
  std::uniform_int_distribution<int> len(0, 40), alpha(1, 6);
  for (int t = 0; t < 3000; ++t) {  // small alphabets, empty sides included
    const auto a = static_cast<uint32_t>(alpha(rng));
    auto b = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto c = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    ExpectSameAsModel(b, c, "random case " + std::to_string(t));
  }
  for (int t = 0; t < 1500; ++t) {  // repeated patterns with edits
    auto b =
        Repeated(rng, 20 + static_cast<size_t>(t % 120), 1 + static_cast<size_t>(t % 7), 2 + t % 5);
    auto c = Edited(rng, b, 30 + 10 * (t % 20), 3 + t % 6);
    if (t % 2) std::swap(b, c);
    ExpectSameAsModel(b, c, "pattern case " + std::to_string(t));
  }
  for (int t = 0; t < 200; ++t) {  // all equal, no common keys, one side a slice of the other
    const size_t n = 1 + static_cast<size_t>(t % 37), m = 1 + static_cast<size_t>((t * 7) % 41);
    ExpectSameAsModel(std::vector<MatchKey>(n, 5), std::vector<MatchKey>(m, 5),
                      "all equal " + std::to_string(t));
    ExpectSameAsModel(RandomKeys(rng, n, 4), std::vector<MatchKey>(m, 9),
                      "disjoint " + std::to_string(t));
    auto b = RandomKeys(rng, n + m, 3);
    std::vector<MatchKey> c(b.begin() + static_cast<long>(n / 2),
                            b.begin() + static_cast<long>(n / 2 + m));
    ExpectSameAsModel(b, c, "slice " + std::to_string(t));
  }
}

// Bigger inputs: many nested ranges, left ranges whose comparison side ends early (range queries in
// the wavelet matrix), long runs.
TEST(SequenceMatcher, MatchesDifflibModelOnLargerInputs) {
  std::mt19937 rng(261);
  for (int t = 0; t < 24; ++t) {
    std::vector<MatchKey> b, c;
    switch (t % 4) {
      case 0:
        b = RandomKeys(rng, 200 + static_cast<size_t>(t) * 10, 2);
        c = RandomKeys(rng, 180 + static_cast<size_t>(t) * 12, 2);
        break;
      case 1:
        b = Repeated(rng, 1000, 40, 30);
        c = Edited(rng, b, 50, 35);
        break;
      case 2:
        b = Repeated(rng, 500, 2, 2);
        c = Edited(rng, b, 50, 3);
        break;
      default:
        for (int r = 30; r > 0; --r) {  // staircase of runs
          b.insert(b.end(), static_cast<size_t>(r), 0);
          b.push_back(1);
          c.insert(c.end(), static_cast<size_t>(r + (t % 3)), 0);
          c.push_back(2);
        }
    }
    ExpectSameAsModel(b, c, "larger case " + std::to_string(t));
  }
}

// ---- Gap order for every algorithm ------------------------------------------------------------

// The matched pairs, in order.
std::vector<MatchPair> Matched(const std::vector<MatchPair>& pairs) {
  std::vector<MatchPair> out;
  for (const MatchPair& p : pairs)
    if (p.base != kNoIndex && p.comparison != kNoIndex) out.push_back(p);
  return out;
}

// Every gap has its `order` side first (and all items appear once, in order, matched keys equal).
void ExpectGapOrder(const std::vector<MatchPair>& pairs, const std::vector<MatchKey>& b,
                    const std::vector<MatchKey>& c, GapOrder order) {
  ExpectValidAlignment(pairs, b, c, /*gap_order=*/false);
  bool second_side_seen = false;
  for (const MatchPair& p : pairs) {
    if (p.base != kNoIndex && p.comparison != kNoIndex) {
      second_side_seen = false;
      continue;
    }
    const bool is_first_side =
        order == GapOrder::kBaseFirst ? p.base != kNoIndex : p.comparison != kNoIndex;
    if (is_first_side)
      ASSERT_FALSE(second_side_seen) << "gap order violated";
    else
      second_side_seen = true;
  }
}

TEST(GapOrder, EveryAlgorithmKeepsItsMatchesAndOrdersGaps) {
  std::mt19937 rng(8);
  std::uniform_int_distribution<int> len(0, 30), alpha(1, 6);
  for (int t = 0; t < 2000; ++t) {
    const auto a = static_cast<uint32_t>(alpha(rng));
    auto b = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto c = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    for (MatchAlgorithm algo : kAllAlgorithms) {
      const auto cf = MatchSequences(algo, b, c, GapOrder::kComparisonFirst);
      const auto bf = MatchSequences(algo, b, c, GapOrder::kBaseFirst);
      ASSERT_EQ(Matched(cf), Matched(bf)) << "case " << t;
      if (algo == MatchAlgorithm::kNone) {  // no matching: one gap, base first either way
        ASSERT_EQ(cf, MatchNone(b.size(), c.size()));
        ASSERT_EQ(bf, cf);
        continue;
      }
      ExpectGapOrder(cf, b, c, GapOrder::kComparisonFirst);
      ExpectGapOrder(bf, b, c, GapOrder::kBaseFirst);
    }
    // kComparisonFirst is the output these algorithms had before GapOrder existed.
    ASSERT_EQ(MatchReferenceCompat(b, c, GapOrder::kComparisonFirst),
              ReferenceTextTranscription(b, c));
  }
}

TEST(GapOrder, HandCases) {
  // LCS and the 8.2 recurrence pair (b,b),(c,c); only the trailing gap changes.
  for (MatchAlgorithm algo : {MatchAlgorithm::kLcs, MatchAlgorithm::kReferenceCompat}) {
    EXPECT_EQ(Render(MatchSequences(algo, Keys("abcd"), Keys("bce"), GapOrder::kComparisonFirst),
                     "abcd", "bce"),
              "(a,-),(b,b),(c,c),(-,e),(d,-)");
    EXPECT_EQ(Render(MatchSequences(algo, Keys("abcd"), Keys("bce"), GapOrder::kBaseFirst), "abcd",
                     "bce"),
              "(a,-),(b,b),(c,c),(d,-),(-,e)");
    EXPECT_EQ(Render(MatchSequences(algo, Keys("xyAuvB"), Keys("pAqB"), GapOrder::kBaseFirst),
                     "xyAuvB", "pAqB"),
              "(x,-),(y,-),(-,p),(A,A),(u,-),(v,-),(-,q),(B,B)");
  }
  std::vector<MatchPair> pairs = {{kNoIndex, 0}, {0, kNoIndex}, {kNoIndex, 1},
                                  {1, 2},        {2, kNoIndex}, {kNoIndex, 3}};
  ApplyGapOrder(pairs, GapOrder::kBaseFirst);
  EXPECT_EQ(
      pairs,
      (std::vector<MatchPair>{
          {0, kNoIndex}, {kNoIndex, 0}, {kNoIndex, 1}, {1, 2}, {2, kNoIndex}, {kNoIndex, 3}}));
  ApplyGapOrder(pairs, GapOrder::kComparisonFirst);
  EXPECT_EQ(
      pairs,
      (std::vector<MatchPair>{
          {kNoIndex, 0}, {kNoIndex, 1}, {0, kNoIndex}, {1, 2}, {kNoIndex, 3}, {2, kNoIndex}}));
}

// ---- MatchSegmented with the 26.1 matching ----------------------------------------------------

TEST(Segments, SequenceMatcherPerSegmentPair) {
  // The oracle of docs/reference/operators.md#fwd-bwd-segmentation's lists (segments [A], [B C] on
  // the bwd thread, [D] on both sides): with difflib and the 26.1 gap order the base-only C comes
  // before the comparison-only Y.
  std::vector<SegmentItem> bi = {{10, false}, {20, true}, {30, true}, {40, false}};
  std::vector<SegmentItem> ci = {{10, false}, {20, true}, {30, true}, {40, false}};
  EXPECT_EQ(Render(MatchSegmented(MatchAlgorithm::kSequenceMatcher, Keys("ABCD"), bi, Keys("ABYD"),
                                  ci, true, GapOrder::kBaseFirst),
                   "ABCD", "ABYD"),
            "(A,A),(B,B),(C,-),(-,Y),(D,D)");
  EXPECT_EQ(Render(MatchSegmented(MatchAlgorithm::kSequenceMatcher, Keys("ABCD"), bi, Keys("ABYD"),
                                  ci, true, GapOrder::kComparisonFirst),
                   "ABCD", "ABYD"),
            "(A,A),(B,B),(-,Y),(C,-),(D,D)");
  // Segments keep difflib from pairing across them: unsegmented, "xyab" vs "abxy" matches the block
  // x y; cut as [x y | a b] on both sides (b's second segment is bwd) it pairs everything.
  std::vector<SegmentItem> b2 = {{1, false}, {2, false}, {3, true}, {4, true}};
  std::vector<SegmentItem> c2 = {
      {3, true}, {4, true}, {1, false}, {2, false}};  // "abxy" in start order: x y a b
  EXPECT_EQ(Render(MatchSegmented(MatchAlgorithm::kSequenceMatcher, Keys("xyab"), b2, Keys("abxy"),
                                  c2, false, GapOrder::kBaseFirst),
                   "xyab", "abxy"),
            "(-,a),(-,b),(x,x),(y,y),(a,-),(b,-)");
  EXPECT_EQ(Render(MatchSegmented(MatchAlgorithm::kSequenceMatcher, Keys("xyab"), b2, Keys("abxy"),
                                  c2, true, GapOrder::kBaseFirst),
                   "xyab", "abxy"),
            "(x,x),(y,y),(a,a),(b,b)");
}

TEST(Segments, SequenceMatcherEqualsModelOnEachSegmentPair) {
  std::mt19937 rng(83);
  std::uniform_int_distribution<int> len(0, 25), flip(0, 5);
  for (int t = 0; t < 300; ++t) {
    auto make = [&](std::vector<MatchKey>* keys, std::vector<SegmentItem>* items) {
      const size_t n = static_cast<size_t>(len(rng));
      *keys = RandomKeys(rng, n, 3);
      bool bwd = flip(rng) == 0;
      for (size_t i = 0; i < n; ++i) {
        if (flip(rng) == 0) bwd = !bwd;
        items->push_back({static_cast<int64_t>(i) * 10, bwd});
      }
    };
    std::vector<MatchKey> bk, ck;
    std::vector<SegmentItem> bi, ci;
    make(&bk, &bi);
    make(&ck, &ci);
    const auto got = MatchSegmented(MatchAlgorithm::kSequenceMatcher, bk, bi, ck, ci, true,
                                    GapOrder::kBaseFirst);
    // Expected: the segment pairing, each matched segment pair run through the model.
    std::vector<MatchPair> want;
    if (bk.empty() || ck.empty()) {
      want = MatchNone(bk.size(), ck.size());
    } else {
      const Segmentation bs = SegmentFwdBwd(bi), cs = SegmentFwdBwd(ci);
      for (const MatchPair& sp : PairSegments(bs.segments, cs.segments)) {
        std::vector<MatchKey> sb, sc;
        const Segment* x = sp.base != kNoIndex ? &bs.segments[sp.base] : nullptr;
        const Segment* y = sp.comparison != kNoIndex ? &cs.segments[sp.comparison] : nullptr;
        if (x)
          sb.assign(bk.begin() + x->begin,
                    bk.begin() + x->end);  // items are in start order already
        if (y) sc.assign(ck.begin() + y->begin, ck.begin() + y->end);
        for (MatchPair p : DifflibPairs(sb, sc, GapOrder::kBaseFirst)) {
          if (p.base != kNoIndex) p.base += static_cast<int32_t>(x->begin);
          if (p.comparison != kNoIndex) p.comparison += static_cast<int32_t>(y->begin);
          want.push_back(p);
        }
      }
    }
    ASSERT_EQ(got, want) << "case " << t;
  }
}

}  // namespace
}  // namespace profdiff::analysis
