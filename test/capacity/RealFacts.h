//===- test/capacity/RealFacts.h - The source tree's facts ------*- C++ -*-===//
//
// The analysis tests judge hand-built kernels against the real fact tree
// (targets/, TF_TEST_TARGETS_DIR), loaded once per test binary.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_CAPACITY_REALFACTS_H
#define TF_TEST_CAPACITY_REALFACTS_H

#include "targets/TargetFacts.h"

#include <gtest/gtest.h>

#include <memory>

namespace tf_test {

/// The fact tree of the source, or an empty one after a test failure.
inline const tf::targets::FactDatabase &realFacts() {
  using tf::targets::FactDatabase;
  static std::unique_ptr<FactDatabase> DB = [] {
    llvm::Expected<FactDatabase> R =
        FactDatabase::loadDirectory(TF_TEST_TARGETS_DIR);
    if (!R) {
      ADD_FAILURE() << llvm::toString(R.takeError());
      return std::make_unique<FactDatabase>(
          llvm::cantFail(FactDatabase::loadBuffers({})));
    }
    return std::make_unique<FactDatabase>(std::move(*R));
  }();
  return *DB;
}

/// The merged facts of target \p Id (a test failure when it is unknown).
inline tf::targets::MergedTarget realTarget(const char *Id) {
  const tf::targets::TargetDocument *D = realFacts().find(Id);
  EXPECT_NE(D, nullptr) << Id;
  return D ? realFacts().merge(*D) : tf::targets::MergedTarget{};
}

} // namespace tf_test

#endif // TF_TEST_CAPACITY_REALFACTS_H
