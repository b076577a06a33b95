// How far profdiff imitates the reference (msprof-analyze compare): one value, built once from the
// mode (exact, or --reference-compat[=LINE]) and the reference's release line, with one named field
// per behaviour that differs between profdiff's exact default and the reference. Analyses read these
// fields; nothing else in the analyses looks at the mode. Each field is one row of docs/deviations.md
// (the row's test proves the difference).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "profdiff/analysis/common/sequence_match.h"

namespace profdiff::analysis {

// The reference's release lines profdiff reproduces. 26.1 is the current line (Ascend/msprof-analyze
// 26.1.0); 8.2 the 2025 line (mstt 8.2.0).
enum class ReferenceLine : uint8_t { k8_2, k26_1 };
inline constexpr ReferenceLine kCurrentReferenceLine = ReferenceLine::k26_1;

std::string_view ReferenceLineName(ReferenceLine line);  // "8.2", "26.1"
// "26.1" / "8.2" (also "26.1.0", "8.2.0"); nullopt for anything else.
std::optional<ReferenceLine> ParseReferenceLine(std::string_view text);

struct ReferencePolicy {
  // For labelling results only ("mode" in the JSON result); analyses read the fields below.
  bool reference_compat = false;
  ReferenceLine line = kCurrentReferenceLine;

  // ---- Overall comparison -----------------------------------------------------------------------
  // GPU computing / uncovered communication counted on the integer-microsecond grid (deviation 1).
  bool gpu_integer_us_grid = false;
  // GPU E2E ignores kernels on stream 0 and kernels without a stream (deviation 2).
  bool gpu_e2e_ignores_stream0 = false;
  // The GPU compute stream (where copies count as SDMA time, and without which there is no overall
  // comparison) is chosen among non-zero streams only: a trace with every kernel on stream 0 (ROCm,
  // single-stream CUDA) has no compute stream (deviation 2).
  bool gpu_compute_stream_nonzero_only = false;
  // --base_step / --comparison_step on a GPU side is ignored with the reference's warning ("step id
  // is invalid in GPU data"). Default: the GPU side's overall comparison is restricted to that
  // ProfilerStep window (device events starting in it), as an Ascend DB side is to its STEP_TIME row.
  bool gpu_ignores_step_selection = false;
  // A GPU kernel is communication only when its lower-cased name starts with "nccl" (the reference).
  // Default: the device-kernel table (analysis/common/device_kernels.h): RCCL, MSCCL, NVSHMEM,
  // DeepEP, and collective-named kernels on a stream of communication alone count too.
  bool gpu_comm_is_nccl_prefix_only = false;
  // A GPU kernel is cube only when its name contains a CUBE_MASK item (the reference). Default: also
  // the table's GEMM libraries (AMD hipBLASLt/Tensile "Cijk_", rocBLAS).
  bool gpu_cube_is_mask_only = false;
  // NPU SDMA-stream time skips tasks on stream 0 (deviation 3).
  bool npu_sdma_ignores_stream0 = false;
  // A GPU kernel is linked to any flow ending at its start timestamp, whatever the track (deviation 4).
  bool gpu_flow_links_by_ts_only = false;
  // A flow that starts at timestamp 0 links nothing: the reference stores "no flow" as a flow start of
  // 0, so a kernel whose launching op starts at 0 is categorised without its CPU op (deviation 10).
  bool zero_flow_start_is_no_flow = false;
  // Communication wait/transmit and group overlap by the reference's single-cursor walk (deviation 5).
  bool single_cursor_overlap = false;
  // NPU communication: a group's uncovered communication is split into Wait (the Notify_Wait tasks,
  // not part of an RDMA transfer, of its plane with the least Notify_Wait time) and Transmit (the
  // rest), as the reference does (deviation 12). Default: the exact split of uncovered communication
  // into transmit (a data-moving task of any of the group's planes runs), wait (a Notify_Wait runs
  // and nothing transmits) and idle (neither); the rows show transmit and wait.
  bool comm_wait_least_wait_plane = false;
  // Ascend DB export, 8.2 line only: the reference merged the compute intervals, then compute and
  // communication ops, in place, so that a compute run starting a busy period took that period's
  // end; the not-overlapped communication a group's Wait and Transmit are measured against is cut
  // against these longer compute runs (msinsight DB rank 0: group 85.228 ms beside 98.072 ms of
  // uncovered communication). 26.1 and the default: the compute runs as merged.
  bool db_compute_runs_take_busy_ends = false;
  // Durations shown as the reference's float µs sums in its order of additions, not exact int64 sums
  // converted once (overall deviation 6, operator deviation 5).
  bool float_us_sums = false;
  // Diff and ratio columns as the reference rounds them: every diff round(comparison - base, 2)
  // (0.01 ms, or 0.01 µs for the µs columns), every ratio round(comparison / base, 4), and the
  // kernel and API comparisons' totals and averages round(x, 2) before their diffs and ratios
  // (deviation 19). Default: every diff, ratio and time field is computed from the exact sums and
  // never rounded (the screen and the HTML page print them with their own decimals).
  bool rounded_diffs_and_ratios = false;
  // Screen table: base wait "( / )" when 0, Python's "{: .3f}" leading space (deviation 7).
  bool screen_quirks = false;
  // Op types containing "fusedinferattention" count as flash attention (26.1 rule for text input;
  // profdiff's default applies it to every input).
  bool fused_infer_attention_is_fa = true;

