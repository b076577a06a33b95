// PartitionRanks (parallel_index.h).
#include "profdiff/analysis/cluster/parallel_index.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace profdiff::analysis {
namespace {

constexpr int64_t kMaxWorld = int64_t{1} << 20;

struct Sizes {
  int64_t world = 1, tp = 1, pp = 1, dp = 1, cp = 1, ep = 1;
};

// One size: absent 1; 0 counts as 1; an integer (a JSON bool is Python's int) else an error.
bool ReadSize(const nlohmann::json& args, const char* key, bool zero_is_one, int64_t& out, std::string& why) {
  auto it = args.find(key);
  if (it == args.end()) return true;
  if (it->is_boolean()) {
    out = it->get<bool>() ? 1 : 0;
  } else if (it->is_number_integer()) {
    out = it->get<int64_t>();
  } else {
    why = fmt::format("{} is not an integer ({})", key, it->dump());
    return false;
  }
  if (out < 0) {
    why = fmt::format("{} is negative ({})", key, out);
    return false;
  }
  if (out == 0 && zero_is_one) out = 1;
  return true;
}

bool ReadSizes(std::string_view text, Sizes& s, std::string& why) {
  const nlohmann::json args = nlohmann::json::parse(text, nullptr, false);
  if (args.is_discarded() || !args.is_object()) {
    why = "distributed_args is not a JSON object";
    return false;
  }
  return ReadSize(args, "world_size", false, s.world, why) && ReadSize(args, "tensor_model_parallel_size", true, s.tp, why) &&
         ReadSize(args, "pipeline_model_parallel_size", true, s.pp, why) &&
         ReadSize(args, "data_parallel_size", true, s.dp, why) &&
         ReadSize(args, "context_parallel_size", false, s.cp, why) &&
         ReadSize(args, "expert_model_parallel_size", true, s.ep, why);
}

std::string CheckSizes(const Sizes& s) {
  if (s.world > kMaxWorld) return fmt::format("world_size {} is above {}", s.world, kMaxWorld);
  if (s.dp % s.ep != 0) return fmt::format("data_parallel_size {} is not a multiple of expert_model_parallel_size {}", s.dp, s.ep);
  if ((s.dp * s.cp) % s.ep != 0)
    return fmt::format("data_parallel_size × context_parallel_size {} is not a multiple of expert_model_parallel_size {}",
                       s.dp * s.cp, s.ep);
  if (s.world != s.tp * s.pp * s.dp)
    return fmt::format("world_size {} is not tensor × pipeline × data parallel size ({} × {} × {})", s.world, s.tp, s.pp,
                       s.dp);
  if (s.cp == 0) return "context_parallel_size is 0";
  return "";
}

}  // namespace

ParallelPartition PartitionRanks(std::string_view distributed_args_json) {
  ParallelPartition out;
  Sizes s;
  if (!ReadSizes(distributed_args_json, s, out.why_not)) return out;
  out.why_not = CheckSizes(s);
  if (!out.why_not.empty()) return out;
  // The data-parallel groups, stage after stage: group (stage, k) holds ranks stage·W/P + k, + T·C, ...
  // below (stage + 1)·W/P. Replica d takes the d-th rank of each group, in that order.
  const int64_t per_stage = s.world / s.pp, stride = s.tp * s.cp;
  out.by_rank.assign(static_cast<size_t>(s.world), std::nullopt);
  for (int64_t d = 0; d < s.dp; ++d) {
    std::vector<int64_t> replica;
    for (int64_t stage = 0; stage < s.pp; ++stage) {
      for (int64_t k = 0; k < stride; ++k) {
        const int64_t rank = stage * per_stage + k + d * stride;
        if (k >= per_stage || rank >= (stage + 1) * per_stage) {
          out.by_rank.clear();
          out.why_not = fmt::format("a data-parallel group holds fewer than data_parallel_size {} ranks "
                                    "(context_parallel_size {})",
                                    s.dp, s.cp);
          return out;
        }
        replica.push_back(rank);
      }
    }
    for (size_t j = 0; j < replica.size(); ++j) {
      const auto tp = static_cast<int64_t>(j) % s.tp, pp = static_cast<int64_t>(j) / s.tp;
      out.by_rank[static_cast<size_t>(replica[j])] = ParallelIndex{d, pp, tp};
    }
  }
  out.ok = true;
  return out;
}

}  // namespace profdiff::analysis
