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

// Creates `path` empty and exclusively or, when it is taken, "<stem>_2<ext>", "<stem>_3<ext>", ... (the
// first free one), and returns the path created: runs started in the same second in one directory
// never collide on a timestamped default name. The caller owns the file: it writes it with force and
// removes it if the run fails. Errors (directory missing or not writable) name the path.
StatusOr<std::string> ReserveUniquePath(const std::string& path);

// Checks that this process may create files in the directory of `path` (kIoError naming it if not),
// so a run fails before any work rather than after writing its other outputs.
Status CheckDirectoryWritable(const std::string& path);

// Writes `content` to `path` through WriteViaTempFile.
Status WriteFileAtomically(const std::string& path, std::string_view content, bool force);

}  // namespace profdiff::report