  // ---- Operator and module comparison -----------------------------------------------------------
  // Kernels attached to every torch op starting at the flow start's timestamp (operator deviation 2).
  bool attach_kernels_by_start_ts = false;
  // NPU HCCL ops attachable only when the overall or communication comparison also runs
  // (operator deviation 3).
  bool hccl_ops_attach_only_with_comm = false;
  // Old Kineto "Memcpy" events (category "Memcpy") are not kernels (operator deviation 4).
  bool old_memcpy_not_kernel = false;
  // Sequence matching of operators and modules (deviation 9, operator deviation 1).
  MatchAlgorithm matching = MatchAlgorithm::kLcs;
  // Which side's unmatched items come first between two matched pairs: comparison-only items first
  // on the 8.2 line (its recurrence's backtrack), base-only first on the 26.1 line (difflib's
  // opcodes) and in profdiff's default, which reads in the current reference's order (operator
  // deviation 1).
  GapOrder gap_order = GapOrder::kBaseFirst;

  // ---- Kernel comparison ------------------------------------------------------------------------
  // KernelCompare keys are the op type immediately followed by the input shapes, without a
  // separator, so ("A", "B1") and ("AB", "1") are one row holding the first pair's type, shape and
  // values (kernel deviation 1). Default: the key is the (type, shapes) pair.
  bool kernel_keys_concatenated = false;
  // The kernel comparison reads only the Ascend side tables (kernel_details.csv, op_statistic.csv):
  // a GPU side gives no rows, so a GPU vs GPU or GPU vs NPU pair has no kernel sheet (the reference:
  // "kernel compare only supports NPU data against NPU data"; kernel deviation 6). Default: a GPU
  // side's device kernels are grouped by kernel name and launching op's input shapes
  // (KernelCompare), and with --use_kernel_type, or when one side is a GPU and the other an NPU,
  // both sides by the overall comparison's kernel categories (KernelTypeCompare).
  bool kernel_compare_npu_only = false;

