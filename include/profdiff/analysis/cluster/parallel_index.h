// Each rank's data-, pipeline- and tensor-parallel index from the job's parallel sizes
// (profiler_metadata.json's distributed_args), as the reference's cluster analysis derives them for
// cluster_step_trace_time.csv's "DP Index", "PP Index", "TP Index" columns (ClusterStepTraceTime's
// dp_index, pp_index, tp_index): Megatron's rank layout. With world size W and tensor, pipeline and
// data-parallel sizes T, P, D (W = T·P·D), the ranks of pipeline stage s are s·W/P .. (s+1)·W/P − 1;
// the model replica d (the DP index) holds, stage after stage, the k-th data-parallel group's d-th
// rank, s·W/P + k + d·T·C for k < T·C (C the context-parallel size); the replica's ranks taken T at
// a time are its pipeline stages (PP index), and a rank's place in its T the TP index.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace profdiff::analysis {

using ParallelIndex = std::array<int64_t, 3>;  // DP, PP, TP

struct ParallelPartition {
  bool ok = false;
  std::string why_not;  // when !ok: why the sizes do not partition the ranks
  // Per rank id 0 .. world_size − 1: its indexes, nullopt for a rank the layout leaves out.
  std::vector<std::optional<ParallelIndex>> by_rank;
};

// The partition of `distributed_args_json` (a JSON object: world_size, tensor_model_parallel_size,
// pipeline_model_parallel_size, data_parallel_size, context_parallel_size,
// expert_model_parallel_size; a missing size is 1, a size of 0 counts as 1, as the reference). No
// partition (why_not says why) when a size is not an integer or negative, W ≠ T·P·D, D or D·C is
// not a multiple of the expert-parallel size, a data-parallel group is too short for D replicas
// (a context-parallel size above 1), or W is above 2^20.
ParallelPartition PartitionRanks(std::string_view distributed_args_json);

}  // namespace profdiff::analysis
