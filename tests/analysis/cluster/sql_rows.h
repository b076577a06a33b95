// A present SqlRows table from its columns and rows, for the cluster analyses' tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "profdiff/model/cluster_db_tables.h"

namespace profdiff::analysis::testing {

inline SqlRows Rows(std::vector<std::string> columns, std::vector<std::vector<SqlValue>> rows) {
  SqlRows t;
  t.present = true;
  t.columns = std::move(columns);
  t.rows = std::move(rows);
  return t;
}

}  // namespace profdiff::analysis::testing
