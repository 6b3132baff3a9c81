#!/usr/bin/env python3
"""CI check of the GPU tests without a GPU: nvcc compiles every test/gpu/*.cu,
and every test/gpu/NAME/ through its build.sh, for sm_90a (and with them the
runtime's device headers); ptxas' resource report must show no spills and
no ignored setmaxnreg (warning C7508).
When cuobjdump (and the nvdisasm it runs) is on PATH -- pip's
nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm provide them -- the SASS must
also hold the instructions a source lists in a `// SASS: HGMMA UTMALDG` line.

    test/gpu/check_ptxas.py [--root DIR]

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
REGISTERS = re.compile(r"Used (\d+) registers")
SASS_EXPECTED = re.compile(r"^// SASS: (.+)$", re.MULTILINE)


def find_nvcc() -> str | None:
    for candidate in (os.environ.get("NVCC"), shutil.which("nvcc"),
                      "/usr/local/cuda/bin/nvcc"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


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
    problems = []
    function = "?"
    for line in report.splitlines():
        if m := FUNCTION.search(line):
            function = m.group(1)
        if (m := SPILLS.search(line)) and (int(m.group(1)) or int(m.group(2))):
            problems.append(f"{function}: {m.group(0)}")
        if "C7508" in line:
            problems.append(f"setmaxnreg ignored: {line.strip()}")
    expected = [w for text in texts for line in SASS_EXPECTED.findall(text)
                for w in line.split()]
    cuobjdump = shutil.which("cuobjdump")
    if expected and cuobjdump and shutil.which("nvdisasm"):
        sass = subprocess.run([cuobjdump, "-sass", binary], capture_output=True,
                              text=True).stdout
        problems += [f"no {w} in the SASS" for w in expected if w not in sass]
    registers = [int(r) for r in REGISTERS.findall(report)]
    print(f"{name}: {len(registers)} kernels, max "
          f"{max(registers, default=0)} registers, {len(problems)} problems")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[2])
    args = parser.parse_args()
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
                                   if p.suffix in (".cpp", ".cu", ".in")],
                    *build_folder(nvcc, args.root, f, tmp)) for f in folders]
        for name, texts, result, binary in builds:
            problems = check(name, texts, result, binary)
            for p in problems:
                print(f"FAIL {name}: {p}")
            failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
