// FoldResult: the outcome of folding one expression: a constant, "not a constant" (with the
// reason, for messages that come later), or a definite Python error to report now.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diag/Diagnostic.h"
#include "diag/SourceLocation.h"
#include "sema/fold/ConstantValue.h"

namespace pyk::sema {

class FoldResult {
public:
  enum class Status : uint8_t { Constant, NotConstant, Error };

  static FoldResult constant(ConstantValue value) {
    FoldResult r(Status::Constant);
    r.value_ = std::move(value);
    return r;
  }
  // `reason` completes "... is not a compile-time constant: <reason>".
  static FoldResult notConstant(std::string reason, SourceRange where = {}) {
    FoldResult r(Status::NotConstant);
    r.reason_ = std::move(reason);
    r.range_ = where;
    return r;
  }
  // A Python error the module's own top-level code would raise. Not reported yet: the folder
  // reports it at `where` (filled in by whoever knows the range, when empty).
  static FoldResult error(DiagKind kind, std::vector<std::string> args, SourceRange where = {}) {
    FoldResult r(Status::Error);
    r.errorKind_ = kind;
    r.errorArgs_ = std::move(args);
    r.range_ = where;
    return r;
  }

  Status status() const { return status_; }
  bool isConstant() const { return status_ == Status::Constant; }
  const ConstantValue& value() const { return value_; }
  ConstantValue& value() { return value_; }
  const std::string& reason() const { return reason_; }
  DiagKind errorKind() const { return errorKind_; }
  const std::vector<std::string>& errorArgs() const { return errorArgs_; }
  SourceRange range() const { return range_; }
  // Sets the location when none was set yet; returns *this.
  FoldResult& at(SourceRange where) {
    if (!range_.valid())
      range_ = where;
    return *this;
  }

private:
  explicit FoldResult(Status status) : status_(status) {}
  Status status_;
  ConstantValue value_;
  std::string reason_;
  DiagKind errorKind_ = DiagKind::ConstantInvalidOperation;
  std::vector<std::string> errorArgs_;
  SourceRange range_;
};

} // namespace pyk::sema
