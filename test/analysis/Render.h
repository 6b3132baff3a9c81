//===- test/analysis/Render.h - Findings as the compiler prints them ------===//
//
// A finding rendered with its Diagnostics.def message, the way Clang shows
// it (`optimal.cpp:30:40: error: ...`, then notes and fix-its), so that the
// tests can check the whole text and print it when they fail.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_ANALYSIS_RENDER_H
#define TF_TEST_ANALYSIS_RENDER_H

#include "analysis/Finding.h"
#include "targets/TargetFacts.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <string>
#include <vector>

namespace tf::test {

struct DiagInfo {
  const char *Id;
  const char *Class;
  const char *Message;
};

inline const DiagInfo &info(plugin::DiagId Id) {
  static const DiagInfo Table[] = {
#define TF_DIAG(Id, Class, Group, Message, ...) {#Id, #Class, Message},
#include "Diagnostics.def"
  };
  return Table[static_cast<unsigned>(Id)];
}

/// The message with %0, %1, ... replaced by the finding's arguments.
inline std::string message(const analysis::Finding &F) {
  std::string Out;
  const std::string Text = info(F.Id).Message;
  for (std::size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '%' && I + 1 < Text.size() && std::isdigit(Text[I + 1])) {
      std::size_t N = static_cast<std::size_t>(Text[++I] - '0');
      Out += N < F.Args.size() ? F.Args[N] : "<missing %" + std::to_string(N) + ">";
      continue;
    }
    Out += Text[I];
  }
  return Out;
}

inline std::string render(const analysis::Finding &F) {
  std::string Class = info(F.Id).Class;
  for (char &C : Class)
    C = static_cast<char>(std::tolower(C));
  std::string Out = F.Range.File + ":" + std::to_string(F.Range.Line) + ":" +
                    std::to_string(F.Range.Column) + ": " + Class + ": " +
                    message(F) + "\n";
  for (const analysis::FixIt &X : F.FixIts)
    Out += "  fix-it:" + std::to_string(X.Range.Line) + ":" +
           std::to_string(X.Range.Column) + ": \"" + X.Replacement + "\"\n";
  for (const analysis::Finding &N : F.Notes)
    Out += render(N);
  return Out;
}

inline std::string render(const std::vector<analysis::Finding> &Fs) {
  std::string Out;
  for (const analysis::Finding &F : Fs)
    Out += render(F);
  return Out;
}

/// The findings with id \p Id.
inline std::vector<const analysis::Finding *>
withId(const std::vector<analysis::Finding> &Fs, plugin::DiagId Id) {
  std::vector<const analysis::Finding *> Out;
  for (const analysis::Finding &F : Fs)
    if (F.Id == Id)
      Out.push_back(&F);
  return Out;
}

/// The merged target \p Id of the source tree's targets/.
inline const targets::MergedTarget &target(const std::string &Id) {
  static targets::FactDatabase *DB = [] {
    llvm::Expected<targets::FactDatabase> Loaded =
        targets::FactDatabase::loadDirectory(targets::defaultTargetsDir());
    if (!Loaded) {
      ADD_FAILURE() << llvm::toString(Loaded.takeError());
      return new targets::FactDatabase();
    }
    return new targets::FactDatabase(std::move(*Loaded));
  }();
  static std::map<std::string, targets::MergedTarget> Merged;
  if (auto It = Merged.find(Id); It != Merged.end())
    return It->second;
  const targets::TargetDocument *Doc = DB->find(Id);
  if (!Doc) {
    ADD_FAILURE() << "no target " << Id;
    static targets::MergedTarget None;
    return None;
  }
  return Merged.emplace(Id, DB->merge(*Doc)).first->second;
}

} // namespace tf::test

#endif // TF_TEST_ANALYSIS_RENDER_H
