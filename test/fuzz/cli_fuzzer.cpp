//===- test/fuzz/cli_fuzzer.cpp - The tf tool's command line --------------===//
//
// Input: the arguments of one `tf` run, one per line. They are parsed and
// the subcommand run in-process (plugin/cli/Tool.h), as `tf` would; every
// outcome but a crash, a leak or undefined behaviour is fine. What cannot
// be allowed in-process is held back: options that print help or the
// version exit the process, and a `/` could name a file to compile or to
// write, so arguments with one are dropped and the fuzzer runs in an empty
// directory of its own (relative names find nothing to read or
// overwrite; paths given to libFuzzer must be absolute, as ctest gives
// them). Run with -close_fd_mask=3: the commands print a lot.
//
//===----------------------------------------------------------------------===//
#include "Tool.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;

namespace {

/// Arguments that end the process (help, version, option listings) or could
/// reach a file outside the fuzzer's directory. llvm::cl takes `-heaclp-hidden`
/// for help, and a grouped single-letter option before an h as well
/// (`--Whape` printed the help and exited), so every option whose name holds
/// an h is held back but tf's own --shape.
bool heldBack(StringRef Arg) {
  StringRef Option = Arg.ltrim('-');
  const StringRef Name = Option.split('=').first;
  return Arg.contains('/') || Arg.starts_with("@") ||
         (Option.size() < Arg.size() &&
          ((Name.contains('h') && Name != "shape") ||
           Option.starts_with("version") || Option.starts_with("print-")));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  SmallString<128> Dir;
  if (sys::fs::createUniqueDirectory("tf-cli-fuzz", Dir) ||
      sys::fs::set_current_path(Dir))
    std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  StringRef Input(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Args = {"tf"};
  while (!Input.empty()) {
    auto [Arg, Rest] = Input.split('\n');
    if (Arg.contains('\0') || heldBack(Arg))
      return 0;
    Args.push_back(Arg.str());
    Input = Rest;
  }
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  Argv.push_back(nullptr);
  cl::ResetAllOptionOccurrences();
  std::string Errors;
  raw_string_ostream ErrorStream(Errors);
  (void)tf::cli::runTool(int(Args.size()), Argv.data(), &ErrorStream);
  outs().flush();
  return 0;
}
