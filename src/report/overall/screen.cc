#include "profdiff/report/overall/screen.h"

#include <vector>

#include "profdiff/report/screen.h"

namespace profdiff::report {

std::string RenderScreenTable(const analysis::OverallComparison& cmp, bool color) {
  if (cmp.screen.empty()) return {};
  std::vector<std::string> header{""};
  std::vector<std::string> base{cmp.base.label};
  std::vector<std::string> comparison{cmp.comparison.label};
  for (const analysis::ScreenColumn& c : cmp.screen) {
    header.push_back(c.header);
    base.push_back(c.base_cell);
    comparison.push_back(c.comparison_cell);
  }
  return RenderPrettyTable(cmp.screen_title, header, {base, comparison}, color);
}

}  // namespace profdiff::report
