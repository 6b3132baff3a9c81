//===- plugin/analysis/Scopes.cpp -----------------------------------------===//
// (being written: see Analysis.h)
#include "analysis/Analysis.h"

namespace tf::analysis {
std::vector<Finding> checkScopes(const hir::Kernel &) { return {}; }
} // namespace tf::analysis
