// Status / StatusOr: expected failures (bad input, missing files, usage errors) are values, not
// exceptions or crashes. A Status carries a code and a message that already names the file and the
// line or byte offset where that applies.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace profdiff {

enum class StatusCode : int {
  kOk = 0,
  kInvalidArgument,  // the user asked for something impossible (usage error)
  kNotFound,         // a path or an entry does not exist
  kParseError,       // malformed input data
  kUnsupported,      // recognised but not supported (e.g. DB-only export)
  kIoError,          // the OS refused a read or a write
  kAlreadyExists,    // refusing to overwrite an output
  kInternal,         // a bug in profdiff
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "parse error: trace.json:12: unexpected ']'"
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context: `.
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
inline Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
inline Status ParseError(std::string msg) { return {StatusCode::kParseError, std::move(msg)}; }
inline Status Unsupported(std::string msg) { return {StatusCode::kUnsupported, std::move(msg)}; }
inline Status IoError(std::string msg) { return {StatusCode::kIoError, std::move(msg)}; }
inline Status AlreadyExists(std::string msg) { return {StatusCode::kAlreadyExists, std::move(msg)}; }
inline Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok()); }  // NOLINT
  StatusOr(T value) : value_(std::move(value)) {}                                 // NOLINT

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace profdiff

#define PD_CONCAT_INNER_(a, b) a##b
#define PD_CONCAT_(a, b) PD_CONCAT_INNER_(a, b)

#define PD_RETURN_IF_ERROR(expr)                \
  do {                                          \
    ::profdiff::Status pd_status_ = (expr);     \
    if (!pd_status_.ok()) return pd_status_;    \
  } while (0)

#define PD_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#define PD_ASSIGN_OR_RETURN(lhs, expr) \
  PD_ASSIGN_OR_RETURN_IMPL_(PD_CONCAT_(pd_statusor_, __LINE__), lhs, expr)
