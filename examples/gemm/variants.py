#!/usr/bin/env python3
"""The GEMM examples' element-type and tile variants, written from the examples.

f16 with B or A stored the other way round, f16 with an f32 output, fp8
e5m2, and fp8 with an f16 output are the examples with their element types
swapped, nothing else: the layouts, swizzles, boxes and atoms stay right
because a swizzle acts on bytes and a 64-element row of f16 is 128 bytes as
one of bf16 is (for fp8, e5m2 rows are e4m3's). fp8 with an f32 output also
takes f32_out.cpp's staged tile (eight 128 x 32 panels of floats) and its two
stages of rings. The tile variants n128 and n192 are optimal.cpp with a
128 x 128 or 128 x 192 output tile: WGMMA's N, the accumulator's N mode
(16 or 24 column pairs per lane quad, the group stride 64 N), B's slot and
the staged tile two or three 64-column panels instead of four, and four
stages of rings in the shared memory that frees. So instead of a copy of
each example, this table says which
example a variant comes from and what is substituted; the tests (header-only
runs, the plugin's checks, the interpreter, emitted code, nvcc, the H200
tests) build the variant from it.

    variants.py list                        the variants, one per line: NAME
                                            and the example it comes from
    variants.py write NAME OUT              writes examples/gemm/<from>.cpp with
                                            NAME's substitutions to OUT
    variants.py write-gpu NAME OUT SOURCE   writes test/gpu/gemm_<from>/user.cpp
                                            (the H200 test's main) for NAME,
                                            including SOURCE instead of the
                                            example

Each substitution must occur in its file (a variant never silently stops
being one when its example changes). The file is written through a
temporary and a rename, and only when its bytes change.
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The element type of every tensor, the example's random inputs and its
# poisoned output: bf16 -> f16.
TO_F16 = [
    ("tf::bf16", "tf::f16"),
    ("random_bf16(", "random_elements<tf::f16>("),
    ("poisoned_output(", "poisoned_output<tf::f16>("),
]

def tile_n(n):
    """optimal.cpp's substitutions for an output tile of 128 x n (n a
    multiple of 64 below 256): WGMMA's N, the accumulator's N mode, the
    64-column panels of B's slot and of the staged tile, four stages."""
    panels = {2: "two", 3: "three"}[n // 64]
    return [
        ("BN = 256, BK = 64, STAGES = 3", f"BN = {n}, BK = 64, STAGES = 4"),
        ("one 64 x 256 x 16 atom", f"one 64 x {n} x 16 atom"),
        ("Wgmma<256,", f"Wgmma<{n},"),
        ("128 x 256 f32", f"128 x {n} f32"),
        ('(32,4@lane4,2))"\n                       ":((16384,',
         f'({n // 8},4@lane4,2))"\n                       ":(({64 * n},'),
        ("B 64 x 256\n// N-major as four contiguous",
         f"B 64 x {n}\n// N-major as {panels} contiguous"),
        ('"(64,(4,64)):(64,(4096,1))', f'"(64,({n // 64},64)):(64,(4096,1))'),
        ("four 128 x 64 panels", f"{panels} 128 x 64 panels"),
        ('"(128,(4,64)):(64,(8192,1))', f'"(128,({n // 64},64)):(64,(8192,1))'),
    ]


# optimal.cpp's substitutions for two m64n128 accumulator blocks per
# consumer warpgroup: WGMMA N = 128, twice the atoms along M or N.
def two_blocks_per_warpgroup(rows):
    """A 256 x 128 tile (rows: each consumer holds 128 rows as two blocks
    one above the other) or a 128 x 256 tile split along N (each consumer
    holds its 64 rows as two blocks side by side)."""
    common = [
        ("one 64 x 256 x 16 atom", "one 64 x 128 x 16 atom"),
        ("Wgmma<256,", "Wgmma<128,"),
    ]
    if rows:
        return [
            ("BM = 128, BN = 256, BK = 64, STAGES = 3",
             "BM = 256, BN = 128, BK = 64, STAGES = 3"),
        ] + common + [
            ("128 x 256 f32", "256 x 128 f32"),
            ("2@group splits M between the consumers,",
             "2@group splits M between the consumers, the next 2 each one's\n"
             "// 128 rows into two m64n128 WGMMA blocks,"),
            ('"((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"\n'
             '                       ":((16384,16,8,1),(512,128,64))"',
             '"((2@group,2,4@warp,2,8@lane8),(16,4@lane4,2))"\n'
             '                       ":((16384,8192,16,8,1),(512,128,64))"'),
            ("A 128 x 64 K-major, B 64 x 256\n// N-major as four contiguous",
             "A 256 x 64 K-major, B 64 x 128\n// N-major as two contiguous"),
            ('"((2,8,8),(4,16)):((4096,512,64),(16,1))',
             '"((4,8,8),(4,16)):((4096,512,64),(16,1))'),
            ('"(64,(4,64)):(64,(4096,1))', '"(64,(2,64)):(64,(4096,1))'),
            ("four 128 x 64 panels", "two 256 x 64 panels"),
            ('"(128,(4,64)):(64,(8192,1))', '"(256,(2,64)):(64,(16384,1))'),
            ("tf::Repeat<2, 1, 4>", "tf::Repeat<4, 1, 4>"),
        ]
    return common + [
        ("2@group splits M between the consumers,",
         "2@group splits M between the consumers, the first N leaf of 2 each\n"
         "// one's 256 columns into two m64n128 WGMMA blocks,"),
        ('"((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"\n'
         '                       ":((16384,16,8,1),(512,128,64))"',
         '"((2@group,4@warp,2,8@lane8),(2,16,4@lane4,2))"\n'
         '                       ":((16384,16,8,1),(8192,512,128,64))"'),
        ("tf::Repeat<2, 1, 4>", "tf::Repeat<2, 2, 4>"),
    ]


# name: (example it comes from, substitutions in the example in order,
#        substitutions in test/gpu/gemm_<example>/user.cpp, the H200 test's
#        main)
VARIANTS = {
    # f16 with B stored N x K, A stored K x M, and both.
    "f16_nt": ("nt", TO_F16, [("tf::bf16", "tf::f16")]),
    "f16_tn": ("tn", TO_F16, [("tf::bf16", "tf::f16")]),
    "f16_tt": ("tt", TO_F16, [("tf::bf16", "tf::f16")]),
    # fp8 e5m2 operands (WGMMA's .e5m2.e5m2 form), bf16 output.
    "fp8_e5m2": ("fp8", [("tf::fp8e4m3", "tf::fp8e5m2")],
                 [("tf::fp8e4m3", "tf::fp8e5m2")]),
    # fp8 e4m3 operands, f16 output (the staged tile and out in f16).
    "fp8_f16": ("fp8", [("tf::bf16", "tf::f16"),
                        ("poisoned_output(", "poisoned_output<tf::f16>(")],
                [("tf::bf16", "tf::f16")]),
    # f16 operands, the f32 accumulator out.
    "f16_f32": ("f32_out", [("tf::bf16", "tf::f16"),
                            ("random_bf16(", "random_elements<tf::f16>(")],
                [("tf::bf16", "tf::f16")]),
    # fp8 e4m3 operands, the scaled f32 accumulator out: f32_out.cpp's
    # staged tile of eight 128 x 32 float panels (a 32-float row is one
    # 128-byte swizzle row) and its two stages of rings (2 x 48 KiB + 128
    # KiB; three would not fit in 227 KiB).
    "fp8_f32": ("fp8", [
        ("STAGES = 3", "STAGES = 2"),
        ("four 128 x 64 panels, 128-byte swizzled.",
         "eight 128 x 32 float panels, swizzled."),
        ('tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1))',
         'tf::Tensor<float, "(128,(8,32)):(32,(4096,1))'),
        ("using Matrix = tf::Tensor<tf::bf16,", "using Matrix = tf::Tensor<float,"),
        ("tf::cast<tf::bf16>(tf::scale(acc, scale))", "tf::scale(acc, scale)"),
        ("std::vector<tf::bf16> out = gemm_example::poisoned_output(",
         "std::vector<float> out = gemm_example::poisoned_output<float>("),
    ], [("main<tf::bf16,", "main<float,")]),
    # bf16 NN with a 128 x 128 and a 128 x 192 output tile.
    "n128": ("optimal", tile_n(128), []),
    "n192": ("optimal", tile_n(192), []),
    # Two accumulator blocks per consumer warpgroup: a 256 x 128 tile
    # (BM = 256) and the 128 x 256 tile split along N, WGMMA m64n128.
    "m256": ("optimal", two_blocks_per_warpgroup(rows=True), []),
    "nsplit": ("optimal", two_blocks_per_warpgroup(rows=False), []),
    # Clusters of two CTAs along M: both take the same column of tiles, so
    # B's tile is loaded once per cluster, each CTA issuing half of its
    # boxes with .multicast::cluster into both CTAs' rings.
    "cluster2": ("optimal", [
        ("{.group_m = 8}", "{.group_m = 8, .cluster = 2}"),
        ("tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<BK, BN>",
         "tf::schedule<tf::nv::CopyAsyncTensorMulticast<2>>(b.tile<BK, BN>"),
    ], []),
}


def substitute(text, name, origin, pairs):
    for old, new in pairs:
        if old not in text:
            sys.exit(f"variants.py: {name}: '{old}' does not occur in {origin}")
        text = text.replace(old, new)
    return text


def write_atomically(path, text):
    path = os.path.abspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".variant.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def banner(name, origin, pairs):
    def line(text):  # a substitution spanning lines, on one comment line
        return text.replace("\n", "\\n")
    said = "".join(f"//   {line(old)} -> {line(new)}\n" for old, new in pairs)
    return (f"// Generated by examples/gemm/variants.py: the variant {name}, "
            f"{origin} with\n{said}")


def variant(name):
    """(example, its substitutions, the H200 test main's substitutions)"""
    if name not in VARIANTS:
        sys.exit(f"variants.py: no variant '{name}' (variants.py list)")
    return VARIANTS[name]


def write_example(name, out):
    example, pairs, _ = variant(name)
    origin = f"examples/gemm/{example}.cpp"
    with open(os.path.join(ROOT, origin), encoding="utf-8") as f:
        text = f.read()
    # The program's name in its report.
    pairs = pairs + [(f'report("{example}"', f'report("{name}"')]
    write_atomically(out, banner(name, origin, pairs) +
                     substitute(text, name, origin, pairs))


def write_gpu_main(name, out, source):
    example, _, pairs = variant(name)
    origin = f"test/gpu/gemm_{example}/user.cpp"
    with open(os.path.join(ROOT, origin), encoding="utf-8") as f:
        text = f.read()
    pairs = pairs + [
        (f'#include "../../../examples/gemm/{example}.cpp"',
         f'#include "{os.path.abspath(source)}"'),
        (f'"gemm_{example}"', f'"gemm_{name}"'),
    ]
    write_atomically(out, banner(name, origin, pairs) +
                     substitute(text, name, origin, pairs))


def main(argv):
    if argv[1:2] == ["list"] and len(argv) == 2:
        print("\n".join(f"{name} {example}"
                        for name, (example, _, _) in VARIANTS.items()))
    elif argv[1:2] == ["write"] and len(argv) == 4:
        write_example(argv[2], argv[3])
    elif argv[1:2] == ["write-gpu"] and len(argv) == 5:
        write_gpu_main(argv[2], argv[3], argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
