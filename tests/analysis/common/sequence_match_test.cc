#include "profdiff/analysis/common/sequence_match.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
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

// ---- Direct transcription of the §8.4 text (deliberately naive: a std::set of flags) -------------
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

std::vector<MatchKey> RandomKeys(std::mt19937& rng, size_t len, uint32_t alphabet) {
  std::uniform_int_distribution<uint32_t> d(0, alphabet - 1);
  std::vector<MatchKey> k(len);
  for (auto& x : k) x = d(rng);
  return k;
}

// ---- Oracles (§8.4, §17.1) --------------------------------------------------------------------------

TEST(ReferenceCompat, NotATrueLcs) {
  auto b = Keys("bbaa"), c = Keys("aab");
  auto pairs = MatchReferenceCompat(b, c);
  EXPECT_EQ(CountMatched(pairs), 1u);
  EXPECT_EQ(Render(pairs, "bbaa", "aab"), "(-,a),(-,a),(b,-),(b,b),(a,-),(a,-)");
  EXPECT_EQ(pairs, ReferenceTextTranscription(b, c));
  // The true LCS has 2.
  EXPECT_EQ(CountMatched(MatchLcs(b, c)), 2u);
  EXPECT_EQ(LcsLength(b, c), 2u);
}

TEST(ReferenceCompat, TieRuleOracles) {
  EXPECT_EQ(Render(MatchReferenceCompat(Keys("abcd"), Keys("bce")), "abcd", "bce"),
            "(a,-),(b,b),(c,c),(-,e),(d,-)");
  EXPECT_EQ(Render(MatchReferenceCompat(Keys("ABCD"), Keys("BXCE")), "ABCD", "BXCE"),
            "(A,-),(B,B),(-,X),(C,C),(-,E),(D,-)");
}

TEST(Lcs, TieRuleOraclesLookLikeTheReference) {
  EXPECT_EQ(Render(MatchLcs(Keys("abcd"), Keys("bce")), "abcd", "bce"), "(a,-),(b,b),(c,c),(-,e),(d,-)");
  EXPECT_EQ(Render(MatchLcs(Keys("ABCD"), Keys("BXCE")), "ABCD", "BXCE"),
            "(A,-),(B,B),(-,X),(C,C),(-,E),(D,-)");
}

TEST(Matching, EmptySides) {
  for (auto algo : {MatchAlgorithm::kLcs, MatchAlgorithm::kReferenceCompat, MatchAlgorithm::kNone}) {
    EXPECT_EQ(Render(MatchSequences(algo, Keys("ab"), Keys("")), "ab", ""), "(a,-),(b,-)");
    EXPECT_EQ(Render(MatchSequences(algo, Keys(""), Keys("xy")), "", "xy"), "(-,x),(-,y)");
    EXPECT_TRUE(MatchSequences(algo, Keys(""), Keys("")).empty());
  }
}

TEST(Matching, NoneIsAllBaseThenAllComparison) {
  EXPECT_EQ(Render(MatchSequences(MatchAlgorithm::kNone, Keys("ab"), Keys("ab")), "ab", "ab"),
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
    ASSERT_EQ(MatchReferenceCompat(b, c), ReferenceTextTranscription(b, c)) << "case " << t;
  }
  // A few wider rows (several 64-bit flag words per row).
  for (int t = 0; t < 40; ++t) {
    auto b = RandomKeys(rng, 150 + static_cast<size_t>(t) * 3, 4);
    auto c = RandomKeys(rng, 90 + static_cast<size_t>(t) * 5, 4);
    ASSERT_EQ(MatchReferenceCompat(b, c), ReferenceTextTranscription(b, c)) << "wide case " << t;
  }
  // Rows spanning several checkpoint blocks (256 rows each) and many words, with few and many keys
  // (dense '(' runs exercise the byte table, sparse ones the word fast path).
  for (int t = 0; t < 12; ++t) {
    const uint32_t a = t % 3 == 0 ? 2 : (t % 3 == 1 ? 6 : 40);
    auto b = RandomKeys(rng, 300 + static_cast<size_t>(t) * 37, a);
    auto c = RandomKeys(rng, 520 + static_cast<size_t>(t) * 41, a);
    ASSERT_EQ(MatchReferenceCompat(b, c), ReferenceTextTranscription(b, c)) << "multi-block case " << t;
  }
}

