#include "profdiff/analysis/common/reference_policy.h"

namespace profdiff::analysis {

std::string_view ReferenceLineName(ReferenceLine line) {
  switch (line) {
    case ReferenceLine::k8_2: return "8.2";
    case ReferenceLine::k26_1: return "26.1";
  }
  return "?";
}

std::optional<ReferenceLine> ParseReferenceLine(std::string_view text) {
  if (text == "26.1" || text == "26.1.0") return ReferenceLine::k26_1;
  if (text == "8.2" || text == "8.2.0") return ReferenceLine::k8_2;
  return std::nullopt;
}

ReferencePolicy ExactPolicy() { return ReferencePolicy{}; }

ReferencePolicy ReferenceCompatPolicy(ReferenceLine line) {
  ReferencePolicy p;
  p.reference_compat = true;
  p.line = line;
  p.gpu_integer_us_grid = true;
  p.gpu_e2e_ignores_stream0 = true;
  p.gpu_compute_stream_nonzero_only = true;
  p.gpu_ignores_step_selection = true;
  p.gpu_comm_is_nccl_prefix_only = true;
  p.gpu_cube_is_mask_only = true;
  p.npu_sdma_ignores_stream0 = true;
  p.gpu_flow_links_by_ts_only = true;
  p.zero_flow_start_is_no_flow = true;
  p.single_cursor_overlap = true;
  p.comm_wait_least_wait_plane = true;
  p.float_us_sums = true;
  p.rounded_diffs_and_ratios = true;
  p.overall_labels_keep_tabs = true;
  p.workbook_ratio_inf_text = true;
  p.screen_quirks = true;
  p.attach_kernels_by_start_ts = true;
  p.hccl_ops_attach_only_with_comm = true;
  p.old_memcpy_not_kernel = true;
  p.kernel_keys_concatenated = true;
  p.kernel_compare_npu_only = true;
  p.memory_drops_mismatched_free = true;
  p.memory_drops_unqueued_cann_rows = true;
  p.memory_gpu_times_as_floats = true;
  p.memory_zero_allocation_no_duration = true;
  p.memory_db_times_as_floats = true;
  p.memory_db_step_drops_unreleased = true;
  p.memory_db_null_shape_none = true;
  p.memory_db_cann_rows_forward_cursor = true;
  p.memory_db_records_unnamed = true;
  p.comm_tasks_single_cursor = true;
  p.comm_tasks_paired_by_order = true;
  p.csv_workbook_grid = true;
  p.csv_formula_text_bare = true;
  p.workbook_reference_widths = true;
  p.workbook_one_line_banners = true;
  p.workbook_silent_on_empty_comparisons = true;
  p.keep_unmatched_wrappers = true;
  p.db_api_row_per_connection_id = true;
  p.db_module_kernels_of_last_connection = true;
  p.db_kernel_lines_global_task_id = true;
  p.db_step_query_for_modules = true;
  p.overall_hides_step_coverage = true;
  p.measure_side_without_device_events = true;
  p.step_selection_npu_sides_only = true;
  p.cluster_step_values_as_python_floats = true;
  p.cluster_time_values_as_python_floats = true;
  p.slow_rank_vote_as_reference = true;
  p.cluster_db_float_sums = true;
  p.cluster_db_empty_global_ranks = true;
  switch (line) {
    case ReferenceLine::k8_2:
      p.cluster_matrix_rows_sorted = true;  // 26.1 keeps the order of first appearance
      p.fused_infer_attention_is_fa = false;
      p.memory_db_bytes_as_kb = true;  // 26.1 divides OP_MEMORY.size by 1024
      p.memory_db_queue_enqueue_exact_name = true;  // 26.1 tells queue rows by their name prefix
      p.db_compute_runs_take_busy_ends = true;      // 26.1 merges copies
      p.matching = MatchAlgorithm::kReferenceCompat;
      p.gap_order = GapOrder::kComparisonFirst;
      break;
    case ReferenceLine::k26_1:
      p.fused_infer_attention_is_fa = true;  // text input; the DB path keeps the old rule
      p.matching = MatchAlgorithm::kSequenceMatcher;
      p.gap_order = GapOrder::kBaseFirst;
      break;
  }
  return p;
}

ReferencePolicy MakeReferencePolicy(std::optional<ReferenceLine> compat_line) {
  return compat_line ? ReferenceCompatPolicy(*compat_line) : ExactPolicy();
}

std::string_view PolicyModeName(const ReferencePolicy& policy) {
  return policy.reference_compat ? "reference-compat" : "exact";
}

}  // namespace profdiff::analysis
