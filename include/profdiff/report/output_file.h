// Safe output files (docs/deviations.md): never replace an existing file unless asked, write to a
// temporary file in the same directory and rename it into place, leave nothing behind on error.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "profdiff/base/status.h"

namespace profdiff::report {

// Checks that `path` may be created: its directory exists and is a directory (kNotFound otherwise),
// and `path` does not exist unless `force` (kAlreadyExists; a directory at `path` is always refused).
Status CheckOutputPath(const std::string& path, bool force);

// Calls `write(tmp_path)` with a fresh temporary path in the directory of `path`, then renames the
// temporary file to `path` (atomically refusing to replace an existing file unless `force`). When
// `write` fails or the rename fails, the temporary file is removed and the error returned. The final
// file gets mode 0644.
Status WriteViaTempFile(const std::string& path, bool force,
                        const std::function<Status(const std::string& tmp_path)>& write);

// Writes `content` to `path` through WriteViaTempFile.
Status WriteFileAtomically(const std::string& path, std::string_view content, bool force);

}  // namespace profdiff::report
