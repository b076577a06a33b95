// One ReferencePolicy per run, built in one place from the mode and the reference's release line.
#include "profdiff/analysis/common/reference_policy.h"

#include <gtest/gtest.h>

#include "profdiff/analysis/common/dual_sum.h"

namespace profdiff::analysis {
namespace {

TEST(ReferencePolicy, ExactDefaultHasNoReferenceBehaviour) {
  ReferencePolicy p = MakeReferencePolicy(std::nullopt);
  EXPECT_FALSE(p.reference_compat);
  EXPECT_FALSE(p.gpu_integer_us_grid || p.gpu_e2e_ignores_stream0 || p.gpu_compute_stream_nonzero_only ||
               p.gpu_ignores_step_selection || p.gpu_comm_is_nccl_prefix_only || p.gpu_cube_is_mask_only ||
               p.npu_sdma_ignores_stream0 ||
               p.gpu_flow_links_by_ts_only || p.zero_flow_start_is_no_flow ||
               p.single_cursor_overlap || p.comm_wait_least_wait_plane || p.float_us_sums || p.screen_quirks ||
               p.attach_kernels_by_start_ts || p.hccl_ops_attach_only_with_comm || p.old_memcpy_not_kernel ||
               p.kernel_keys_concatenated || p.memory_drops_mismatched_free ||
               p.memory_drops_unqueued_cann_rows || p.memory_gpu_times_as_floats ||
               p.memory_zero_allocation_no_duration ||
               p.comm_tasks_single_cursor || p.comm_tasks_paired_by_order || p.csv_workbook_grid ||
               p.overall_hides_step_coverage || p.workbook_reference_widths ||
               p.measure_side_without_device_events || p.step_selection_npu_sides_only);
  EXPECT_FALSE(p.cluster_step_values_as_python_floats);
  EXPECT_FALSE(p.cluster_db_float_sums || p.cluster_db_empty_global_ranks || p.cluster_matrix_rows_sorted);
  EXPECT_FALSE(p.workbook_one_line_banners);
  EXPECT_FALSE(p.workbook_silent_on_empty_comparisons);
  EXPECT_FALSE(p.keep_unmatched_wrappers);
  EXPECT_FALSE(p.kernel_compare_npu_only);  // GPU sides have a kernel comparison
  EXPECT_FALSE(p.db_api_row_per_connection_id || p.db_module_kernels_of_last_connection ||
               p.db_kernel_lines_global_task_id || p.db_step_query_for_modules);
  EXPECT_FALSE(p.db_compute_runs_take_busy_ends);
  EXPECT_FALSE(p.memory_db_bytes_as_kb || p.memory_db_times_as_floats || p.memory_db_step_drops_unreleased ||
               p.memory_db_null_shape_none || p.memory_db_cann_rows_forward_cursor || p.memory_db_records_unnamed ||
               p.memory_db_queue_enqueue_exact_name);
  EXPECT_TRUE(p.fused_infer_attention_is_fa);
  EXPECT_EQ(p.matching, MatchAlgorithm::kLcs);
  EXPECT_EQ(p.gap_order, GapOrder::kBaseFirst);  // the current reference's reading order
  EXPECT_EQ(PolicyModeName(p), "exact");
}

TEST(ReferencePolicy, LinesDifferWhere26Point1Changed) {
  ReferencePolicy old_line = MakeReferencePolicy(ReferenceLine::k8_2);
  ReferencePolicy current = MakeReferencePolicy(kCurrentReferenceLine);
  EXPECT_TRUE(old_line.reference_compat && current.reference_compat);
  EXPECT_EQ(current.line, ReferenceLine::k26_1);
  EXPECT_FALSE(old_line.fused_infer_attention_is_fa);
  EXPECT_TRUE(current.fused_infer_attention_is_fa);
  EXPECT_TRUE(old_line.memory_db_bytes_as_kb);  // 26.1 divides OP_MEMORY.size by 1024
  EXPECT_FALSE(current.memory_db_bytes_as_kb);
  EXPECT_TRUE(old_line.memory_db_queue_enqueue_exact_name);
  EXPECT_FALSE(current.memory_db_queue_enqueue_exact_name);
  EXPECT_TRUE(old_line.db_compute_runs_take_busy_ends);
  EXPECT_FALSE(current.db_compute_runs_take_busy_ends);
  EXPECT_TRUE(old_line.cluster_matrix_rows_sorted);  // 26.1 keeps the order of first appearance
  EXPECT_FALSE(current.cluster_matrix_rows_sorted);
  EXPECT_TRUE(old_line.float_us_sums && current.float_us_sums);
  EXPECT_EQ(old_line.matching, MatchAlgorithm::kReferenceCompat);  // the 8.2 recurrence
  EXPECT_EQ(current.matching, MatchAlgorithm::kSequenceMatcher);   // difflib's matching blocks
  EXPECT_EQ(old_line.gap_order, GapOrder::kComparisonFirst);
  EXPECT_EQ(current.gap_order, GapOrder::kBaseFirst);
  for (const ReferencePolicy& p : {old_line, current}) {  // every other field: the reference on both lines
    EXPECT_TRUE(p.gpu_integer_us_grid && p.gpu_e2e_ignores_stream0 && p.gpu_compute_stream_nonzero_only &&
                p.gpu_ignores_step_selection && p.gpu_comm_is_nccl_prefix_only && p.gpu_cube_is_mask_only &&
                p.npu_sdma_ignores_stream0 &&
                p.gpu_flow_links_by_ts_only && p.zero_flow_start_is_no_flow && p.single_cursor_overlap &&
                p.comm_wait_least_wait_plane &&
                p.float_us_sums && p.screen_quirks && p.attach_kernels_by_start_ts &&
                p.hccl_ops_attach_only_with_comm && p.old_memcpy_not_kernel && p.kernel_keys_concatenated &&
                p.memory_drops_mismatched_free && p.memory_drops_unqueued_cann_rows &&
                p.memory_gpu_times_as_floats && p.memory_zero_allocation_no_duration &&
                p.comm_tasks_single_cursor && p.comm_tasks_paired_by_order && p.csv_workbook_grid &&
                p.overall_hides_step_coverage && p.workbook_reference_widths &&
                p.measure_side_without_device_events && p.step_selection_npu_sides_only);
    EXPECT_TRUE(p.cluster_step_values_as_python_floats);
    EXPECT_TRUE(p.cluster_db_float_sums && p.cluster_db_empty_global_ranks);
    EXPECT_TRUE(p.workbook_one_line_banners);
    EXPECT_TRUE(p.workbook_silent_on_empty_comparisons);
    EXPECT_TRUE(p.keep_unmatched_wrappers);
    EXPECT_TRUE(p.kernel_compare_npu_only);  // "kernel compare only supports NPU data against NPU data"
    EXPECT_TRUE(p.db_api_row_per_connection_id && p.db_module_kernels_of_last_connection &&
                p.db_kernel_lines_global_task_id && p.db_step_query_for_modules);
    EXPECT_TRUE(p.memory_db_times_as_floats && p.memory_db_step_drops_unreleased && p.memory_db_null_shape_none &&
                p.memory_db_cann_rows_forward_cursor && p.memory_db_records_unnamed);
  }
  EXPECT_EQ(PolicyModeName(current), "reference-compat");
}

TEST(ReferencePolicy, ParsesLineNames) {
  EXPECT_EQ(ParseReferenceLine("26.1"), ReferenceLine::k26_1);
  EXPECT_EQ(ParseReferenceLine("26.1.0"), ReferenceLine::k26_1);
  EXPECT_EQ(ParseReferenceLine("8.2"), ReferenceLine::k8_2);
  EXPECT_EQ(ParseReferenceLine("8.1"), std::nullopt);
  EXPECT_EQ(ParseReferenceLine(""), std::nullopt);
  EXPECT_EQ(ReferenceLineName(ReferenceLine::k8_2), "8.2");
}

TEST(DualSum, ExactAndReferenceFloatSumsTogether) {
  // 0.1 µs + 0.2 µs: the float sum is 0.30000000000000004 µs, the exact one 300 ns.
  DualSum s;
  s.AddNs(100);
  s.AddNs(200);
  EXPECT_EQ(s.e5, 300 * kE5PerNs);
  EXPECT_EQ(s.count, 2);
  EXPECT_EQ(s.Ns(), 300);
  EXPECT_EQ(s.Us(ExactPolicy()), 0.3);
  EXPECT_EQ(s.Us(ReferenceCompatPolicy(ReferenceLine::k26_1)), 0.1 + 0.2);
  EXPECT_NE(s.Us(ReferenceCompatPolicy(ReferenceLine::k26_1)), 0.3);
  // Sub-ns digits (Ascend "53.84109375" µs) are kept exactly.
  DualSum k;
  k.AddE5(5384109375);
  EXPECT_EQ(k.Us(ExactPolicy()), 53.84109375);
  EXPECT_EQ(k.Ns(), 53841);
  DualSum t;
  t += s;
  t += k;
  EXPECT_EQ(t.count, 3);
  EXPECT_EQ(t.e5, 300 * kE5PerNs + 5384109375);
}

TEST(DualSum, AddUsSumAsMsConvertsTheFinishedSumOnce) {
  // 0.1 µs + 0.3 µs: per duration 0.1/1000 + 0.3/1000 = 0.00039999999999999996 ms; the µs sum
  // converted once, (0.1 + 0.3) / 1000 = 0.0004 ms (the reference's module statistics).
  DualSum part;
  part.AddNs(100);
  part.AddNs(300);
  const ReferencePolicy compat = ReferenceCompatPolicy(ReferenceLine::k26_1);
  DualSum per_duration, converted_once;
  per_duration += part;
  converted_once.AddUsSumAsMs(part);
  EXPECT_EQ(per_duration.Ms(compat), 0.1 / 1000 + 0.3 / 1000);
  EXPECT_EQ(converted_once.Ms(compat), (0.1 + 0.3) / 1000);
  EXPECT_NE(per_duration.Ms(compat), converted_once.Ms(compat));
  EXPECT_EQ(converted_once.Us(compat), part.Us(compat));
  EXPECT_EQ(converted_once.e5, part.e5);
  EXPECT_EQ(converted_once.count, 2);
  EXPECT_EQ(converted_once.Ms(ExactPolicy()), 0.0004);
}

TEST(DualSum, ExactNsWithTheReferenceDigits) {
  // An Ascend duration of 53.84109375 µs: the exact side counts the loader's 53841 ns, the reference
  // float sum every digit.
  DualSum s;
  s.AddNsRefE5(53841, 5384109375);
  EXPECT_EQ(s.Ns(), 53841);
  EXPECT_EQ(s.Us(ExactPolicy()), 53.841);
  EXPECT_EQ(s.Us(ReferenceCompatPolicy(ReferenceLine::k8_2)), 53.84109375);
}

TEST(DualSum, ExactNsWithAReferenceUsValue) {
  // A GPU memory duration from 88437691101.719 to 88437691101.938 µs: 219 ns exactly, the
  // difference of the two floats for the reference.
  DualSum s;
  s.AddNsRefUs(219, 88437691101.938 - 88437691101.719);
  EXPECT_EQ(s.Ns(), 219);
  EXPECT_EQ(s.Us(ExactPolicy()), 0.219);
  EXPECT_EQ(s.Us(ReferenceCompatPolicy(ReferenceLine::k8_2)), 0.2190093994140625);
  EXPECT_EQ(s.Ms(ReferenceCompatPolicy(ReferenceLine::k8_2)), 0.2190093994140625 / 1000);
}

TEST(DualSum, TheReferenceConversionsToMsAndSeconds) {
  const ReferencePolicy exact = ExactPolicy();
  const ReferencePolicy ref = ReferenceCompatPolicy(ReferenceLine::k8_2);
  DualSum s;
  for (int64_t ns : {8873756, 1}) s.AddNs(ns);  // 8873.756 µs + 0.001 µs
  EXPECT_EQ(s.MsFromUsSum(ref), s.ref_us / 1e3);
  EXPECT_EQ(s.MsThroughSeconds(ref), s.ref_us / 1e6 * 1e3);
  EXPECT_EQ(s.Seconds(ref), s.ref_us / 1e6);
  EXPECT_EQ(s.MsFromUsSum(exact), 8.873757);
  EXPECT_EQ(s.MsThroughSeconds(exact), 8.873757);
  EXPECT_EQ(s.Seconds(exact), 0.008873757);
  // µs -> s -> ms can land on another double than µs -> ms: 123.456 µs.
  DualSum t;
  t.AddNs(123456);
  EXPECT_EQ(t.MsFromUsSum(ref), 0.123456);
  EXPECT_EQ(t.MsThroughSeconds(ref), 0.12345600000000001);
  EXPECT_EQ(t.MsThroughSeconds(exact), 0.123456);
}

TEST(DualSum, DifferencesKeepTheReferenceOrder) {
  DualSum e2e, compute, comm;
  e2e.AddNs(1000);
  compute.AddNs(100);
  comm.AddNs(200);
  DualSum free_time = e2e;
  free_time -= compute;
  free_time -= comm;
  EXPECT_EQ(free_time.Ns(), 700);
  EXPECT_EQ(free_time.ref_us, (1.0 - 0.1) - 0.2);
}

}  // namespace
}  // namespace profdiff::analysis