  // ---- Memory comparison ------------------------------------------------------------------------
  // A GPU [memory] free whose size differs from the open allocation at that address closes the
  // address without emitting the allocation, so the record vanishes (memory deviation 1).
  // Default: the allocation is emitted, released at the free's timestamp.
  bool memory_drops_mismatched_free = false;
  // NPU operator_memory.csv: a "cann::" row whose allocation time lies in no dequeue event is
  // dropped, and one whose dequeue has no enqueue is placed at time 0 (under the root, never shown)
  // (memory deviation 2). Default: such a row is placed at its own allocation time.
  bool memory_drops_unqueued_cann_rows = false;
  // GPU memory record times are the trace's µs as binary doubles: the Allocated Details print their
  // exact value ("88437691101.718994140625") and a duration is the difference of the two doubles
  // (memory deviation 3). Default: the µs as written (the exact decimal of the int64 ns), exact durations.
  bool memory_gpu_times_as_floats = false;
  // A memory record allocated at time 0 has duration 0: the reference tests the time for truth
  // (memory deviation 4). Default: release − allocation.
  bool memory_zero_allocation_no_duration = false;
  // Ascend DB export, 8.2 line only: OP_MEMORY.size is in bytes and used as KB (sizes 1024 times
  // those of the text export, printed as integers; memory deviation 6). 26.1 divides by 1024.
  // Default: KB = bytes / 1024.
  bool memory_db_bytes_as_kb = false;
  // Ascend DB export: a record's times are its ns / 1000 as binary doubles, printed as Python prints
  // a float ("1736410576404541.2", an absent release "0.0"), and its duration is the difference of
  // the two doubles (35.0 rather than 35.03; memory deviation 7). Default: the µs of the int64 ns.
  bool memory_db_times_as_floats = false;
  // Ascend DB export with a step: the records are read by the reference's step query
  // (releaseTime >= step start AND allocationTime <= step end), so an allocation never released
  // (NULL releaseTime) in the step is dropped (memory deviation 8). Default: it counts.
  bool memory_db_step_drops_unreleased = false;
  // Ascend DB export: an op without input shapes (NULL PYTORCH_API.inputShapes) shows Input Shape
  // "None", Python's text of the NULL (memory deviation 9). Default: "N/A", as for the text export.
  bool memory_db_null_shape_none = false;
  // Ascend DB export: a "cann::" OP_MEMORY row is placed by one cursor that walks the queue pairs
  // (per connectionId the last Enqueue and Dequeue rows, sorted by the dequeue's start) forward
  // while the rows come in release order: a row allocated before the current pair's dequeue starts
  // is dropped, and a pair passed for one row is never seen again (memory deviation 10). Default:
  // the dequeue holding the allocation, found for each row, as for the text export.
  bool memory_db_cann_rows_forward_cursor = false;
  // Ascend DB export: a record never carries the OP_MEMORY row's own name, so a "cann::" allocation
  // shows its op's name (memory deviation 11). Default: its own name, as for the text export.
  bool memory_db_records_unnamed = false;
  // Ascend DB export, 8.2 line only: among the queue rows only one named exactly "Enqueue" is an
  // enqueue and every other one a dequeue (memory deviation 12). 26.1 and the default tell them by
  // the Enqueue / Dequeue prefix and leave other queue rows out.
  bool memory_db_queue_enqueue_exact_name = false;
  // ---- Communication comparison -----------------------------------------------------------------
  // NPU text: one forward cursor over all HCCL tasks (every group's planes, sorted by start) gives
  // each op (all groups, sorted by start) the tasks starting within it, so concurrent ops of different
  // groups take each other's tasks (communication deviation 1). Default: an op takes the tasks of its
  // own group's planes that start within it.
  bool comm_tasks_single_cursor = false;
  // A base task row is paired with the first remaining comparison task of the op, whatever its name
  // (communication deviation 2). Default: task rows are paired by task name.
  bool comm_tasks_paired_by_order = false;
  // ---- Outputs ----------------------------------------------------------------------------------
  // The JSON result's overall_metrics[].label keeps the reference's leading tab characters
  // ("\t\tTransmit"). Default: the label without them (its depth is the `indent` field; the tidy
  // CSV, a default-mode output, likewise has an `indent` column); the workbook and the screen keep
  // the reference's text in both modes.
  bool overall_labels_keep_tabs = false;
  // The workbook's Diff Ratio of a row whose base is 0 is the text "INF" (the reference). Default:
  // the largest finite number (1.7976931348623157E308), so a number filter ("> 1") keeps the new
  // operators and rows sort by ratio.
  bool workbook_ratio_inf_text = false;
  // `--csv DIR` writes each sheet's grid as the workbook holds it (the layout of the oracle CSVs: the
  // banner row, an empty row, the reference's headers, repeated names, cells cut at Excel's limit).
  // Default: a tidy table (one header row of unique snake_case names carrying side and unit, exact
  // numbers, uncut text).
  bool csv_workbook_grid = false;
  // `--csv`'s text cells are written as they are, a name beginning with =, +, - or @ (also after
  // tabs or carriage returns) included (the reference). Default: such a cell gets a leading single
  // quote (OWASP's advice on CSV injection), so a spreadsheet opening the CSV never runs it.
  bool csv_formula_text_bare = false;
  // The workbook's columns keep the reference's widths (a 30-character name column cuts
  // "autograd::engine::evaluate_function: C"). Default: a text column is widened to its longest
  // line (up to 80 characters); never narrower than the reference's.
  bool workbook_reference_widths = false;
  // The workbook's banners stay on one line, cut at the edge of their merged columns (a long path's
  // end, where "rank0" and "rank1" differ, is hidden). Default: a banner longer than its columns
  // wraps there and row 1 is made tall enough for the whole text.
  bool workbook_one_line_banners = false;
  // A comparison that ran and has no rows writes no sheet, and nothing in the workbook says why (a
  // MindSpore profile has no torch ops: no operator, memory or API sheet). Default: an
  // "EmptyComparisons" sheet at the end lists each such comparison, its sheets and the reason.
  bool workbook_silent_on_empty_comparisons = false;
  // The operator comparison keeps an unmatched wrapper (an op with children and no kernel of its own:
  // "autograd::engine::evaluate_function: X", a record_function around the forward pass) as one
  // unmatched row. Default: the pairing drills into unmatched wrappers on either side and matches
  // their children (DrillUnmatchedWrappers), losing no device time.
  bool keep_unmatched_wrappers = false;
  // Ascend DB export: the reference reads PYTORCH_API joined with CONNECTION_IDS, one row per
  // connection id, so a torch op that launched through k connection ids is k nested copies of
  // itself in the operator tree, each holding the kernels of its own id: its calls count k times in
  // the API sheet and its children sit k levels down (operator deviation 8). Default: one node per
  // op, holding every kernel it launched.
  bool db_api_row_per_connection_id = false;
  // Ascend DB export, module comparison: the reference keys the kernels by their op's start time,
  // one (PYTORCH_API row, connection id) after the other, so where an op launched through several
  // connection ids only the last id's kernels reach the modules (the Conv2d_0 module of the msinsight
  // DB shows trans_TransData_2 alone, not its Conv2D; operator deviation 9). Default: every kernel an
  // op launched, grouped at the op's start.
  bool db_module_kernels_of_last_connection = false;
  // Ascend DB export: a kernel line of the Kernel Details cells names the task by its
  // COMPUTE_TASK_INFO.globalTaskId, the DB's row key ("trans_TransData_2, 6, AI_VECTOR_CORE"; operator
  // deviation 10). Default: the device's task id (TASK.taskId, 11066 there), the Task ID the text
  // export's kernel_details.csv shows for the same task.
  bool db_kernel_lines_global_task_id = false;
  // Ascend DB export with a step: the reference's module comparison reads only the PYTORCH_API rows
  // and tasks starting inside the step's STEP_TIME window, so a module's call stack loses the frames
  // that began before the step ("nn.Module: DistributedDataParallel_0" instead of the
  // "<string>(1): <module>; multiprocessing/spawn.py..." chain; operator deviation 11). Default: the
  // whole capture, as for a text export (the reference's text path ignores the step there too).
  bool db_step_query_for_modules = false;
  // The screen table and the OverallMetrics banners are the reference's, with nothing added.
  // Default: a line under the screen table and each banner say how many ProfilerStep windows each
  // side covers ("6 steps (ProfilerStep#5..#10)").
  bool overall_hides_step_coverage = false;
  // A side with no device event (an Ascend DB export without TASK rows, a trace without kernels) is
  // measured from what it has (its communication ops), as the reference does. Default: its overall
  // comparison is unknown (no end-to-end time, null in the JSON result), not a computing time of 0.
  bool measure_side_without_device_events = false;
  // --base_step / --comparison_step restrict the operator, API and memory comparisons of an NPU side
  // only, and the module comparison of an Ascend DB side only (db_step_query_for_modules), as the
  // reference does. Default: every comparison of every side reads the selected step (its host
  // ProfilerStep window for operators, modules and memory records; the kernels those launched).
  bool step_selection_npu_sides_only = false;

