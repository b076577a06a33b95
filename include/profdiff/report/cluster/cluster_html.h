// profdiff_cluster.html: one self-contained page of a cluster run, built from its JSON result
// (ClusterJson, schema profdiff.cluster/1) with the page frame, tables and charts of compare's page
// (report/html/): so the page shows exactly the JSON's numbers. Sections: the run and its headline
// (who holds each step back, who arrives last; with -bp the verdict and the job's change), each
// rank's mean step as stacked bars (computing, communication not overlapped, free), the slow ranks
// per step with their causes, with -bp the per-rank deltas, the collectives' skew with the last
// rank, and the waiter -> blocker heat map. No network (its Content-Security-Policy forbids every
// load), no time inside: the same result is the same bytes.
#pragma once

#include <string>

#include "profdiff/report/json_values.h"

namespace profdiff::report {

std::string RenderClusterHtmlPage(const OrderedJson& cluster_json);

}  // namespace profdiff::report
