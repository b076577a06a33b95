// How a run reports an input it cannot use (pipeline only).
#pragma once

#include "profdiff/base/status.h"

namespace profdiff::pipeline {

// An input named on the command line that cannot be used is an input error, whatever code its
// producer chose: kInvalidArgument would read as a usage error, so it is reported as kNotFound.
inline Status AsInputError(const Status& status) {
  if (status.code() != StatusCode::kInvalidArgument) return status;
  return NotFound(status.message());
}

}  // namespace profdiff::pipeline
