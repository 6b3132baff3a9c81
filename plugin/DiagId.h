//===- DiagId.h - The ids of tf's diagnostics -------------------*- C++ -*-===//
//
// One enumerator per entry of Diagnostics.def. Clang-free, so that the
// analyses (which include no Clang header) can name the diagnostic a finding
// becomes; Diagnostics.h reports them through Clang.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_DIAGID_H
#define TF_PLUGIN_DIAGID_H

namespace tf::plugin {

enum class DiagId : unsigned {
#define TF_DIAG(Id, Class, Group, Message, ...) Id,
#include "Diagnostics.def"
};

/// The number of ids: DiagId's values are 0 to NumDiagIds - 1.
inline constexpr unsigned NumDiagIds = 0
#define TF_DIAG(Id, Class, Group, Message, ...) +1
#include "Diagnostics.def"
    ;

} // namespace tf::plugin

#endif // TF_PLUGIN_DIAGID_H
