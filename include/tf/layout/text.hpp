//===- tf/layout/text.hpp - Layouts as text -------------------------------===//
//
// tf's notation for layouts, read and written: the constexpr parser
// (text/parse.hpp), compile-time literals `tf::layout<"...">`
// (text/literal.hpp) and the printers (text/print.hpp). The notation itself
// is described in docs/layout/notation.md.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/text/literal.hpp"
#include "tf/layout/text/parse.hpp"
#include "tf/layout/text/print.hpp"
#include "tf/layout/text/tiler.hpp"
