// Keyword masks that drive kernel categorisation (docs/reference/command-line.md#kernel-masks). The
// built-in defaults are the reference's shipped compare_config.ini; a user file can override them
// (LoadKernelMasks).
//
// Config file format (INI): a section [OP_MASK] with the six keys FA_MASK, CONV_MASK, MATMUL_MASK,
// CUBE_MASK, TRANS_MASK, MC2_KERNEL; each value is a comma-separated list. Items are trimmed and
// lower-cased, empty items dropped, duplicates removed. Lines starting with '#' or ';' are
// comments; other sections are ignored. A missing section or key is an error naming the file.
// An optional section [DEVICE_KERNELS] (profdiff's own) extends the device-kernel name table
// (analysis/common/device_kernels.h) with the keys COMMUNICATION, STREAM_WORDS and GEMM, each a
// comma-separated list of name substrings; read in the default mode only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profdiff/base/status.h"

namespace profdiff::analysis {

struct KernelMasks {
  std::vector<std::string> fa;      // FA_MASK: CPU-op name substring -> flash attention op
  std::vector<std::string> conv;    // CONV_MASK: CPU-op name substring -> convolution op
  std::vector<std::string> matmul;  // MATMUL_MASK: CPU-op name substring -> matmul op
  std::vector<std::string> cube;    // CUBE_MASK: GPU kernel-name substring -> cube kernel
  std::vector<std::string> trans;   // TRANS_MASK: NPU kernel-name substring -> "trans" vector kernel
  std::vector<std::string> mc2;     // MC2_KERNEL: NPU kernel name (lower-cased, exact) -> MC2 kernel
  // [DEVICE_KERNELS] additions to the device-kernel name table (empty by default).
  std::vector<std::string> comm_kernels;  // COMMUNICATION: a GPU kernel-name substring -> communication
  std::vector<std::string> comm_words;    // STREAM_WORDS: communication on an all-communication stream
  std::vector<std::string> gemm_kernels;  // GEMM: a GPU kernel-name substring -> cube

  // The reference's shipped defaults.
  static KernelMasks Defaults();
};

// Parses the INI text; `file` names the source in error messages ("file:line: ...").
StatusOr<KernelMasks> ParseKernelMasks(std::string_view text, std::string_view file);
// Reads and parses a config file.
StatusOr<KernelMasks> LoadKernelMasks(const std::string& path);

// True if `lower_text` contains any item of `items` (items are lower-case already).
bool ContainsAny(std::string_view lower_text, const std::vector<std::string>& items);

}  // namespace profdiff::analysis
