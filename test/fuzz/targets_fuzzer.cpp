//===- test/fuzz/targets_fuzzer.cpp - The target fact loader --------------===//
//
// Input: TOML text, one or more fact documents separated by lines `#---`,
// loaded together with the real architectures (targets/architectures, read
// once) so that a document may include or implement them. A load either
// fails with diagnostics or gives documents whose merged views can be read
// whole; neither may crash, leak or read out of bounds.
//
//===----------------------------------------------------------------------===//
#include "targets/TargetFacts.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using namespace llvm;
using namespace tf::targets;

namespace {

/// The architecture documents of the default fact tree, as (path, text).
std::vector<std::pair<std::string, std::string>> readArchitectures() {
  std::vector<std::pair<std::string, std::string>> Docs;
  std::error_code EC;
  SmallString<256> Root(defaultTargetsDir());
  sys::path::append(Root, "architectures");
  for (sys::fs::directory_iterator It(Root, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (sys::path::extension(It->path()) != ".toml")
      continue;
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
            MemoryBuffer::getFile(It->path()))
      Docs.emplace_back(It->path(),
                        (*Buffer)->getBuffer().str());
  }
  return Docs;
}

/// Reads everything a consumer reads from a loaded database.
void readAll(const FactDatabase &DB) {
  for (const TargetDocument &Doc : DB.documents()) {
    MergedTarget T = DB.merge(Doc);
    for (const MergedFact &F : T.Facts) {
      (void)F.F->valueText();
      (void)T.fact(F.F->Key);
    }
    for (const MergedFact &C : T.Capabilities)
      (void)T.hasCapability(C.F->Key);
    (void)DB.find(Doc.Id);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  static const std::vector<std::pair<std::string, std::string>>
      Architectures = readArchitectures();
  std::vector<std::pair<std::string, std::string>> Docs = Architectures;
  StringRef Input(reinterpret_cast<const char *>(Data), Size);
  for (int I = 0; !Input.empty(); ++I) {
    auto [Doc, Rest] = Input.split("\n#---\n");
    Docs.emplace_back("fuzz" + std::to_string(I) + ".toml", Doc.str());
    Input = Rest;
  }
  Expected<FactDatabase> DB = FactDatabase::loadBuffers(Docs);
  if (!DB) {
    (void)toString(DB.takeError());
    return 0;
  }
  readAll(*DB);
  return 0;
}
