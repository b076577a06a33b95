#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "profdiff/base/ascii.h"
#include "profdiff/analysis/overall/kernel_masks.h"

namespace profdiff::analysis {
namespace {

std::string_view Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> SplitItems(std::string_view value) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= value.size()) {
    size_t comma = value.find(',', pos);
    if (comma == std::string_view::npos) comma = value.size();
    std::string item = ascii::ToLower(Trim(value.substr(pos, comma - pos)));
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    pos = comma + 1;
  }
  return out;
}

}  // namespace

bool ContainsAny(std::string_view lower_text, const std::vector<std::string>& items) {
  for (const auto& item : items) {
    if (lower_text.find(item) != std::string_view::npos) return true;
  }
  return false;
}

KernelMasks KernelMasks::Defaults() {
  KernelMasks m;
  m.fa = {"flash_attention", "fusion_attention", "flashattn", "xformers_flash", "efficient_attention",
          "flash2attn"};
  m.conv = {"aten::conv"};
  m.matmul = {"aten::addmm", "aten::bmm", "aten::mm", "aten::matmul"};
  m.cube = {"gemm", "conv", "cutlass", "wgrad", "gemvx"};
  m.trans = {"cast", "transdata", "transpose"};
  m.mc2 = {"allgathermatmul", "matmulreducescatter", "matmulallreduce"};
  return m;
}

StatusOr<KernelMasks> ParseKernelMasks(std::string_view text, std::string_view file) {
  static constexpr std::string_view kKeys[] = {"FA_MASK",   "CONV_MASK",  "MATMUL_MASK",
                                               "CUBE_MASK", "TRANS_MASK", "MC2_KERNEL"};
  std::map<std::string, std::string> values;  // key (upper-case) -> value, section OP_MASK only
  std::map<std::string, std::string> device;  // section DEVICE_KERNELS
  bool has_section = false;
  bool in_section = false;
  bool in_device = false;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = Trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    auto where = [&] { return std::string(file) + ":" + std::to_string(line_no) + ": "; };
    if (line[0] == '[') {
      if (line.back() != ']') return ParseError(where() + "malformed section header '" + std::string(line) + "'");
      std::string_view name = Trim(line.substr(1, line.size() - 2));
      in_section = name == "OP_MASK";
      in_device = name == "DEVICE_KERNELS";
      has_section = has_section || in_section;
      continue;
    }
    size_t eq = line.find_first_of("=:");
    if (eq == std::string_view::npos) {
      return ParseError(where() + "expected 'KEY = value', got '" + std::string(line) + "'");
    }
    if (!in_section && !in_device) continue;
    std::string key(Trim(line.substr(0, eq)));
    for (char& c : key) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');  // INI keys are case-insensitive
    }
    if (in_device && key != "COMMUNICATION" && key != "STREAM_WORDS" && key != "GEMM") {
      return ParseError(where() + "unknown key '" + key +
                        "' in section [DEVICE_KERNELS] (COMMUNICATION, STREAM_WORDS or GEMM)");
    }
    (in_device ? device : values)[key] = std::string(Trim(line.substr(eq + 1)));
  }
  if (!has_section) return ParseError(std::string(file) + ": missing required section [OP_MASK]");
  for (auto key : kKeys) {
    if (values.find(std::string(key)) == values.end()) {
      return ParseError(std::string(file) + ": missing required key '" + std::string(key) +
                        "' in section [OP_MASK]");
    }
  }
  KernelMasks m;
  m.fa = SplitItems(values["FA_MASK"]);
  m.conv = SplitItems(values["CONV_MASK"]);
  m.matmul = SplitItems(values["MATMUL_MASK"]);
  m.cube = SplitItems(values["CUBE_MASK"]);
  m.trans = SplitItems(values["TRANS_MASK"]);
  m.mc2 = SplitItems(values["MC2_KERNEL"]);
  m.comm_kernels = SplitItems(device["COMMUNICATION"]);
  m.comm_words = SplitItems(device["STREAM_WORDS"]);
  m.gemm_kernels = SplitItems(device["GEMM"]);
  return m;
}

StatusOr<KernelMasks> LoadKernelMasks(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": cannot open kernel-mask config file");
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) return IoError(path + ": read error");
  return ParseKernelMasks(buf.str(), path);
}

}  // namespace profdiff::analysis
