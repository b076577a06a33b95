// Screen output: tables in PrettyTable's default style, byte for byte (the overall comparison's table
// is report/overall/screen.h), and a short gate verdict. Colour (ANSI) only when asked.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/base/status.h"

namespace profdiff::report {

enum class ColorMode { kAuto, kAlways, kNever };

// "auto" | "always" | "never".
StatusOr<ColorMode> ParseColorMode(std::string_view text);
// always -> true; never -> false; auto -> `is_tty` and NO_COLOR unset or empty (`no_color_env` is
// getenv("NO_COLOR")).
bool ResolveColor(ColorMode mode, bool is_tty, const char* no_color_env);

// PrettyTable default style: a title row (when `title` is not empty), `+`/`-`/`|` borders, one space
// of padding, every cell centred the way PrettyTable centres odd padding; column widths fit the
// widest cell. Widths count characters (UTF-8 code points). Ends with "\n". `color` makes the title
// and the header bold (escape codes do not count towards widths).
std::string RenderPrettyTable(std::string_view title, const std::vector<std::string>& header,
                              const std::vector<std::vector<std::string>>& rows, bool color = false);

// "gate: PASS" / "gate: REGRESSION" / "gate: INCOMPARABLE" line followed by one indented line per
// check and per comparability warning; ends with "\n". Empty when no gate ran.
std::string RenderVerdict(const analysis::GateResult& gate, bool color = false);

}  // namespace profdiff::report