TEST(Lcs, MaximalOnSmallRandomInputs) {
  std::mt19937 rng(777);
  std::uniform_int_distribution<int> len(0, 40), alpha(1, 8);
  for (int t = 0; t < 5000; ++t) {
    uint32_t a = static_cast<uint32_t>(alpha(rng));
    auto b = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto c = RandomKeys(rng, static_cast<size_t>(len(rng)), a);
    auto pairs = MatchLcs(b, c);
    ExpectValidAlignment(pairs, b, c, /*gap_order=*/true);
    ASSERT_EQ(CountMatched(pairs), DpLcsLength(b, c)) << "case " << t;
    // The reference recurrence never finds more than the LCS.
    ASSERT_LE(CountMatched(MatchReferenceCompat(b, c)), CountMatched(pairs));
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
    auto pairs = MatchLcs(b, c);
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
    auto pairs = MatchLcs(b, c);
    ExpectValidAlignment(pairs, b, c, true);
    ASSERT_EQ(CountMatched(pairs), DpLcsLength(b, c)) << "case " << t;
  }
}

TEST(Lcs, IdenticalAndDisjoint) {
  std::vector<MatchKey> b(5000);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<MatchKey>(i % 37);
  EXPECT_EQ(CountMatched(MatchLcs(b, b)), b.size());
  std::vector<MatchKey> c(3000, 999);
  auto pairs = MatchLcs(b, c);
  EXPECT_EQ(CountMatched(pairs), 0u);
  ASSERT_EQ(pairs.size(), 8000u);
  EXPECT_EQ(pairs.front().comparison, 0);  // comparison-only items first in the (single) gap
  EXPECT_EQ(pairs.back().base, 4999);
}

// ---- Segmentation (§8.3) -----------------------------------------------------------------------------

TEST(Segments, OracleFromSpec) {
  // base [A(t1), B(t2,bwd), C(t2), D(t1)] vs comparison [A, B(bwd), Y(bwd), D]
  //   -> (A,A),(B,B),(-,Y),(C,-),(D,D)
  std::vector<SegmentItem> bi = {{10, false}, {20, true}, {30, true}, {40, false}};
  std::vector<SegmentItem> ci = {{10, false}, {20, true}, {30, true}, {40, false}};
  for (auto algo : {MatchAlgorithm::kReferenceCompat, MatchAlgorithm::kLcs}) {
    auto pairs = MatchSegmented(algo, Keys("ABCD"), bi, Keys("ABYD"), ci, true);
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
  auto pairs = MatchSegmented(MatchAlgorithm::kLcs, Keys("ab"), bi, Keys(""), {}, true);
  EXPECT_EQ(Render(pairs, "ab", ""), "(a,-),(b,-)");
}

TEST(Segments, UnmatchedSegmentItemsKeepOriginalIndices) {
  // base: [x(bwd), a, b]; comparison: [a, b] -> base has 2 segments, comparison 1, flags differ:
  // base's first segment (x) is unmatched, then [a,b] vs [a,b].
  std::vector<SegmentItem> bi = {{5, true}, {10, false}, {20, false}};
  std::vector<SegmentItem> ci = {{10, false}, {20, false}};
  auto pairs = MatchSegmented(MatchAlgorithm::kLcs, Keys("xab"), bi, Keys("ab"), ci, true);
  EXPECT_EQ(Render(pairs, "xab", "ab"), "(x,-),(a,a),(b,b)");
  // Without segmentation the lists are matched as given.
  auto flat = MatchSegmented(MatchAlgorithm::kLcs, Keys("xab"), bi, Keys("ab"), ci, false);
  EXPECT_EQ(Render(flat, "xab", "ab"), "(x,-),(a,a),(b,b)");
}

}  // namespace
}  // namespace profdiff::analysis
