//===- AtomicFile.cpp - Files written whole or not at all -----------------===//
//
// See AtomicFile.h.
//
//===----------------------------------------------------------------------===//
#include "AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

namespace tf::plugin {
namespace {

/// The test hook of PauseBeforeRenameEnvVar: says where it stopped (the
/// test waits for this line) and waits for a signal.
void pauseIfAsked(llvm::StringRef Temporary) {
  if (!llvm::sys::Process::GetEnv(PauseBeforeRenameEnvVar))
    return;
  llvm::errs() << "tf: paused before renaming " << Temporary << "\n";
  llvm::errs().flush();
  ::pause();
}

} // namespace

std::error_code writeFileAtomically(llvm::StringRef Path,
                                    llvm::StringRef Contents) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD = -1;
  llvm::SmallString<256> Temporary;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueFile(Model, FD, Temporary))
    return EC;
  llvm::sys::RemoveFileOnSignal(Temporary);
  std::error_code EC;
  {
    llvm::raw_fd_ostream File(FD, /*shouldClose=*/true);
    File << Contents;
    File.close();
    if (File.has_error()) {
      EC = File.error();
      File.clear_error();
    }
  }
  if (!EC) {
    pauseIfAsked(Temporary);
    EC = llvm::sys::fs::rename(Temporary, Path);
  }
  if (EC)
    llvm::sys::fs::remove(Temporary);
  llvm::sys::DontRemoveFileOnSignal(Temporary);
  return EC;
}

} // namespace tf::plugin
