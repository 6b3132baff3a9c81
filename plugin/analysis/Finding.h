//===- plugin/analysis/Finding.h - What a check found -----------*- C++ -*-===//
//
// The analyses report findings, not Clang diagnostics: a finding names its
// diagnostic (Diagnostics.def), the source range, the message arguments, the
// fix-its and the notes. The plugin turns each into one Clang diagnostic
// (Emit.cpp); the queries print or serialise them.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_FINDING_H
#define TF_PLUGIN_ANALYSIS_FINDING_H

#include "DiagId.h"
#include "hir/HIR.h"

#include <string>
#include <vector>

namespace tf::analysis {

/// Replace the text of Range with Replacement.
struct FixIt {
  hir::SourceRange Range;
  std::string Replacement;
};

struct Finding {
  plugin::DiagId Id;
  /// The caret is at Range's begin; the range is highlighted.
  hir::SourceRange Range;
  /// %0, %1, ... of the diagnostic's message.
  std::vector<std::string> Args;
  std::vector<FixIt> FixIts;
  /// Notes (their Id is a note_tf_* id), in order.
  std::vector<Finding> Notes;
};

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_FINDING_H
