#!/usr/bin/env python3
"""CI check of the GPU tests without a GPU: nvcc compiles every test/gpu/*.cu,
and every test/gpu/NAME/ through its build.sh, for sm_90a (and with them the
runtime's device headers); ptxas' resource report must show every entry
function with 0 spill bytes and no ignored setmaxnreg (warning C7508), and
the SASS must hold the instructions a source lists in a `// SASS: HGMMA
UTMALDG` line, or a build.sh in a `# SASS: ...` line (the gemm_*/ folders:
the CUDA backend's GEMMs, with their HGMMA or QGMMA form, UTMALDG.2D and
UTMASTG.2D; a variant's folder, which has only a build.sh, says it there). A
word `NAME` matches itself and its longer forms after a dot; `NAME$` only
itself (f16's `HGMMA.64x256x16.F32$`, which `.BF16` must not satisfy);
`N*NAME` asks for exactly N of them (the GEMMs' box counts).

    test/gpu/check_ptxas.py [--root DIR]
    test/gpu/check_ptxas.py --report PTXAS_LOG [--sass OBJECT --expect 'W ...']

The second form checks one compilation (test/plugin/emit/nvcc.test): the
ptxas report nvcc -Xptxas -v wrote, and the SASS of its object.

The SASS is read with cuobjdump, which runs nvdisasm: from $TF_CUDA_TOOLS
(ctest and lit set it to the build's cuda-tools/bin, where .ci/setup.sh
installs pip's nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm), PATH, or
/usr/local/cuda/bin. Where nvcc exists and they do not, the check fails: a
SASS check that is skipped passes nothing.

Exits 77 (ctest's skip code) when nvcc is not installed.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
SPILLS = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
FUNCTION = re.compile(r"Function properties for (\S+)")
ENTRY = re.compile(r"Compiling entry function '(\S+)' for")
REGISTERS = re.compile(r"Used (\d+) registers")
SASS_EXPECTED = re.compile(r"^(?://|#) SASS: (.+)$", re.MULTILINE)
# `# SPILLS: NAME ...`: entry functions whose name holds NAME may spill (the
# checked copy of a register program the emitter writes twice: its edge
# path, which ptxas counts with the unchecked copy).
SPILLS_ALLOWED = re.compile(r"^(?://|#) SPILLS: (.+)$", re.MULTILINE)
SETUP_HINT = ("bash .ci/setup.sh installs them into build/cuda-tools/bin (pip: "
              "nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm); or put them on PATH "
              "or set TF_CUDA_TOOLS")


def find_nvcc() -> str | None:
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"),
                      "/usr/local/cuda/bin/nvcc"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


TOOLS_ONLY: str | None = None  # --tools DIR: search there only


def find_tool(name: str) -> str | None:
    """cuobjdump or nvdisasm: $TF_CUDA_TOOLS, PATH, /usr/local/cuda/bin."""
    folders = ((TOOLS_ONLY,) if TOOLS_ONLY else
               (os.environ.get("TF_CUDA_TOOLS"), None, "/usr/local/cuda/bin"))
    for folder in folders:
        if folder is None:
            found = shutil.which(name)
        else:
            found = os.path.join(folder, name)
        if found and os.path.isfile(found) and os.access(found, os.X_OK):
            return found
    return None


def ptxas_problems(report: str) -> list[str]:
    """Every entry function of a ptxas -v report has 0 spill bytes; no
    setmaxnreg was ignored (C7508)."""
    problems = []
    entries = ENTRY.findall(report)
    spills: dict[str, tuple[int, int]] = {}
    function = "?"
    for line in report.splitlines():
        if m := FUNCTION.search(line):
            function = m.group(1)
        if m := SPILLS.search(line):
            spills[function] = (int(m.group(1)), int(m.group(2)))
            if int(m.group(1)) or int(m.group(2)):
                problems.append(f"{function}: {m.group(0)}")
        if "C7508" in line:
            problems.append(f"setmaxnreg ignored: {line.strip()}")
    problems += [f"{e}: no spill report (is -Xptxas -v given?)" for e in entries
                 if e not in spills]
    return problems


def sass_problems(binary: str, expected: list[str]) -> tuple[list[str], str]:
    """The instructions of `expected` missing from the SASS of `binary`, and
    a summary of how often each occurs."""
    cuobjdump, nvdisasm = find_tool("cuobjdump"), find_tool("nvdisasm")
    if not cuobjdump or not nvdisasm:
        missing = " and ".join(n for n, p in (("cuobjdump", cuobjdump),
                                              ("nvdisasm", nvdisasm)) if not p)
        return [f"{missing} not found, so the SASS cannot be checked for "
                f"{' '.join(expected)}: {SETUP_HINT}"], ""
    env = dict(os.environ,
               PATH=os.path.dirname(nvdisasm) + os.pathsep + os.environ.get("PATH", ""))
    result = subprocess.run([cuobjdump, "-sass", binary], capture_output=True,
                            text=True, env=env)
    if result.returncode != 0 or "Function :" not in result.stdout:
        return [f"cuobjdump -sass {binary} failed ({result.returncode}): "
                f"{result.stderr.strip() or 'no function in its output'}"], ""
    # A word is [N*]NAME[$]. NAME matches itself and its longer forms after
    # a dot (USETMAXREG is USETMAXREG.TRY_ALLOC.CTAPOOL too); with a
    # trailing $ only itself (f16's HGMMA.64x256x16.F32$ is not
    # HGMMA.64x256x16.F32.BF16). N* asks for exactly N (a GEMM's 4 HGMMA, 5
    # TMA loads and 4 stores: a box too few or too many is a bug); without
    # it, at least one.
    problems, summary = [], []
    for word in expected:
        count, _, name = word.rpartition("*")
        whole = name.endswith("$")
        name = name.rstrip("$")
        found = len(re.findall(re.escape(name) + (r"(?![\w.])" if whole else r"(?![\w])"),
                               result.stdout))
        summary.append(f"{found} {name}")
        if count and found != int(count):
            problems.append(f"{found} {name} in the SASS, not {count}")
        elif not count and found == 0:
            problems.append(f"no {name} in the SASS")
    return problems, ", ".join(summary)


def compile_single(nvcc: str, root: pathlib.Path, source: pathlib.Path,
                   tmp: str) -> tuple[subprocess.CompletedProcess, str]:
    """Compiles one test/gpu/NAME.cu to an object; returns nvcc's result and
    the object's path."""
    out = os.path.join(tmp, source.stem + ".o")
    cmd = [nvcc, "-std=c++20", "-O3", "-gencode=arch=compute_90a,code=sm_90a",
           f"-I{root / 'include'}", f"-I{root / 'runtime' / 'include'}",
           "-Xptxas", "-v", "-c", str(source), "-o", out]
    return subprocess.run(cmd, capture_output=True, text=True), out


