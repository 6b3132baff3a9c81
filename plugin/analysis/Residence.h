//===- plugin/analysis/Residence.h - Where a kernel's values live -*- C++ -*-===//
//
// What Scopes.cpp and Capacity.cpp share: which mesh holds a register value,
// whether two meshes are the same units, how a value is named in a message,
// and how byte counts are printed ("304 KiB", "42.5 MiB").
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_RESIDENCE_H
#define TF_PLUGIN_ANALYSIS_RESIDENCE_H

#include "hir/HIR.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tf::analysis {

/// The value \p V is a window of (following TileOf to the end), or V itself.
hir::ValueId rootOf(const hir::Kernel &K, hir::ValueId V);

/// The mesh scope \p V was defined in: Value::Scope, else the mesh scope
/// around its defining statement (for temporaries the builder may leave
/// Scope unset); None at kernel scope. Windows answer for their root.
hir::StmtId holderScope(const hir::Kernel &K, hir::ValueId V);

/// Whether \p V is a tensor in registers (a window of one included).
bool inRegisters(const hir::Kernel &K, hir::ValueId V);

/// Whether \p A and \p B are the same units: tf's same_units (level, offset,
/// leaves), or the same level and offset with equal coalesced layouts
/// ((2,4,8,4):(128,32,4,1) and (256):(1) are the same 256 threads).
bool sameUnits(const tf::Mesh &A, const tf::Mesh &B);

/// How a message names \p V: "'acc'", "the result of tf::cast" for a
/// temporary, "a window of 'acc'" for an unnamed window.
std::string describeValue(const hir::Kernel &K, hir::ValueId V);

/// The definition's range of \p V: Value::Range, else its defining
/// statement's.
hir::SourceRange definitionRange(const hir::Kernel &K, hir::ValueId V);

/// \p Bytes for people: "42.5 MiB" from 1 MiB on when exact to two
/// decimals, else "N KiB" when a whole number of KiB, else "N bytes".
std::string formatBytes(std::int64_t Bytes);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_RESIDENCE_H
