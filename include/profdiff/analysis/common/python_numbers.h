// Numbers as the reference's Python computes them (docs/reference/numbers.md): round(), the diff
// and ratio columns, and its µs -> s -> ms conversion. Used by every comparison that reproduces its
// columns.
#pragma once

namespace profdiff::analysis {

struct ReferencePolicy;

// Python's round(x, ndigits): correctly rounded decimal rounding of the exact binary value (ties to
// even on the exact value, so round(2.675, 2) is 2.67).
double PyRound(double x, int ndigits);
// Diff column: round(comparison - base, 2).
double DiffMs(double base_ms, double comparison_ms);
// Ratio column: 1.0 if both are 0, +inf if base is 0, else round(comparison / base, 4).
double DiffRatio(double base, double comparison);
// The reference's round(x, ndigits) when policy.rounded_diffs_and_ratios, else x unchanged.
double PolicyRound(double x, int ndigits, const ReferencePolicy& policy);
// Diff column: DiffMs under policy.rounded_diffs_and_ratios, else comparison - base unrounded.
double DiffMs(double base_ms, double comparison_ms, const ReferencePolicy& policy);
// Ratio column: DiffRatio under policy.rounded_diffs_and_ratios, else comparison / base unrounded
// (1.0 if both are 0, +inf if base is 0, as the reference).
double DiffRatio(double base, double comparison, const ReferencePolicy& policy);
// The reference keeps top-level sums in float µs, converts them to seconds and later back to ms;
// this is that path (its last bit can differ from us / 1e3).
inline double UsToMsViaSeconds(double us) { return us / 1e6 * 1e3; }

}  // namespace profdiff::analysis
