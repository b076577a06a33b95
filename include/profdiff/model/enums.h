// Enumerations of the timeline model with name tables checked at compile time (the Kineto idea):
// adding an enumerator without a name fails the build.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace profdiff {

#define PD_DEVICE_KINDS(X) X(kUnknown, "unknown") X(kGpu, "GPU") X(kNpu, "NPU")

#define PD_SOURCE_FORMATS(X)                                  \
  X(kUnknown, "unknown")                                      \
  X(kKinetoJson, "kineto-json")                               \
  X(kAscendTraceView, "ascend-trace-view")                    \
  X(kAscendProfileDir, "ascend-profile-dir")                  \
  X(kAscendOutputDir, "ascend-profiler-output-dir")           \
  X(kAscendDb, "ascend-db")                                   \
  X(kAscendSideFiles, "ascend-side-files") /* inspect only: side files without a trace */

// What a slice is. Derived from the event category (and, for Ascend, the process it lives in).
#define PD_SLICE_KINDS(X)                                                     \
  X(kOther, "other")                                                          \
  X(kCpuOp, "cpu_op")                     /* cpu_op, old "Operator" */        \
  X(kUserAnnotation, "user_annotation")   /* record_function ranges */        \
  X(kStepMarker, "step_marker")           /* ProfilerStep#N */                \
  X(kPythonFunction, "python_function")                                       \
  X(kCudaRuntime, "cuda_runtime")         /* cuda_runtime, old "Runtime" */   \
  X(kCudaDriver, "cuda_driver")                                               \
  X(kKernel, "kernel")                    /* GPU kernel */                    \
  X(kGpuMemcpy, "gpu_memcpy")                                                 \
  X(kGpuMemset, "gpu_memset")                                                 \
  X(kGpuAnnotation, "gpu_user_annotation")                                    \
  X(kNpuTask, "npu_task")                 /* Ascend Hardware device task */   \
  X(kHcclOp, "hccl_op")                   /* HCCL op lane ("Group N Communication") */ \
  X(kHcclTask, "hccl_task")               /* HCCL task lane ("Plane N") */    \
  X(kOverlap, "overlap_analysis")         /* Overlap Analysis lane */         \
  X(kEnqueue, "enqueue")                                                      \
  X(kDequeue, "dequeue")                                                      \
  X(kInstant, "instant")                  /* ph i/I/R and other non-X marks */

#define PD_ENUM_MEMBER_(id, name) id,
#define PD_ENUM_NAME_(id, name) std::string_view(name),

enum class DeviceKind : uint8_t { PD_DEVICE_KINDS(PD_ENUM_MEMBER_) kCount };
enum class SourceFormat : uint8_t { PD_SOURCE_FORMATS(PD_ENUM_MEMBER_) kCount };
enum class SliceKind : uint8_t { PD_SLICE_KINDS(PD_ENUM_MEMBER_) kCount };

inline constexpr std::array<std::string_view, static_cast<size_t>(DeviceKind::kCount)> kDeviceKindNames =
    {PD_DEVICE_KINDS(PD_ENUM_NAME_)};
inline constexpr std::array<std::string_view, static_cast<size_t>(SourceFormat::kCount)>
    kSourceFormatNames = {PD_SOURCE_FORMATS(PD_ENUM_NAME_)};
inline constexpr std::array<std::string_view, static_cast<size_t>(SliceKind::kCount)> kSliceKindNames =
    {PD_SLICE_KINDS(PD_ENUM_NAME_)};

namespace detail {
template <size_t N>
constexpr bool AllNamed(const std::array<std::string_view, N>& names) {
  for (auto n : names)
    if (n.empty()) return false;
  return true;
}
}  // namespace detail
static_assert(detail::AllNamed(kDeviceKindNames));
static_assert(detail::AllNamed(kSourceFormatNames));
static_assert(detail::AllNamed(kSliceKindNames));

constexpr std::string_view Name(DeviceKind k) { return kDeviceKindNames[static_cast<size_t>(k)]; }
constexpr std::string_view Name(SourceFormat k) { return kSourceFormatNames[static_cast<size_t>(k)]; }
constexpr std::string_view Name(SliceKind k) { return kSliceKindNames[static_cast<size_t>(k)]; }

// True for the reference's "torch op" class: cpu_op, user_annotation, runtime calls, step markers.
constexpr bool IsTorchOpKind(SliceKind k) {
  return k == SliceKind::kCpuOp || k == SliceKind::kUserAnnotation || k == SliceKind::kStepMarker ||
         k == SliceKind::kCudaRuntime;
}

// One catalog of the event arg keys profdiff keeps (the Kineto idea); every other arg is dropped at
// load time to keep events compact.
#define PD_ARG_KEYS(X)                                   \
  X(kInputDims, "Input Dims")                            \
  X(kInputType, "Input type")                            \
  X(kInputStrides, "Input Strides")                      \
  X(kCallStack, "Call stack")                            \
  X(kStream, "stream")                                   \
  X(kDevice, "device")                                   \
  X(kCorrelation, "correlation")                         \
  X(kExternalId, "External id")                          \
  X(kSequenceNumber, "Sequence number")                  \
  X(kFwdThreadId, "Fwd thread id")                       \
  X(kTaskType, "Task Type")                              \
  X(kStreamId, "Stream Id")                              \
  X(kTaskId, "Task Id")                                  \
  X(kGlobalTaskId, "Global Task Id") /* Ascend DB */     \
  X(kCorrelationId, "correlation_id")                    \
  X(kDeviceId, "Device Id")                              \
  X(kDeviceType, "Device Type")                          \
  X(kTotalReserved, "Total Reserved")                    \
  X(kTotalAllocated, "Total Allocated")                  \
  X(kBytes, "Bytes")                                     \
  X(kAddr, "Addr")                                       \
  X(kGrid, "grid")                                       \
  X(kBlock, "block")                                     \
  X(kConnectionId, "connection_id")                      \
  X(kModelId, "Model Id")                                \
  X(kDataType, "data_type")                              \
  X(kSize, "size(Byte)")                                 \
  X(kPgName, "Process Group Name")                       \
  X(kGroupName, "Group Name")                            \
  X(kCollectiveName, "Collective name")                  \
  X(kInMsgNelems, "In msg nelems")                       \
  X(kOutMsgNelems, "Out msg nelems")                     \
  X(kSeq, "Seq") /* a collective's number in its process group (record_param_comms) */ \
  X(kDtype, "dtype")  /* a collective's element type (record_param_comms, NCCL kernels) */

enum class ArgKey : uint8_t { PD_ARG_KEYS(PD_ENUM_MEMBER_) kCount };
inline constexpr std::array<std::string_view, static_cast<size_t>(ArgKey::kCount)> kArgKeyNames = {
    PD_ARG_KEYS(PD_ENUM_NAME_)};
static_assert(detail::AllNamed(kArgKeyNames));
constexpr std::string_view Name(ArgKey k) { return kArgKeyNames[static_cast<size_t>(k)]; }
// Looks up a key by its exact name in the trace; returns ArgKey::kCount when not in the catalog.
ArgKey ArgKeyFromName(std::string_view name);

}  // namespace profdiff