def build_folder(nvcc: str, root: pathlib.Path, folder: pathlib.Path,
                 tmp: str) -> tuple[subprocess.CompletedProcess, str]:
    """Builds a test/gpu/NAME/ test with its build.sh; returns the script's
    result and the binary's path."""
    env = dict(os.environ, NVCC=nvcc)
    result = subprocess.run([str(folder / "build.sh"), tmp], cwd=root, env=env,
                            capture_output=True, text=True)
    return result, os.path.join(tmp, folder.name)


def check(name: str, texts: list[str], result: subprocess.CompletedProcess,
          binary: str) -> list[str]:
    """The problems in one build's ptxas report and SASS (empty: it passed);
    `texts` are the sources, for their `// SASS:` lines."""
    report = result.stdout + result.stderr
    if result.returncode != 0:
        return [f"the build failed:\n{report}"]
    allowed = [w for text in texts for line in SPILLS_ALLOWED.findall(text)
               for w in line.split()]
    problems = [p for p in ptxas_problems(report)
                if not (" bytes spill " in p and any(w in p.split(":")[0] for w in allowed))]
    expected = [w for text in texts for line in SASS_EXPECTED.findall(text)
                for w in line.split()]
    summary = ""
    if expected:
        sass, summary = sass_problems(binary, expected)
        problems += sass
    registers = [int(r) for r in REGISTERS.findall(report)]
    print(f"{name}: {len(registers)} kernels, max "
          f"{max(registers, default=0)} registers, {len(problems)} problems"
          + (f"; SASS: {summary}" if summary else ""))
    return problems


def check_one(report_path: str, binary: str | None, expected: list[str]) -> int:
    """--report mode: one compilation's report and object."""
    with open(report_path) as f:
        report = f.read()
    problems = ptxas_problems(report)
    entries = ENTRY.findall(report)
    if not entries:
        problems.append(f"{report_path}: no entry function in the ptxas report")
    summary = ""
    if binary:
        sass, summary = sass_problems(binary, expected)
        problems += sass
    for p in problems:
        print(f"FAIL {report_path}: {p}")
    print(f"{report_path}: {len(entries)} entry function(s)"
          + (f"; SASS: {summary}" if summary else "")
          + f"; {len(problems)} problems")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[2])
    parser.add_argument("--report", help="check this ptxas -v report only")
    parser.add_argument("--sass", help="with --report: the object whose SASS to check")
    parser.add_argument("--expect", default="",
                        help="with --sass: the instructions it must hold")
    parser.add_argument("--tools", metavar="DIR",
                        help="look for cuobjdump and nvdisasm in DIR only")
    args = parser.parse_args()
    global TOOLS_ONLY
    TOOLS_ONLY = args.tools
    if args.report:
        return check_one(args.report, args.sass, args.expect.split())
    nvcc = find_nvcc()
    if nvcc is None:
        print("SKIP: nvcc not found (set NVCC or install CUDA)")
        return SKIP
    gpu = args.root / "test" / "gpu"
    sources = sorted(gpu.glob("*.cu")) + sorted((gpu / "gemm").glob("*.cu"))
    folders = sorted(p.parent for p in gpu.glob("*/build.sh"))
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        builds = [(s.name, [s.read_text()], *compile_single(nvcc, args.root, s, tmp))
                  for s in sources]
        builds += [(f.name + "/", [p.read_text() for p in sorted(f.iterdir())
                                   if p.suffix in (".cpp", ".cu", ".in", ".sh")],
                    *build_folder(nvcc, args.root, f, tmp)) for f in folders]
        for name, texts, result, binary in builds:
            problems = check(name, texts, result, binary)
            for p in problems:
                print(f"FAIL {name}: {p}")
            failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
