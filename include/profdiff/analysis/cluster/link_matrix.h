// The run's link matrix in profdiff's own terms: each step's src -> dst rank links of each
// communication group, with their transport, the size moved, the time and the bandwidth, as the
// reference totals them ("Total Op Info" of cluster_communication_matrix.json for a run of text
// exports, of cluster_analysis.db's ClusterCommunicationMatrix for a run of DB exports), and the
// links that are slow against the others of their transport. The profile's values are floats (MB,
// ms, GB/s): they stay floats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/cluster/db_tables.h"

namespace profdiff::analysis {

struct RunLink {
  std::string step;   // "step50"
  std::string group;  // the group name (a hash)
  int64_t src = 0, dst = 0;
  std::string transport;  // "HCCS", "RDMA", "PCIE", "LOCAL", ...
  double size_mb = 0, time_ms = 0, bandwidth_gbps = 0;
};

// A link whose bandwidth is below half its transport's median over the run's links between two
// ranks (src != dst) of that transport, slowest first.
struct SlowLink {
  RunLink link;
  double transport_median_gbps = 0;
};

struct LinkMatrix {
  std::string source;  // the file or table read; "" when the run has no link matrix
  std::vector<RunLink> links;  // in the source's order
  std::vector<SlowLink> slow;
  std::vector<std::string> notes;  // entries skipped and why
};

// From cluster_communication_matrix.json's text (the reference's; report/cluster/communication_files.h).
LinkMatrix LinksFromMatrixJson(std::string_view json_text);
// From the ClusterCommunicationMatrix table (db_matrix.cc): its "Total Op Info" rows.
LinkMatrix LinksFromMatrixTable(const ResultTable& table);

}  // namespace profdiff::analysis
