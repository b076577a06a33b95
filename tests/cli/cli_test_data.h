// The bundled profiles the CLI tests run on (tests/data; provenance in tests/data/PROVENANCE.md).
#pragma once

#include <string>

namespace profdiff::testing {

inline const std::string kData = PROFDIFF_SOURCE_DIR "/tests/data";
inline const std::string kBefore = kData + "/kineto_h100_tiny/before_fix_trace.json";
inline const std::string kAfter = kData + "/kineto_h100_tiny/after_fix_trace.json";
inline const std::string kTraceView = kData + "/ascend_trace_view/trace_view.json";
inline const std::string kAscendDir = kData + "/ascend_910b_alexnet/rank0_ascend_pt";

}  // namespace profdiff::testing
