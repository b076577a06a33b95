// What a path that is not a regular file is, for a message naming it ("X: is a FIFO, not a regular
// file"): profdiff reads only regular files (a FIFO would block a read forever) and replaces only
// regular files.
#pragma once

#include <sys/types.h>

namespace profdiff {

// "directory", "symbolic link", "character device", "block device", "FIFO", "socket", else
// "regular file" or "special file". `mode` is a stat's st_mode.
const char* FileKindName(mode_t mode);

}  // namespace profdiff
