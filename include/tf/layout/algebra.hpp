//===- tf/layout/algebra.hpp - The layout algebra -------------------------===//
//
// CuTe's layout algebra in tf's lexicographic reading (the last mode varies
// fastest; docs/layout/algebra.md): coalesce, composition, complement,
// right and left inverse, divides and products. Every operation is
// constexpr and returns Result, so failed preconditions are errors in
// static_asserts, in the plugin and in the CLI alike.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/coalesce.hpp"
#include "tf/layout/algebra/complement.hpp"
#include "tf/layout/algebra/composition.hpp"
#include "tf/layout/algebra/divide.hpp"
#include "tf/layout/algebra/inverse.hpp"
#include "tf/layout/algebra/product.hpp"