  // ---- Cluster (`profdiff cluster`) -------------------------------------------------------------
  // cluster_step_trace_time.csv: each value is Python's repr of float(cell) of the rank's
  // step_trace_time.csv ("8873.756000000001", "0.0"), as the reference writes it back (cluster
  // deviation 1). Default: the exact µs decimal of the value's ns ("8873.756", "0").
  bool cluster_step_values_as_python_floats = false;
  // cluster_time_summary.csv / cluster_time_compare_summary.csv: the reference's float arithmetic
  // in µs (its pandas sums, Kahan-compensated, its divisions by 1000) and Python's repr of the
  // result (cluster deviation 3). Default: exact ns arithmetic, written as exact µs decimals.
  bool cluster_time_values_as_python_floats = false;
  // The slow-rank vote (analysis/cluster/slow_rank_vote.h) as the reference's slow_rank recipe: ops
  // grouped by (group, op name), only names with "send" / "receive" left out, float µs arithmetic and
  // its numpy / pandas / bottleneck statistics, written as it writes them (cluster deviation 4).
  // Default: ops matched by their position in the group, every point-to-point op left out, exact
  // integer tests and ns statistics.
  bool slow_rank_vote_as_reference = false;
  // cluster_analysis.db's communication tables (ClusterCommunicationTime, -Bandwidth, -Matrix): their
  // sums and roundings in the reference's float arithmetic: pandas' Kahan-compensated groupby sums in
  // its row order, numpy's pairwise DataFrame.sum, numpy's round(x, 4) (x * 1e4 rounded to an integer,
  // divided back) (cluster deviation 5). Default: each sum the double nearest the exact sum of its
  // values (whatever their order), each rounding correctly rounded (Python's round()).
  bool cluster_db_float_sums = false;
  // CommunicationGroupMapping of a run of DB exports: a group that the META_DATA parallel_group_info
  // lists with no global rank gets the rank set "()", and the stage rows are then left out (the
  // reference fails to read its own "()"; cluster deviation 6). Default: the ranks whose
  // CommAnalyzerTime names the group.
  bool cluster_db_empty_global_ranks = false;
  // ClusterCommunicationMatrix, 8.2 line: the operators' links in sorted order (rank set, step,
  // operator, group, local source and destination rank as text) and the "Total Op Info" links
  // sorted by (group, step, source, destination), summed in that order. The 26.1 line and the
  // default: both in order of first appearance (ranks ascending, each rank's table order).
  bool cluster_matrix_rows_sorted = false;
};

// The exact default (every field at profdiff's own behaviour).
ReferencePolicy ExactPolicy();
// --reference-compat=LINE: every field at the reference's behaviour on that release line.
ReferencePolicy ReferenceCompatPolicy(ReferenceLine line);
// The one place a policy is made from the command line's choice: nullopt = exact.
ReferencePolicy MakeReferencePolicy(std::optional<ReferenceLine> compat_line);

// "exact" or "reference-compat" (the JSON result's "mode"; the line is reported beside it).
std::string_view PolicyModeName(const ReferencePolicy& policy);

}  // namespace profdiff::analysis
