#!/usr/bin/env python3
"""Checks the CUDA file the backend emits against the lowered form.

    cross_check.py LIR CU

LIR is what `tf finalize FILE -- FLAGS` prints for a translation unit
(docs/finalize.md), CU the file `clang++ -fplugin=tf.so
-fplugin-arg-tf-emit=DIR FILE FLAGS` writes for it (docs/backend-cuda.md).
Every constant of the CUDA file that the LIR decides is compared exactly, and
the instructions in the order the LIR gives them:

- launch shape: block threads, dynamic shared-memory bytes and alignment,
  the grid (persistent or one CTA per tile), the tile count, the extents the
  launcher reads, the mangled name and the registrar's kernel name;
- clusters of CTAs (`cluster=(N)` on the LIR's launch line): the kernel's
  `__cluster_dims__(N, 1, 1)` (none without clusters), the persistent
  grid of whole clusters `imin(topology, tiles * N)` and its comment, each
  tile loop's `clusters of N CTAs along M`, `barrier.cluster` as
  `sm90::cluster_sync()` where the LIR has it, every multicast TMA load
  (`multicast to M CTAs by rank r`) issued only by its rank `cta_x % N ==
  r` through `tma::load_multicast` with the CTA mask 2^M - 1, and every
  cluster-wide release (`of cluster rank r, by thread r of each
  warpgroup`) as `arrive_cluster(threadIdx.x % 128)` by threads
  `threadIdx.x % 128 < N` of a role of whole warpgroups, whose barrier
  then counts one arrival per warpgroup and CTA of the cluster;
- shared memory: every region's offset (each ring stage at
  `<ring>_offset + s * <ring>_stage_bytes`, each mbarrier at
  `<array>_offset + 8 s`), its layout, shape and element type, and its size
  (the layout's storage, which must be the LIR's byte count and fit before
  the next stage); no two regions overlap; all end within shared_bytes;
- tensor maps: tensor, element type, box extents in order, swizzle mode. The
  LIR prints boxes outermost dimension first and so does the emitted
  `<map>_box[]` array: `tf::runtime::cached_tensor_map` (make_tensor_map on
  a cache miss) takes them outermost first and reverses them for
  cuTensorMapEncodeTiled (innermost first;
  runtime/include/tf/runtime/host/tensor_map.hpp). The same order on both
  sides is the convention pinned here; a reversed box is a mismatch. Both
  list the box in its box order, which the LIR prints as `order=(1,0)` when
  it is not the tensor's (B stored N x K: the unit-stride dimension
  innermost) and the launcher passes as `<map>_order[]`; the TMA
  coordinates are in that order too;
- barriers: count, arrival count, expect_tx bytes (table, constants comment,
  init, every arrive_expect_tx);
- the body, instruction by instruction in order: roles (thread ranges and the
  thread's mesh coordinates), loops, lets, waits (barrier, slot, parity),
  arrivals (and the elected thread), every TMA load and store (map, shared
  view, slot, the box's byte offset in it, barrier and slot, coordinate
  expressions, bytes), every WGMMA (N, operand majors = transpose flags,
  accumulator block, each operand's ring, slot and start for every
  warpgroup, and its descriptor's LBO, SBO, base offset and swizzle), the
  epilogue's conversion and swizzle and the address every accumulator
  register of every block is stored at (each thread's base plus the
  register-pair table, against where the view's layout puts that element
  of PTX's wgmma D fragment), fences, commits and named barriers.

A statement of the CUDA kernel the checker does not recognise is a mismatch
too: new kinds of emitted code fail until the checker learns them, rather
than passing unchecked. Expressions are compared as syntax trees (parentheses do not matter), after
renaming the LIR's `a.extent(1)` to `a_extent1`, `cta.x` to `cta_x`, `min` /
`max` to `imin` / `imax`, as the emitter does. Exits 0 when everything
agrees; otherwise prints one line per mismatch, the LIR's and the CUDA's
text side by side, and exits 1.
"""
import ast
import itertools
import re
import sys
from dataclasses import dataclass, field

# --------------------------------------------------------------------------
# Shared helpers


def identifier(name: str) -> str:
    """The emitter's C++ identifier for an LIR name (CudaEmitter.cpp):
    `lhs_ring.full` -> `lhs_ring_full`, `gemm::gemm` -> `gemm_gemm`."""
    out = ""
    for c in name:
        if c.isalnum() or c == "_":
            out += c
        elif out and out[-1] != "_":
            out += "_"
    out = out.rstrip("_")
    if not out or out[0].isdigit():
        out = "_" + out
    return out


class ExprError(Exception):
    pass


def _tree(text: str) -> ast.AST:
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise ExprError(f"cannot parse expression '{text}'") from e


def lir_expr(text: str) -> str:
    """The LIR's expression in the emitter's spelling, as a syntax tree."""
    t = re.sub(r"\b(\w+)\.extent\((\d+)\)", r"\1_extent\2", text)
    t = re.sub(r"\b(\w+)\.(\w+)\b", r"\1_\2", t)
    t = re.sub(r"\bmin\(", "imin(", t)
    t = re.sub(r"\bmax\(", "imax(", t)
    return ast.dump(_tree(t))


def cu_expr(text: str) -> str:
    return ast.dump(_tree(text))


def evaluate(text: str, env: dict) -> int:
    """A C `int` expression of non-negative values (`/` floors)."""
    tree = _tree(text.replace("threadIdx.x", "threadIdx_x"))

    class Floor(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if isinstance(node.op, ast.Div):
                node.op = ast.FloorDiv()
            return node

    expr = ast.Expression(Floor().visit(tree))
    ast.fix_missing_locations(expr)
    return eval(compile(expr, "<expr>", "eval"), {"__builtins__": {}}, env)


def split_args(text: str) -> list[str]:
    """Top-level comma-separated pieces of `text`."""
    out, depth, cur = [], 0, ""
    for c in text:
        if c in "([{":
            depth += 1
        if c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_tuple(text: str):
    """`((2,8,8),(4,16))` -> nested tuples of ints; `(64)` -> 64."""
    return ast.literal_eval(text)


def flatten(t) -> list[int]:
    if isinstance(t, int):
        return [t]
    return [x for s in t for x in flatten(s)]


def cosize(layout: str) -> int:
    """Elements a layout `SHAPE:STRIDE[ | Swizzle(..)]` spans: 1 + sum of
    (extent - 1) * stride over its leaves (a swizzle permutes inside that
    span)."""
    core = layout.split("|")[0].strip()
    shape, stride = core.split(":")
    s, d = flatten(parse_tuple(shape)), flatten(parse_tuple(stride))
    if len(s) != len(d):
        raise ExprError(f"layout '{layout}' has {len(s)} extents and {len(d)} strides")
    return 1 + sum((a - 1) * abs(b) for a, b in zip(s, d))


ELEMENT_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "tf32": 4, "f64": 8, "i8": 1,
                 "u8": 1, "i32": 4, "u32": 4, "fp8_e4m3": 1, "fp8_e5m2": 1}
SWIZZLE = {"none": "none", "32B": "bytes32", "64B": "bytes64", "128B": "bytes128"}
MBARRIER_BYTES = 8  # sizeof(tf::sm90::Mbarrier), one 64-bit object


class Problems:
    def __init__(self, kernel: str):
        self.kernel = kernel
        self.items: list[str] = []

    def add(self, what: str, lir: str | None = None, cu: str | None = None):
        line = f"{self.kernel}: {what}"
        if lir is not None:
            line += f"\n    LIR: {lir}"
        if cu is not None:
            line += f"\n    CU:  {cu}"
        self.items.append(line)

    def eq(self, what, lir_value, cu_value, lir_text=None, cu_text=None):
        if lir_value != cu_value:
            self.add(f"{what}: LIR has {lir_value!r}, the CUDA file {cu_value!r}",
                     lir_text, cu_text)
            return False
        return True

    def expr_eq(self, what, lir_text: str, cu_text: str, context_lir=None,
                context_cu=None):
        try:
            same = lir_expr(lir_text) == cu_expr(cu_text)
        except ExprError as e:
            self.add(f"{what}: {e}", context_lir, context_cu)
            return False
        if not same:
            self.add(f"{what}: LIR has '{lir_text}', the CUDA file '{cu_text}'",
                     context_lir, context_cu)
        return same


# --------------------------------------------------------------------------
# The lowered form


@dataclass
class Region:
    offset: int
    name: str
    barrier: bool
    element: str = ""
    layout: str = ""
    shape: tuple = ()
    size: int = 0
    align: int = 0
    text: str = ""


@dataclass
class LirKernel:
    name: str
    mangled: str = ""
    params: list = field(default_factory=list)  # (name, dtype)
    grid: str = ""
    persistent: bool = False
    cluster: int = 1  # CTAs per cluster (`cluster=(N)`), 1 without clusters
    block: int = 0
    smem: int = 0
    align: int = 0
    launch_text: str = ""
    maps: list = field(default_factory=list)  # (tensor, dtype, box, swizzle, text, order)
    regions: list = field(default_factory=list)
    barriers: list = field(default_factory=list)  # (name, count, arrivals, tx, text)
    body: list = field(default_factory=list)  # (indent, text)


def parse_lir(text: str) -> list[LirKernel]:
    kernels: list[LirKernel] = []
    section = None
    for raw in text.splitlines():
        if not raw.strip():
            continue
        if m := re.fullmatch(r"kernel (\S+) at \S+ on \S+", raw):
            kernels.append(LirKernel(m.group(1)))
            section = None
            continue
        if not kernels:
            raise SystemExit(f"cross_check: not the output of tf finalize: {raw}")
        k = kernels[-1]
        line = raw.strip()
        if section == "body" and raw.startswith("    "):
            k.body.append((len(raw) - len(raw.lstrip()), line))
            continue
        if m := re.fullmatch(r"mangled (\S+)", line):
            k.mangled = m.group(1)
        elif line.startswith("params"):
            k.params = [tuple(p.split(":")) for p in line.split()[1:]]
        elif m := re.fullmatch(
                r"launch grid=\((.*?)\)( persistent)?(?: cluster=\((\d+)\))? "
                r"block=\((\d+)\) dynamic_smem=(\d+) of \d+ \(cta\.shared_memory\.max\), "
                r"base aligned to (\d+)", line):
            k.grid, k.persistent = m.group(1), bool(m.group(2))
            k.cluster = int(m.group(3) or 1)
            k.block, k.smem, k.align = int(m.group(4)), int(m.group(5)), int(m.group(6))
            k.launch_text = line
        elif line in ("tensor maps", "shared memory", "barriers", "body"):
            section = line
        elif section == "tensor maps" and (m := re.fullmatch(
                r"map(\d+) = tensor_map\((\S+), (\w+), box=\(([\d,]+)\), "
                r"(?:order=\(([\d,]+)\), )?swizzle=(\w+)\)", line)):
            if int(m.group(1)) != len(k.maps):
                raise SystemExit(f"cross_check: maps out of order: {line}")
            box = [int(b) for b in m.group(4).split(",")]
            # No order printed: the tensor's own (identity).
            order = ([int(d) for d in m.group(5).split(",")] if m.group(5)
                     else list(range(len(box))))
            k.maps.append((m.group(2), m.group(3), box, m.group(6), line, order))
        elif section == "shared memory" and (m := re.fullmatch(
                r"(\d+) (\S+) = (?:(mbarrier\(\))|tensor_view\((\d+), (\w+), smem, "
                r"(.*), shape=\(([\d,]+)\)\))  # (\d+) bytes, align (\d+) \(.*\)", line)):
            r = Region(int(m.group(1)), m.group(2), bool(m.group(3)),
                       size=int(m.group(8)), align=int(m.group(9)), text=line)
            if not r.barrier:
                if int(m.group(4)) != r.offset:
                    raise SystemExit(f"cross_check: two offsets in: {line}")
                r.element, r.layout = m.group(5), m.group(6)
                r.shape = tuple(int(s) for s in m.group(7).split(","))
            k.regions.append(r)
        elif section == "barriers" and (m := re.fullmatch(
                r"(\S+)\[(\d+)\] arrivals=(\d+)(?: expect_tx=(\d+))?", line)):
            k.barriers.append((m.group(1), int(m.group(2)), int(m.group(3)),
                               int(m.group(4) or 0), line))
        else:
            raise SystemExit(f"cross_check: unrecognised LIR line: {raw}")
    return kernels


def lir_events(k: LirKernel) -> list[tuple]:
    """The body as a flat list of events; blocks end with ('end',)."""
    ev = []
    for _, line in k.body:
        t = line
        if t == "}":
            ev.append(("end", t))
        elif m := re.fullmatch(r"scope thread\[(\d+):(\d+)\] (\w+)(?: = (.*))? \{", t):
            ev.append(("role", t, int(m.group(1)), int(m.group(2)), m.group(3),
                       m.group(4) or ""))
        elif m := re.fullmatch(r"for task in range\((.*)\)  # (persistent_tiles|grid_tiles: "
                               r"one tile per CTA), group_m=(\d+)"
                               r"(?:, clusters of (\d+) CTAs along M)? \{", t):
            a = split_args(m.group(1))
            # The tile loop's cluster (1 when not printed), last.
            ev.append(("for", t, "task", a[0], a[1], a[2], int(m.group(4) or 1)))
        elif m := re.fullmatch(r"for (\w+) in range\((.*)\) \{", t):
            a = split_args(m.group(2))
            ev.append(("for", t, m.group(1), a[0], a[1], a[2]))
        elif m := re.fullmatch(r"let (\w+) = (.*)", t):
            ev.append(("let", t, m.group(1), m.group(2)))
        elif m := re.fullmatch(r"mbarrier\.init (\S+)\[0:(\d+)\], arrivals=(\d+)", t):
            ev.append(("init", t, m.group(1), int(m.group(2)), int(m.group(3))))
        elif t.startswith("fence.mbarrier_init; bar.sync 0"):
            ev.append(("fence_init", t))
        elif t == "barrier.cluster  # every thread of the cluster":
            ev.append(("cluster_sync", t))
        elif m := re.fullmatch(r"mbarrier\.try_wait\.parity (\S+?)\[(.*)\], parity=(.*)", t):
            ev.append(("wait", t, m.group(1), m.group(2), m.group(3)))
        elif m := re.fullmatch(r"mbarrier\.arrive\.expect_tx (\S+?)\[(.*)\], tx=(\d+)", t):
            ev.append(("expect_tx", t, m.group(1), m.group(2), int(m.group(3))))
        elif m := re.fullmatch(r"mbarrier\.arrive (\S+?)\[(.*?)\]"
                               r"( of cluster rank r, by thread r of each warpgroup)?"
                               r"(?:  # by thread (\d+))?", t):
            # Last: whether it is the cluster-wide release of a multicast
            # ring (thread r of each warpgroup on rank r's object).
            ev.append(("arrive", t, m.group(1), m.group(2),
                       int(m.group(4)) if m.group(4) else None, bool(m.group(3))))
        elif m := re.fullmatch(
                r"cp\.async\.bulk\.tensor\.load map(\d+) (\S+?)\[(.*)\] -> "
                r"(\S+?)(?:\[(.*)\])? \+ (\d+), (\S+?)\[(.*)\]"
                r"(?: multicast to (\d+) CTAs by rank (\d+))?"
                r"(?: \{([^{}]*)\})?  # (\d+) bytes", t):
            params = dict(p.split("=", 1) for p in m.group(11).split(", ")) \
                if m.group(11) else {}
            ev.append(("tma_load", t, dict(
                map=int(m.group(1)), tensor=m.group(2), coords=split_args(m.group(3)),
                view=m.group(4), slot=m.group(5), offset=int(m.group(6)),
                bar=m.group(7), bar_slot=m.group(8),
                multicast=int(m.group(9) or 1),
                issuer=int(m.group(10)) if m.group(10) else None,
                multicast_param=params.get("multicast"), bytes=int(m.group(12)))))
        elif m := re.fullmatch(
                r"cp\.async\.bulk\.tensor\.store map(\d+) (\S+?)(?:\[(.*)\])? \+ (\d+) -> "
                r"(\S+?)\[(.*)\]" + PARAMS + r"  # (\d+) bytes", t):
            ev.append(("tma_store", t, dict(
                map=int(m.group(1)), view=m.group(2), slot=m.group(3),
                offset=int(m.group(4)), tensor=m.group(5),
                coords=split_args(m.group(6)), bytes=int(m.group(7)))))
        elif t == "cp.async.bulk.commit_group":
            ev.append(("bulk_commit", t))
        elif m := re.fullmatch(r"cp\.async\.bulk\.wait_group\.read (\d+)", t):
            ev.append(("bulk_wait_read", t, int(m.group(1))))
        elif m := re.fullmatch(r"zero (\w+)", t):
            ev.append(("zero", t, m.group(1)))
        elif t == "wgmma.fence":
            ev.append(("wgmma_fence", t))
        elif t == "wgmma.commit_group":
            ev.append(("wgmma_commit", t))
        elif m := re.fullmatch(r"wgmma\.wait_group (\d+)", t):
            ev.append(("wgmma_wait", t, int(m.group(1))))
        elif t.startswith("wgmma.mma_async"):
            w = parse_lir_wgmma(t)
            if ev and ev[-1][0] == "wgmma_run":
                ev[-1][2].append(w)
            else:
                ev.append(("wgmma_run", t, [w]))
        elif m := re.fullmatch(r"st\.shared((?: \w+(?:\.\w+)?)*?) cvt\.(\w+) (\w+) -> (\S+)"
                               r"  # per thread as (.*?)"
                               r"(?:, (\d+) x (\d+) blocks of \d+ x \d+ per warpgroup)?", t):
            epilogue = m.group(1).split()
            # The atom blocks each warpgroup holds, rows x columns.
            blocks = (int(m.group(6)), int(m.group(7))) if m.group(6) else (1, 1)
            ev.append(("store_fragment", t, m.group(2), m.group(3), m.group(4), m.group(5),
                       epilogue, blocks))
        elif t == "fence.proxy.async.shared::cta":
            ev.append(("fence_proxy", t))
        elif m := re.fullmatch(r"bar\.sync (\d+), (\d+)", t):
            ev.append(("named_barrier", t, int(m.group(1)), int(m.group(2))))
        else:
            raise SystemExit(f"cross_check: unrecognised LIR instruction: {t}")
    return ev


# The contract parameters an atom call records: ` {n=256, a_major=K, ...}`.
PARAMS = r"(?: \{[^{}]*\})?"

DESC = (r"desc\((\S+?)(?:\[(.*?)\])? \+ (\d+), lbo=(\w+), sbo=(\d+), "
        r"base_offset=(\d+), swizzle=(\w+)\)")


def parse_lir_wgmma(t: str) -> dict:
    m = re.fullmatch(r"(wgmma\.mma_async\.\S+) (\w+)=(\d+) k=(\d+) (\w+)\[(\d+)\], "
                     + DESC + ", " + DESC + r", tnsp_a=(\d), tnsp_b=(\d)(?: \{([^{}]*)\})?", t)
    if not m:
        raise SystemExit(f"cross_check: unrecognised WGMMA: {t}")
    g = m.groups()
    # The recorded parameters must name the instruction's N.
    params = dict(p.split("=", 1) for p in g[22].split(", ")) if g[22] else {}
    n = re.search(r"\.m64n(\d+)k", g[0])
    if "n" not in params or not n or params["n"] != n.group(1):
        raise SystemExit(f"cross_check: WGMMA parameters {params} do not name its N: {t}")

    def desc(i):
        return dict(ring=g[i], slot=g[i + 1], start=int(g[i + 2]),
                    lbo=None if g[i + 3] == "unused" else int(g[i + 3]),
                    sbo=int(g[i + 4]), base=int(g[i + 5]), swizzle=g[i + 6])

    return dict(text=t, opcode=g[0], axis=g[1], axis_value=int(g[2]), k=int(g[3]),
                acc=g[4], block=int(g[5]), a=desc(6), b=desc(13),
                tnsp_a=int(g[20]), tnsp_b=int(g[21]))


# --------------------------------------------------------------------------
# The CUDA file


@dataclass
class Stmt:
    code: str
    comments: list
    line: int
    children: list | None = None  # a block's statements

    def __str__(self):
        return f"{self.line}: {self.code}" + (
            f"  // {' // '.join(self.comments)}" if self.comments else "")


def _code_and_comment(line: str) -> tuple[str, str]:
    in_str = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_str = not in_str
        if not in_str and line.startswith("//", i):
            return line[:i].rstrip(), line[i + 2:].strip()
    return line, ""


def statements(lines: list[str], first_line: int) -> list[Stmt]:
    """The lines as statements (continuation lines joined, trailing comments
    kept) in a tree of `{ }` blocks. A comment line is a statement of its
    own with empty code."""
    flat: list[Stmt] = []
    buf, comments, start = "", [], 0
    for i, raw in enumerate(lines):
        code, comment = _code_and_comment(raw.strip())
        if not code and not buf:
            if comment:
                flat.append(Stmt("", [comment], first_line + i))
            continue
        if not buf:
            start = first_line + i
        buf = (buf + " " + code).strip() if buf else code
        if comment:
            comments.append(comment)
        depth = buf.count("(") - buf.count(")")
        aggregate = re.search(r"= \{$", buf) or (buf.count("{") > buf.count("}") and
                                                 "= {" in buf)
        done = depth == 0 and not aggregate and (
            buf.endswith((";", "{", "}")) or buf.startswith("#"))
        if aggregate and buf.endswith("};"):
            done = True
        if done:
            flat.append(Stmt(buf, comments, start))
            buf, comments = "", []
    if buf:
        flat.append(Stmt(buf, comments, start))

    root: list[Stmt] = []
    stack = [root]
    for s in flat:
        if s.code.startswith("}"):
            if len(stack) > 1:
                stack.pop()
            continue
        stack[-1].append(s)
        if s.code.endswith("{"):
            s.children = []
            stack.append(s.children)
    return root


@dataclass
class CuKernel:
    ident: str
    name: str = ""
    text: str = ""
    start_line: int = 0
    consts: dict = field(default_factory=dict)  # name -> (value, comment, line)
    layouts: dict = field(default_factory=dict)  # region -> (layout, shape, element)
    descs: dict = field(default_factory=dict)  # name -> (lbo|None, sbo, swizzle, base, text)
    tables: dict = field(default_factory=dict)  # name -> [values] of a constant array
    signature: list = field(default_factory=list)
    cluster_dims: tuple | None = None  # __cluster_dims__(x, y, z), None without
    body: list = field(default_factory=list)  # Stmt tree of the __global__ function
    launcher: list = field(default_factory=list)  # Stmt list of launch()
    mangled: str = ""


def parse_cu(text: str) -> dict[str, CuKernel]:
    lines = text.splitlines()
    mangled = dict(re.findall(r'^void (\w+)\(\) __asm__\("(\S+)"\);$', text, re.M))
    kernels: dict[str, CuKernel] = {}
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"namespace tf_generated::(\w+) \{", lines[i])
        if not m or m.group(1) == "user":
            i += 1
            continue
        ident = m.group(1)
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j] == f"}} // namespace tf_generated::{ident}"), len(lines))
        k = CuKernel(ident, start_line=i + 2)
        k.mangled = mangled.get(ident, "")
        block = lines[i + 1:end]
        k.text = "\n".join(block)
        parse_cu_kernel(k, statements(block, i + 2))
        kernels[k.name or ident] = k
        i = end + 1
    return kernels


def parse_cu_kernel(k: CuKernel, tree: list[Stmt]):
    def walk(stmts, depth=0):
        for s in stmts:
            yield s, depth
            if s.children is not None and not s.code.startswith(("__global__", "void launch(")):
                yield from walk(s.children, depth + 1)

    pending_layout = None
    for s, _ in walk(tree):
        code = s.code
        if not code:
            if m := re.fullmatch(r"(\w+): (.*), ([\d x]+) (\w+)", s.comments[0]):
                pending_layout = m
            continue
        if m := re.fullmatch(r"constexpr (?:int|std::uint32_t) (\w+) = (\d+);", code):
            k.consts[m.group(1)] = (int(m.group(2)), " ".join(s.comments), s)
            if pending_layout and m.group(1) == pending_layout.group(1) + "_offset":
                p = pending_layout
                k.layouts[p.group(1)] = (p.group(2), tuple(
                    int(x) for x in p.group(3).split(" x ")), p.group(4))
            pending_layout = None
        elif m := re.fullmatch(
                r"__device__ constexpr sm90::SmemDescriptor (\w+) = "
                r"sm90::SmemDescriptor::make\( ?0, (16 /\* LBO unused by this layout \*/|\d+), "
                r"(\d+), sm90::SmemSwizzle::(\w+), (\d+)\);", code.replace("( ", "(")):
            lbo = None if "unused" in m.group(2) else int(m.group(2))
            k.descs[m.group(1)] = (lbo, int(m.group(3)), m.group(4), int(m.group(5)), str(s))
        elif m := re.fullmatch(r"__device__ constexpr std::uint32_t (\w+)\[(\d+)\] = "
                               r"\{([\d, ]*)\};", code):
            values = [int(x) for x in m.group(3).replace(" ", "").split(",") if x]
            if len(values) != int(m.group(2)):
                raise SystemExit(f"cross_check: {m.group(1)} has {len(values)} values, "
                                 f"not {m.group(2)}: {s}")
            k.tables[m.group(1)] = values
        elif code.startswith("__global__"):
            m = re.fullmatch(r"__global__ void __launch_bounds__\(block_threads, resident_ctas\) "
                             r"(?:__cluster_dims__\((\d+), (\d+), (\d+)\) )?"
                             r"(\w+)\((.*)\) \{", code)
            if not m or m.group(4) != k.ident:
                raise SystemExit(f"cross_check: unrecognised kernel signature: {s}")
            if m.group(1):
                k.cluster_dims = tuple(int(x) for x in m.group(1, 2, 3))
            k.signature = split_args(m.group(5))
            k.body = s.children
        elif code.startswith("void launch("):
            k.launcher = s.children
            for t in s.children:
                if m := re.fullmatch(r'const tf::runtime::CudaCheck check\{"(.*)"\};', t.code):
                    k.name = m.group(1)


# --------------------------------------------------------------------------
# The CUDA body as events


def parse_mesh(mesh: str):
    """`Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, ...)` -> per
    thread index, its coordinate per axis name."""
    m = re.fullmatch(r"Mesh\(\w+, (\S+?):(\S+?)(?: \+ (\d+))?((?:, \w+)*)\)", mesh)
    if not m:
        return None
    shape, stride = parse_tuple(m.group(1)), parse_tuple(m.group(2))
    offset = int(m.group(3) or 0)
    names = [n.strip() for n in m.group(4).split(",") if n.strip()]
    if isinstance(shape, int):
        shape, stride = (shape,), (stride,)
    modes = []  # per mode, the offset of each of its coordinates
    for s, d in zip(shape, stride):
        ls, ld = flatten(s), flatten(d)
        # A nested mode's coordinate is colexicographic (first leaf
        # fastest): itertools.product varies its last factor fastest, so
        # the leaves go in reversed.
        modes.append([sum(c * x for c, x in zip(reversed(coords), ld))
                      for coords in itertools.product(*[range(e) for e in reversed(ls)])])
    table = {}
    for combo in itertools.product(*[range(len(p)) for p in modes]):
        t = offset + sum(modes[i][c] for i, c in enumerate(combo))
        table[t] = dict(zip(names, combo))
    return table


class CuWalker:
    """Turns the CUDA body's statement tree into the LIR's events."""

    def __init__(self, k: CuKernel, problems: Problems, lir: LirKernel):
        self.k, self.p, self.lir = k, problems, lir
        self.role = None

    def events(self, stmts: list[Stmt]) -> list[tuple]:
        ev = []
        i = 0
        comment = None
        while i < len(stmts):
            s = stmts[i]
            c = s.code
            i += 1
            if not c:
                comment = s.comments[0]
                continue
            last_comment, comment = comment, None
            if c.startswith("#pragma") or c.startswith("extern __shared__") or \
                    c == "const int cta_x = blockIdx.x;":
                continue
            if m := re.fullmatch(r"sm90::Mbarrier \*const (\w+) = reinterpret_cast"
                                 r"<sm90::Mbarrier \*>\(smem \+ (\w+)_offset\);", c):
                ev.append(("mbarrier_ptr", s, m.group(1), m.group(2)))
                continue
            if m := re.fullmatch(r"if \(threadIdx\.x == (\d+)\) \{", c):
                ev += self.role_events(s, int(m.group(1)), int(m.group(1)) + 1, last_comment)
                continue
            if m := re.fullmatch(r"if \(threadIdx\.x >= (\d+) && threadIdx\.x < (\d+)\) \{", c):
                ev += self.role_events(s, int(m.group(1)), int(m.group(2)), last_comment)
                continue
            if m := re.fullmatch(r"for \(int (\w+) = (.*); \1 < (.*); \1 \+= (.*)\) \{", c):
                ev.append(("for", s, m.group(1), m.group(2), m.group(3), m.group(4)))
                ev += self.events(s.children)
                ev.append(("end", s))
                continue
            if m := re.fullmatch(r"for \(int s = 0; s < (\d+); \+\+s\) (\w+)\[s\]\.init\((\d+)\);", c):
                ev.append(("init", s, m.group(2), int(m.group(1)), int(m.group(3))))
                continue
            if c == "sm90::fence_barrier_init();":
                nxt = stmts[i].code if i < len(stmts) else ""
                if nxt != "__syncthreads();":
                    self.p.add("fence_barrier_init is not followed by __syncthreads()", None, str(s))
                else:
                    i += 1
                ev.append(("fence_init", s))
                continue
            if m := re.fullmatch(r"const int (\w+ = .*);", c):
                if "threadIdx.x" in c:
                    self.coordinates(s, m.group(1))
                    continue
                m = re.fullmatch(r"const int (\w+) = (.*);", c)
                ev.append(("let", s, m.group(1), m.group(2)))
                continue
            elected = None
            if m := re.match(r"if \(threadIdx\.x == (\d+)\) (.*)", c):
                elected, c = int(m.group(1)), m.group(2)
            if m := re.fullmatch(r'(\w+)\[(.*)\]\.wait<waits>\((.*), "(.*)"\);', c):
                ev.append(("wait", s, m.group(1), m.group(2), m.group(3), m.group(4), elected))
            elif m := re.fullmatch(r"(\w+)\[(.*)\]\.arrive_expect_tx\((\d+)\);", c):
                ev.append(("expect_tx", s, m.group(1), m.group(2), int(m.group(3)), elected))
            elif m := re.fullmatch(r"(\w+)\[(.*)\]\.arrive\(\);", c):
                ev.append(("arrive", s, m.group(1), m.group(2), elected, None))
            elif m := re.fullmatch(r"if \(threadIdx\.x % (\d+) < (\d+)\) "
                                   r"(\w+)\[(.*)\]\.arrive_cluster\((.*)\);", c):
                # Thread r (< the cluster size) of each warpgroup arrives on
                # the object of the CTA of cluster rank r.
                ev.append(("arrive", s, m.group(3), m.group(4), elected, dict(
                    warpgroup=int(m.group(1)), ranks=int(m.group(2)), rank=m.group(5))))
            elif m := re.fullmatch(r"tma::(load|store)\((.*)\);", c):
                ev.append(self.tma(s, m.group(1), split_args(m.group(2)), elected))
            elif m := re.fullmatch(r"if \(cta_x % (\d+) == (\d+)\) "
                                   r"tma::load_multicast\((.*)\);", c):
                # Issued by the CTA of that cluster rank only; the CTA mask
                # is the fourth argument.
                args = split_args(m.group(3))
                ev.append(self.tma(s, "load", args[:3] + args[4:], elected, dict(
                    ranks=int(m.group(1)), issuer=int(m.group(2)),
                    mask=args[3] if len(args) > 3 else None)))
            elif c == "sm90::cluster_sync();":
                ev.append(("cluster_sync", s))
            elif c == "tma::commit_group();":
                ev.append(("bulk_commit", s))
            elif m := re.fullmatch(r"tma::wait_group_read<(\d+)>\(\);", c):
                ev.append(("bulk_wait_read", s, int(m.group(1))))
            elif m := re.fullmatch(r"float (\w+)\[(\d+)\]\[(\d+)\];", c):
                # the zeroing loop follows
                nxt = [t.code for t in stmts[i:i + 2]]
                zero = f"for (int i = 0; i < {m.group(3)}; ++i) {m.group(1)}"
                want = [f"{zero}[0][i] = 0.0f;" if m.group(2) == "1" else
                        f"for (int b = 0; b < {m.group(2)}; ++b) #pragma unroll "
                        f"{zero}[b][i] = 0.0f;"]
                if nxt[:1] == ["#pragma unroll"]:
                    nxt = nxt[1:]
                    i += 1
                if nxt[:1] != want:
                    self.p.add(f"accumulator {m.group(1)} is not zeroed", None, str(s))
                else:
                    i += 1
                ev.append(("zero", s, m.group(1), int(m.group(2)), int(m.group(3))))
            elif c == "wgmma::fence();":
                ev.append(("wgmma_fence", s))
            elif c == "wgmma::commit_group();":
                ev.append(("wgmma_commit", s))
            elif m := re.fullmatch(r"wgmma::wait_group<(\d+)>\(\);", c):
                ev.append(("wgmma_wait", s, int(m.group(1))))
            elif c == "tma::fence_proxy_async_shared();":
                ev.append(("fence_proxy", s))
            elif m := re.fullmatch(r"sm90::named_barrier_sync\((\d+), (\d+)\);", c):
                ev.append(("named_barrier", s, int(m.group(1)), int(m.group(2))))
            elif c == "{":
                ev.append(self.block(s))
            else:
                self.p.add("a statement the checker does not know", None, str(s))
                ev.append(("unknown", s))
            if elected is not None and ev[-1][0] != "arrive":
                if self.role and not (self.role[0] <= elected < self.role[1]):
                    self.p.add(f"elected thread {elected} is outside the role "
                               f"thread[{self.role[0]}:{self.role[1]}]", None, str(s))
        return ev

    def role_events(self, s: Stmt, begin: int, end: int, comment: str | None):
        name, mesh = "", ""
        if comment and (m := re.fullmatch(r"(\w+)(?: = (.*))?", comment)):
            name, mesh = m.group(1), m.group(2) or ""
        saved = self.role
        self.role = (begin, end, mesh)
        ev = [("role", s, begin, end, name, mesh)]
        ev += self.events(s.children)
        ev.append(("end", s))
        self.role = saved
        return ev

    def coordinates(self, s: Stmt, decls: str):
        """`group = (threadIdx.x - 128) / 128` (and the warp, lane8, lane4
        line): the thread's coordinates, checked for every thread of the
        role against the LIR mesh and PTX's warpgroup fragment."""
        if not self.role:
            self.p.add("thread coordinates outside a role", None, str(s))
            return
        begin, end, mesh = self.role
        table = parse_mesh(mesh) if mesh else None
        ptx = {"warp": lambda t: (t // 32) % 4, "lane8": lambda t: (t % 32) // 4,
               "lane4": lambda t: t % 4}
        for decl in re.split(r",\s*(?=\w+ = )", decls):
            name, expr = [x.strip() for x in decl.split("=", 1)]
            for t in range(begin, end):
                got = evaluate(expr, {"threadIdx_x": t})
                want = None
                if table is not None and t in table and name in table[t]:
                    want = table[t][name]
                elif name in ptx:
                    want = ptx[name](t)
                if want is None:
                    self.p.add(f"coordinate '{name}' is no axis of the role's mesh {mesh}",
                               None, str(s))
                    break
                if name in ptx and ptx[name](t) != got:
                    self.p.add(f"coordinate {name} of thread {t} is {got}, PTX's "
                               f"wgmma fragment has {ptx[name](t)}", None, str(s))
                    break
                if got != want:
                    self.p.add(f"coordinate {name} of thread {t} is {got}, the mesh "
                               f"{mesh} has {want}", None, str(s))
                    break

    def address(self, s: Stmt, text: str):
        """`smem + R_offset + (SLOT) * R_stage_bytes + OFF` -> (R, SLOT, OFF)."""
        m = re.fullmatch(r"smem \+ (\w+)_offset(?: \+ \((.*)\) \* (\w+)_stage_bytes)?"
                         r"(?: \+ (\d+))?", text)
        if not m:
            self.p.add(f"unrecognised shared address '{text}'", None, str(s))
            return None, None, 0
        if m.group(3) and m.group(3) != m.group(1):
            self.p.add(f"stage of {m.group(3)} added to {m.group(1)}'s offset", None, str(s))
        return m.group(1), m.group(2), int(m.group(4) or 0)

    def tma(self, s: Stmt, kind: str, args: list[str], elected, multicast=None):
        b = re.search(r"(\d+) bytes", " ".join(s.comments))
        d = dict(bytes=int(b.group(1)) if b else None, elected=elected,
                 multicast=multicast)
        if kind == "load":
            d["view"], d["slot"], d["offset"] = self.address(s, args[0])
            d["map"] = args[1]
            m = re.fullmatch(r"(\w+)\[(.*)\]", args[2])
            d["bar"], d["bar_slot"] = (m.group(1), m.group(2)) if m else (args[2], None)
            d["coords"] = args[3:]
        else:
            d["map"] = args[0]
            d["view"], d["slot"], d["offset"] = self.address(s, args[1])
            d["coords"] = args[2:]
        return ("tma_" + kind, s, d)

    def block(self, s: Stmt):
        kids = [t for t in s.children if t.code]
        if any("a_slot" in t.code for t in kids):
            return ("wgmma_run", s, self.wgmma_block(s, kids))
        notes = " ".join(c for t in s.children for c in t.comments)
        if "cast to" in notes:
            return ("store_fragment", s, self.store_block(s))
        self.p.add("a block the checker does not know", None, str(s))
        return ("unknown", s)

    def wgmma_block(self, s: Stmt, kids: list[Stmt]) -> dict:
        run = dict(slots={}, calls=[])
        for t in kids:
            if m := re.fullmatch(r"const std::uint32_t ([ab])_slot = sm90::smem_address\((.*?)\)"
                                 r"(?: \+ (\w+) \* (\d+))?;", t.code):
                ring, slot, off = self.address(t, m.group(2))
                if off:
                    self.p.add("an operand slot with a constant offset", None, str(t))
                run["slots"][m.group(1)] = dict(ring=ring, slot=slot, axis=m.group(3),
                                                stride=int(m.group(4) or 0), stmt=t)
            elif m := re.fullmatch(
                    r"wgmma::mma<(\d+), wgmma::Type::(\w+), wgmma::Type::(\w+), "
                    r"wgmma::Major::(k|mn), wgmma::Major::(k|mn)>\( ?"
                    r"(\w+)\[(\d+)\], (\w+)\.advanced\(a_slot \+ (\d+)\), (\w+)\.advanced\("
                    r"b_slot \+ (\d+)\), wgmma::ScaleD::accumulate\);", t.code):
                ks = re.search(r"k-step (\d+)", " ".join(t.comments))
                run["calls"].append(dict(
                    n=int(m.group(1)), type_a=m.group(2), type_b=m.group(3),
                    tnsp_a=int(m.group(4) == "mn"), tnsp_b=int(m.group(5) == "mn"),
                    acc=m.group(6), block=int(m.group(7)), desc_a=m.group(8),
                    start_a=int(m.group(9)), desc_b=m.group(10), start_b=int(m.group(11)),
                    k=int(ks.group(1)) if ks else None, stmt=t))
            else:
                self.p.add("a statement the checker does not know in a WGMMA block",
                           None, str(t))
        return run

    def store_block(self, s: Stmt) -> dict:
        def descendants(t: Stmt) -> list[Stmt]:
            # The store sits in the loop over pairs, inside one over blocks
            # when a warpgroup holds several.
            return [t] + [u for c in (t.children or []) for u in descendants(c)]

        d = dict(stmt=s)
        for t in s.children:
            for c in t.comments:
                if m := re.fullmatch(r"(?:(.*), then )?cast to (\w+), stored as the "
                                     r"accumulator's shard (.*) puts it", c):
                    d["epilogue_comment"] = m.group(1).split(", then ") if m.group(1) else []
                    d["dtype"], d["shard"] = m.group(2), m.group(3)
            if m := re.fullmatch(r"const std::uint32_t base = (.*);", t.code):
                d["base"] = m.group(1)
            for u in descendants(t):
                if m := re.fullmatch(r"for \(int b = 0; b < (\d+); \+\+b\) \{?", u.code):
                    d["blocks"] = int(m.group(1))
                if m := re.fullmatch(
                        r"\*reinterpret_cast<(\w+) \*>\(smem \+ (\w+)_offset \+ "
                        r"(?:sm90::swizzle<(\d+), (\d+), (\d+)>\()?base \+ (\w+)_pairs\[(.*?)\]\)?\)"
                        r" = (\w+)\((.*)\);", u.code):
                    args = split_args(m.group(9))
                    d.update(word=m.group(1), view=m.group(2),
                             swizzle=tuple(int(x) for x in m.group(3, 4, 5)) if m.group(3) else None,
                             pairs=m.group(6), pair_index=m.group(7), convert=m.group(8),
                             args=args)
        return d


# --------------------------------------------------------------------------
# The comparison


def check_kernel(lir: LirKernel, cu: CuKernel) -> list[str]:
    p = Problems(lir.name)
    consts = cu.consts

    def const(name, lir_text=None):
        if name not in consts:
            p.add(f"no constant {name} in the CUDA file", lir_text)
            return None
        return consts[name][0]

    # Launch shape and identity.
    p.eq("mangled name", lir.mangled, cu.mangled)
    p.eq("block threads", lir.block, const("block_threads"), lir.launch_text)
    p.eq("shared_bytes (dynamic shared memory)", lir.smem, const("shared_bytes"),
         lir.launch_text)
    p.eq("shared_align (base alignment)", lir.align, const("shared_align"), lir.launch_text)
    # Clusters: the kernel's attribute forms them on every launch, along x
    # (a CTA's cluster rank is cta_x % N); none without clusters.
    p.eq("cluster dims (__cluster_dims__)", (lir.cluster, 1, 1) if lir.cluster > 1 else None,
         cu.cluster_dims, lir.launch_text)
    if lir.cluster > 1 and re.fullmatch(r"\d+", lir.grid) and int(lir.grid) % lir.cluster:
        p.add(f"grid {lir.grid} is no whole number of clusters of {lir.cluster}",
              lir.launch_text)

    # Shared memory: regions in the LIR's order.
    footprint = []  # (offset, end, name) as the CUDA constants place them
    rings: dict[str, list[Region]] = {}
    for r in lir.regions:
        m = re.fullmatch(r"(.*)\[(\d+)\]", r.name)
        if r.barrier:
            continue
        if m:
            rings.setdefault(m.group(1), []).append(r)
        else:
            rings.setdefault(r.name, []).append(r)
    for base, stages in rings.items():
        ident = identifier(base)
        ring = re.fullmatch(r".*\[\d+\]", stages[0].name) is not None
        offset = const(f"{ident}_offset", stages[0].text)
        stage_bytes = const(f"{ident}_stage_bytes", stages[0].text) if ring else 0
        if offset is None or stage_bytes is None:
            continue
        layout = cu.layouts.get(ident)
        for s, r in enumerate(stages):
            if ring and r.name != f"{base}[{s}]":
                p.add(f"ring {base}'s stages are out of order", r.text)
            at = offset + s * stage_bytes
            p.eq(f"offset of {r.name}", r.offset, at, r.text,
                 f"{ident}_offset + {s} * {ident}_stage_bytes = {at}" if ring
                 else f"{ident}_offset = {at}")
            try:
                size = cosize(r.layout) * ELEMENT_BYTES[r.element]
            except (ExprError, KeyError, ValueError, SyntaxError) as e:
                p.add(f"size of {r.name}: cannot compute the layout's storage ({e})", r.text)
                size = r.size
            p.eq(f"size of {r.name} (its layout's storage)", r.size, size, r.text)
            if layout is None:
                p.add(f"no layout comment for {ident} in the CUDA file", r.text)
            else:
                p.eq(f"layout of {r.name}", r.layout, layout[0], r.text)
                p.eq(f"shape of {r.name}", r.shape, layout[1], r.text)
                p.eq(f"element type of {r.name}", r.element, layout[2], r.text)
            footprint.append((at, at + size, r.name))
        if ring and len(stages) > 1:
            p.eq(f"stage bytes of {base} (stage 1 - stage 0)",
                 stages[1].offset - stages[0].offset, stage_bytes, stages[1].text)
    # Barriers: the table, the arrays' offsets, every object's offset.
    barrier_regions = [r for r in lir.regions if r.barrier]
    for name, count, arrivals, tx, text in lir.barriers:
        ident = identifier(name)
        off = const(f"{ident}_offset", text)
        objs = [r for r in barrier_regions
                if re.fullmatch(re.escape(name) + r"\[\d+\]", r.name)]
        p.eq(f"objects of barrier {name}", count, len(objs), text)
        if off is None:
            continue
        for s, r in enumerate(objs):
            p.eq(f"offset of {r.name}", r.offset, off + MBARRIER_BYTES * s, r.text,
                 f"{ident}_offset + {MBARRIER_BYTES} * {s} = {off + MBARRIER_BYTES * s}")
            p.eq(f"size of {r.name}", r.size, MBARRIER_BYTES, r.text)
            footprint.append((off + MBARRIER_BYTES * s, off + MBARRIER_BYTES * (s + 1), r.name))
        comment = consts[f"{ident}_offset"][1]
        m = re.fullmatch(r"(\d+) mbarrier\(s\), (\d+) arrival\(s\)(?: \+ (\d+) transaction "
                         r"bytes)? per phase", comment)
        if not m:
            p.add(f"unrecognised comment of {ident}_offset", text, comment)
        else:
            p.eq(f"count of barrier {name}", count, int(m.group(1)), text, comment)
            p.eq(f"arrivals of barrier {name}", arrivals, int(m.group(2)), text, comment)
            p.eq(f"expect_tx bytes of barrier {name}", tx, int(m.group(3) or 0), text, comment)
    footprint.sort()
    for (a0, a1, an), (b0, b1, bn) in zip(footprint, footprint[1:]):
        if b0 < a1:
            p.add(f"{an} [{a0}, {a1}) and {bn} [{b0}, {b1}) overlap in the CUDA file's map")
    if footprint and const("shared_bytes") is not None and footprint[-1][1] > const("shared_bytes"):
        p.add(f"{footprint[-1][2]} ends at {footprint[-1][1]}, past shared_bytes")
    for at, _, name in footprint:
        region = next(r for r in lir.regions if r.name == name)
        if region.align and at % region.align:
            p.add(f"{name} at {at} is not aligned to {region.align}", region.text)

    # Descriptors: every one the CUDA file declares is used (checked with
    # the WGMMAs below); none is left over.
    used_descs: set[str] = set()

    # Tensor maps, from the launcher.
    launcher = cu.launcher
    map_names = []
    boxes = [(m.group(1), [int(x) for x in m.group(2).split(", ")], t)
             for t in launcher
             if (m := re.fullmatch(r"const std::uint32_t (\w+)_box\[\] = \{([\d, ]+)\};", t.code))]
    orders = {m.group(1): ([int(x) for x in m.group(2).split(", ")], t) for t in launcher
              if (m := re.fullmatch(r"const std::uint32_t (\w+)_order\[\] = \{([\d, ]+)\};",
                                    t.code))}
    makes = {m.group(1): (m.group(2), m.group(3), m.group(4), m.group(5), t) for t in launcher
             if (m := re.fullmatch(r"const CUtensorMap (\w+) = tf::runtime::cached_tensor_map\("
                                   r"(\w+), (\w+)_box, (\w+)_order, "
                                   r"tf::runtime::TmaSwizzle::(\w+), check\);",
                                   t.code))}
    tensors = {m.group(2): (int(m.group(1)), m.group(3), int(m.group(4)), t) for t in launcher
               if (m := re.fullmatch(r'const tf::runtime::TensorArg &\w+ = tf::runtime::'
                                     r'tensor_arg\(request, (\d+), "(\w+)", tf::DType::(\w+), '
                                     r'(\d+), check\);', t.code))}
    p.eq("number of tensor maps", len(lir.maps), len(boxes))
    for i, ((tensor, dtype, box, swz, text, order), (name, cbox, stmt)) in enumerate(
            zip(lir.maps, boxes)):
        map_names.append(name)
        p.eq(f"box extents of map{i} ({tensor}), outermost first", box, cbox, text, str(stmt))
        if name not in orders:
            p.add(f"map{i}: no box order array for {name}", text, str(stmt))
        else:
            corder, ostmt = orders[name]
            p.eq(f"box order of map{i} ({tensor}), outermost first", order, corder, text,
                 str(ostmt))
        if name not in makes:
            p.add(f"map{i}: no cached_tensor_map for {name}", text, str(stmt))
            continue
        mt, mbox, morder, mswz, mstmt = makes[name]
        p.eq(f"tensor of map{i}", identifier(tensor), mt, text, str(mstmt))
        p.eq(f"box array of map{i}", name, mbox, text, str(mstmt))
        p.eq(f"order array of map{i}", name, morder, text, str(mstmt))
        p.eq(f"swizzle of map{i}", SWIZZLE.get(swz, swz), mswz, text, str(mstmt))
        if tensor not in tensors:
            p.add(f"map{i}: no tensor_arg for {tensor}", text)
            continue
        pi, pdtype, rank, tstmt = tensors[tensor]
        p.eq(f"element type of map{i}", dtype, pdtype, text, str(tstmt))
        p.eq(f"rank of {tensor} (box rank of map{i})", len(box), rank, text, str(tstmt))
        params = [n for n, _ in lir.params]
        if tensor in params:
            p.eq(f"argument index of {tensor}", params.index(tensor), pi, text, str(tstmt))
            p.eq(f"element type of parameter {tensor}", dict(lir.params)[tensor], pdtype,
                 " ".join(f"{n}:{t}" for n, t in lir.params), str(tstmt))
    # The kernel takes the maps in the LIR's order, then the extents; the
    # launch passes the same.
    sig_maps = [m.group(1) for a in cu.signature
                if (m := re.fullmatch(r"const __grid_constant__ CUtensorMap (\w+)", a))]
    p.eq("tensor map parameters of the kernel", map_names, sig_maps)
    sig_names = [a.split()[-1] for a in cu.signature]
    call = next((t for t in launcher if re.match(rf"{cu.ident}<<<", t.code)), None)
    if call is None:
        p.add("no kernel launch in the launcher")
    else:
        m = re.fullmatch(rf"{cu.ident}<<<grid, block_threads, shared_bytes>>>\((.*)\);", call.code)
        p.eq("launch arguments", sig_names, split_args(m.group(1)) if m else None, None, str(call))
    m = next((m for t in launcher if (m := re.fullmatch(
        rf'check\.launch\("{cu.ident}<<<grid, (\d+), (\d+)>>>"\);', t.code))), None)
    if m:
        p.eq("block threads in the launch message", lir.block, int(m.group(1)))
        p.eq("shared bytes in the launch message", lir.smem, int(m.group(2)))
    lets = {m.group(1): (m.group(2), t) for t in launcher
            if (m := re.fullmatch(r"const int (\w+) = (.*);", t.code))}
    # The extents the kernel takes: `a_extent1` is a.extents[1].
    for name, (value, stmt) in lets.items():
        if m := re.fullmatch(r"(\w+)_extent(\d+)", name):
            p.eq(f"{name} in the launcher", f"static_cast<int>({m.group(1)}.extents"
                 f"[{m.group(2)}])", value, None, str(stmt))
    m = re.search(r"const tf::runtime::Registrar registrar\{\s*reinterpret_cast<const void \*>"
                  r"\(&tf_generated::user::(\w+)\), \"(.*?)\", &launch\};", cu.text)
    if not m:
        p.add("no registrar in the CUDA file")
    else:
        p.eq("registered kernel", (cu.ident, lir.name), (m.group(1), m.group(2)))
    if "topology" in lets:
        p.expr_eq("grid (CTA topology)", lir.grid, lets["topology"][0], lir.launch_text,
                  str(lets["topology"][1]))
    else:
        p.add("no topology in the launcher", lir.launch_text)
    if "grid" in lets:
        if lir.persistent and lir.cluster > 1:
            # The loop's tiles are super-tiles, one per cluster.
            want = f"imin(topology, tiles * {lir.cluster})"
            what = f"grid (persistent clusters: min(topology, tiles * {lir.cluster}))"
            note = (f"Persistent clusters: no more clusters than super-tiles (the "
                    f"loop's tiles); whole clusters of {lir.cluster} CTAs.")
        elif lir.persistent:
            want, what = "imin(topology, tiles)", "grid (persistent: min(topology, tiles))"
            note = "Persistent: no more CTAs than tiles."
        else:
            want, what, note = "tiles", "grid (persistent: min(topology, tiles))", None
        stmt = lets["grid"][1]
        p.eq(what, want, lets["grid"][0], lir.launch_text, str(stmt))
        if note is not None:
            # The comment lines right above the grid.
            at = next(i for i, t in enumerate(launcher) if t is stmt)
            above = list(itertools.takewhile(lambda t: not t.code, reversed(launcher[:at])))
            got = " ".join(c for t in reversed(above) for c in t.comments)
            p.eq("comment of the grid", note, got, lir.launch_text, str(stmt))
    # Kernel-level lets of the LIR (tile counts) and the tile count.
    events = lir_events(lir)
    tile_loop = next((e for e in events if e[0] == "for" and e[2] == "task"), None)
    for e in events:
        if e[0] == "for" and e[2] == "task":
            p.eq("clusters of the tile loop (the launch's)", lir.cluster, e[6], e[1])
    if lir.cluster == 1 and any(e[0] == "cluster_sync" for e in events):
        p.add("barrier.cluster in a kernel without clusters", lir.launch_text)
    if tile_loop and "tiles" in lets:
        p.expr_eq("tile count", tile_loop[4], lets["tiles"][0], tile_loop[1], str(lets["tiles"][1]))
    depth = 0
    for e in events:
        if e[0] == "let" and depth == 0:
            if e[2] not in lets:
                p.add(f"the launcher lacks let {e[2]}", e[1])
            else:
                p.expr_eq(f"let {e[2]} in the launcher", e[3], lets[e[2]][0], e[1],
                          str(lets[e[2]][1]))
        depth += e[0] in ("role", "for")
        depth -= e[0] == "end"

    # The body, in order.
    walker = CuWalker(cu, p, lir)
    cu_events = walker.events(cu.body)
    ptrs = [e for e in cu_events if e[0] == "mbarrier_ptr"]
    p.eq("Mbarrier arrays of the kernel", [identifier(b[0]) for b in lir.barriers],
         [e[2] for e in ptrs])
    for e in ptrs:
        p.eq("Mbarrier array at its own offset", e[2], e[3], None, str(e[1]))
    cu_events = [e for e in cu_events if e[0] != "mbarrier_ptr"]
    compare_bodies(lir, cu, events, cu_events, map_names, used_descs, p)
    for name in cu.descs:
        if name not in used_descs:
            p.add(f"descriptor {name} is used by no WGMMA the LIR has", None, cu.descs[name][4])
    return p.items


def compare_bodies(lir, cu, lev, cev, map_names, used_descs, p: Problems):
    i = j = 0
    acc_shape = {}
    blocks = []  # the LIR's open roles and loops, innermost last
    inits = {e[2]: (e[4], e[1]) for e in cev if e[0] == "init"}  # arrival counts
    while i < len(lev):
        le = lev[i]
        ce = cev[j] if j < len(cev) else None
        if le[0] == "let" and (ce is None or ce[0] != "let" or ce[2] != le[2]):
            i += 1  # a let this role never reads is left out
            continue
        if ce is None:
            p.add("the CUDA kernel ends before the LIR", le[1])
            return
        if le[0] != ce[0]:
            p.add(f"instruction order: the LIR has {le[0]}, the CUDA file {ce[0]}",
                  le[1], str(ce[1]))
            return
        kind, lt, cs = le[0], le[1], str(ce[1])
        if kind in ("role", "for"):
            blocks.append(le)
        elif kind == "end" and blocks:
            blocks.pop()
        if kind == "role":
            p.eq("role threads", (le[2], le[3]), (ce[2], ce[3]), lt, cs)
            p.eq("role name", le[4], ce[4], lt, cs)
            p.eq("role mesh", le[5], ce[5], lt, cs)
        elif kind == "for":
            p.eq("loop variable", identifier(le[2]), ce[2], lt, cs)
            p.expr_eq("loop start", le[3], ce[3], lt, cs)
            p.expr_eq("loop bound", le[4], ce[4], lt, cs)
            p.expr_eq("loop step", le[5], ce[5], lt, cs)
        elif kind == "let":
            p.expr_eq(f"let {le[2]}", le[3], ce[3], lt, cs)
        elif kind == "init":
            p.eq("barrier initialised", identifier(le[2]), ce[2], lt, cs)
            p.eq(f"objects initialised of {le[2]}", le[3], ce[3], lt, cs)
            p.eq(f"arrival count of {le[2]}", le[4], ce[4], lt, cs)
            table = next((b for b in lir.barriers if b[0] == le[2]), None)
            if table:
                p.eq(f"arrival count of {le[2]} (barrier table)", table[2], ce[4], table[4], cs)
                p.eq(f"objects of {le[2]} (barrier table)", table[1], ce[3], table[4], cs)
        elif kind == "wait":
            p.eq("barrier waited on", identifier(le[2]), ce[2], lt, cs)
            p.eq("barrier name in the wait's report", le[2], ce[5], lt, cs)
            p.expr_eq("wait slot", le[3], ce[3], lt, cs)
            p.expr_eq("wait parity", le[4], ce[4], lt, cs)
        elif kind == "expect_tx":
            p.eq("barrier of arrive_expect_tx", identifier(le[2]), ce[2], lt, cs)
            p.expr_eq("arrive_expect_tx slot", le[3], ce[3], lt, cs)
            p.eq("expect_tx bytes", le[4], ce[4], lt, cs)
            table = next((b for b in lir.barriers if b[0] == le[2]), None)
            if table:
                p.eq(f"expect_tx bytes of {le[2]} (barrier table)", table[3], ce[4], table[4], cs)
        elif kind == "arrive":
            p.eq("barrier arrived on", identifier(le[2]), ce[2], lt, cs)
            p.expr_eq("arrive slot", le[3], ce[3], lt, cs)
            p.eq("elected thread of the arrival", le[4], ce[4], lt, cs)
            compare_cluster_arrive(lir, le, ce, blocks, inits, p, lt, cs)
        elif kind in ("tma_load", "tma_store"):
            l, c = le[2], ce[2]
            tensor = lir.maps[l["map"]][0] if l["map"] < len(lir.maps) else "?"
            p.eq("tensor of the TMA's map", tensor, l["tensor"], lt)
            p.eq("TMA map", map_names[l["map"]] if l["map"] < len(map_names) else None,
                 c["map"], lt, cs)
            p.eq("TMA shared view", identifier(l["view"]), c["view"], lt, cs)
            if (l["slot"] is None) != (c["slot"] is None):
                p.add("TMA slot: one side indexes a ring stage, the other not", lt, cs)
            elif l["slot"] is not None:
                p.expr_eq("TMA ring slot", l["slot"], c["slot"], lt, cs)
            p.eq("TMA box's byte offset in the view", l["offset"], c["offset"], lt, cs)
            p.eq("TMA coordinate count", len(l["coords"]), len(c["coords"]), lt, cs)
            for d, (a, b) in enumerate(zip(l["coords"], c["coords"])):
                p.expr_eq(f"TMA coordinate {d}", a, b, lt, cs)
            p.eq("TMA bytes", l["bytes"], c["bytes"], lt, cs)
            if kind == "tma_load":
                compare_multicast(lir, l, c, p, lt, cs)
                p.eq("TMA barrier", identifier(l["bar"]), c["bar"], lt, cs)
                if c["bar_slot"] is None:
                    p.add("TMA barrier without a slot", lt, cs)
                else:
                    p.expr_eq("TMA barrier slot", l["bar_slot"], c["bar_slot"], lt, cs)
            m = lir.maps[l["map"]] if l["map"] < len(lir.maps) else None
            if m:
                box_bytes = ELEMENT_BYTES.get(m[1], 0)
                for b in m[2]:
                    box_bytes *= b
                p.eq("TMA bytes (the map's box)", box_bytes, l["bytes"], lt)
        elif kind in ("end", "bulk_commit", "wgmma_fence", "wgmma_commit", "fence_proxy",
                      "fence_init", "cluster_sync"):
            pass
        elif kind in ("bulk_wait_read", "wgmma_wait"):
            p.eq(f"{kind} count", le[2], ce[2], lt, cs)
        elif kind == "zero":
            p.eq("accumulator zeroed", le[2], ce[2], lt, cs)
            acc_shape[le[2]] = (ce[3], ce[4], lt, cs)
        elif kind == "named_barrier":
            p.eq("named barrier id", le[2], ce[2], lt, cs)
            p.eq("named barrier threads", le[3], ce[3], lt, cs)
        elif kind == "wgmma_run":
            compare_wgmma(lir, cu, le[2], ce[2], used_descs, acc_shape, p, lt, cs)
        elif kind == "store_fragment":
            compare_store(lir, cu, le, ce[2], p, lt, cs)
        i += 1
        j += 1
    if j < len(cev):
        p.add("the CUDA kernel has more than the LIR", None, str(cev[j][1]))


WARPGROUP_THREADS = 128  # the unit that issues WGMMA and completes its reads


def compare_multicast(lir, l, c, p, lt, cs):
    """A TMA load into Multicast CTAs of the cluster: issued by rank Issuer
    only (`if (cta_x % N == Issuer)`, N the cluster's CTAs), through
    tma::load_multicast with the CTA mask 2^Multicast - 1; any other load is
    a plain tma::load."""
    n, issuer = l["multicast"], l["issuer"]
    if l["multicast_param"] is not None:
        p.eq("TMA multicast (the atom's parameter)", n, int(l["multicast_param"]), lt)
    # Every CTA of the cluster, from one of them (as sm90/Verify.cpp has it).
    if n > 1 and (n != lir.cluster or issuer is None or issuer >= n):
        p.add(f"a load multicast to {n} CTAs by rank {issuer} in clusters of {lir.cluster}",
              lt, cs)
    mc = c["multicast"]
    want = f"load_multicast, mask 0x{(1 << n) - 1:x}" if n > 1 else "load"
    got = "load"
    if mc is not None:
        try:
            got = f"load_multicast, mask 0x{int(mc['mask'], 0):x}"
        except (TypeError, ValueError):
            got = f"load_multicast, mask {mc['mask']}"
    p.eq("TMA multicast (CTA mask 2^CTAs - 1)", want, got, lt, cs)
    p.eq("TMA issuing rank", issuer, mc["issuer"] if mc else None, lt, cs)
    if mc is not None:
        p.eq("CTAs of the cluster in the issuing rank's test (cta_x % N)", lir.cluster,
             mc["ranks"], lt, cs)


def compare_cluster_arrive(lir, le, ce, blocks, inits, p, lt, cs):
    """A cluster-wide release of a multicast ring: thread r < N (the
    cluster's CTAs) of each warpgroup of the role arrives on the object of
    rank r, so each CTA's object counts one arrival per warpgroup and CTA;
    any other release is a plain .arrive() on this CTA's object."""
    cluster, c = le[5], ce[5]
    want = (f"arrive_cluster(rank r) by thread r < {lir.cluster} of each warpgroup"
            if cluster else "arrive() on this CTA's object")
    got = "arrive() on this CTA's object"
    if c is not None:
        got = f"arrive_cluster(rank r) by thread r < {c['ranks']} of each warpgroup"
        if c["warpgroup"] != WARPGROUP_THREADS:
            p.add(f"cluster arrival by warpgroups of {c['warpgroup']} threads", lt, cs)
        rank = f"threadIdx.x % {c['warpgroup']}"
        try:
            same = cu_expr(rank) == cu_expr(c["rank"])
        except ExprError:
            same = False
        if not same:
            p.add(f"cluster rank of the arrival: the thread's in its warpgroup is '{rank}', "
                  f"the CUDA file '{c['rank']}'", lt, cs)
    p.eq("CTAs the release arrives on", want, got, lt, cs)
    if not cluster:
        return
    if lir.cluster == 1:
        p.add("a cluster-wide release in a kernel without clusters", lt)
    role = next((b for b in reversed(blocks) if b[0] == "role"), None)
    if role is None:
        p.add("a cluster-wide release outside a role", lt, cs)
        return
    begin, end = role[2], role[3]
    if begin % WARPGROUP_THREADS or (end - begin) % WARPGROUP_THREADS:
        p.add(f"a cluster-wide release by thread[{begin}:{end}], not whole warpgroups",
              role[1], cs)
        return
    groups = (end - begin) // WARPGROUP_THREADS
    table = next((b for b in lir.barriers if b[0] == le[2]), None)
    if table:
        p.eq(f"arrival count of {le[2]}, one per warpgroup ({groups}) and CTA "
             f"({lir.cluster}) of the cluster", groups * lir.cluster, table[2], lt, table[4])
    if identifier(le[2]) in inits:
        count, stmt = inits[identifier(le[2])]
        p.eq(f"arrival count of {le[2]} in the CUDA file, one per warpgroup ({groups}) and "
             f"CTA ({lir.cluster}) of the cluster", groups * lir.cluster, count, lt, str(stmt))


CONVERT = {"bf16": ("__floats2bfloat162_rn", "__nv_bfloat162"),
           "f16": ("__floats2half2_rn", "__half2"), "f32": ("make_float2", "float2")}


# The CUDA expression of each fused elementwise op of the LIR's epilogue
# (`relu`, `cast.bf16`) applied to the f32 expression x. The activations are
# calls of the generated file's device functions of the same name (their
# bodies: activations.test).
EPILOGUE = {"relu": "fmaxf({x}, 0.0f)", "neg": "-({x})", "exp": "expf({x})",
            "gelu_tanh": "gelu_tanh({x})", "gelu_erf": "gelu_erf({x})",
            "silu": "silu({x})",
            "cast.bf16": "__bfloat162float(__float2bfloat16_rn({x}))",
            "cast.f16": "__half2float(__float2half_rn({x}))", "cast.f32": "{x}"}


def epilogue_expr(ops: list[str], x: str) -> str | None:
    for op in ops:
        if op not in EPILOGUE:
            return None
        x = EPILOGUE[op].format(x=x)
    return x


# The LIR's element type names -> the runtime's wgmma::Type enumerators.
WGMMA_TYPE = {"bf16": "bf16", "f16": "f16", "fp8e4m3": "e4m3", "fp8e5m2": "e5m2",
              "tf32": "tf32"}


def compare_store(lir, cu, le, c, p, lt, cs):
    _, _, dtype, acc, view, shard, epilogue, blocks = le
    p.eq("epilogue conversion", dtype, c.get("dtype"), lt, cs)
    p.eq("epilogue shard", shard, c.get("shard"), lt, cs)
    p.eq("epilogue view", identifier(view), c.get("view"), lt, cs)
    p.eq("fused elementwise ops (comment)", epilogue, c.get("epilogue_comment"), lt, cs)
    # Several blocks per warpgroup: a loop over blocks b around the pairs p.
    block = "0" if blocks == (1, 1) else "b"
    p.eq("accumulator blocks the store loops over", blocks[0] * blocks[1],
         c.get("blocks", 1), lt, cs)
    want = [epilogue_expr(epilogue, f"{acc}[{block}][2 * p]"),
            epilogue_expr(epilogue, f"{acc}[{block}][2 * p + 1]")]
    p.eq("the converted pair, fused ops applied", want, c.get("args"), lt, cs)
    p.eq("epilogue conversion call", CONVERT.get(dtype), (c.get("convert"), c.get("word")), lt, cs)
    region = next((r for r in lir.regions if r.name == view), None)
    if region:
        p.eq("epilogue view's element type", region.element, dtype, region.text)
        m = re.search(r"\| Swizzle\((\d+),(\d+),(\d+)\)", region.layout)
        want = tuple(int(x) for x in m.groups()) if m else None
        p.eq("epilogue swizzle (the view's layout)", want, c.get("swizzle"), region.text, cs)
        check_fragment_addresses(region, cu, c, blocks, p, lt, cs)


def layout_bytes(region: Region):
    """The function (row, col) -> the byte offset the view's layout (swizzle
    included) gives that element of its 2-D shape: the linear index
    row-major over the shape, read lexicographically by the layout's
    extents (last fastest)."""
    core = region.layout.split("|")[0].strip()
    shape, stride = core.split(":")
    modes = list(zip(reversed(flatten(parse_tuple(shape))),
                     reversed(flatten(parse_tuple(stride)))))
    element = ELEMENT_BYTES[region.element]
    m = re.search(r"\| Swizzle\((\d+),(\d+),(\d+)\)", region.layout)
    sw = tuple(int(v) for v in m.groups()) if m else None

    def at(row: int, col: int) -> int:
        linear = row * region.shape[1] + col
        offset = 0
        for e, d in modes:
            offset += (linear % e) * d
            linear //= e
        return swizzle(sw, offset * element) if sw else offset * element
    return at


def swizzle(bms, x: int) -> int:
    """Swizzle(B, M, S) of byte offset x: bits [M+S, M+S+B) into [M, M+B)."""
    b, m, s = bms
    return x ^ ((x & (((1 << b) - 1) << (m + s))) >> s)


def check_fragment_addresses(region, cu, c, blocks, p, lt, cs):
    """Every accumulator register the epilogue stores lands where the view's
    layout puts its element. PTX's wgmma D fragment: register 4j + 2h + e of
    thread (warp, lane8, lane4) of a warpgroup's m64nN block holds the
    block's row 16 warp + 8 h + lane8, column 8 j + 2 lane4 + e. Warpgroup g
    holds R x C blocks (the LIR's `blocks`, 1 x 1 unless printed), block b
    at rows 64 (R g + b / C), columns N (b % C). The CUDA file stores
    registers 2p, 2p + 1 (p = 2j + h) of block b as one word at
    swizzle(base + <view>_pairs[b P + p]) (P pairs per block; [p] for one
    block), base a function of the thread's coordinates."""
    pairs = cu.tables.get(f"{c.get('pairs')}_pairs")
    base = c.get("base")
    if pairs is None or base is None:
        p.add("epilogue: no thread base or register pair table in the CUDA file", lt, cs)
        return
    rows, cols = blocks
    per_block = len(pairs) // (rows * cols)
    if (len(region.shape) != 2 or region.shape[0] % (64 * rows)
            or per_block * rows * cols != len(pairs)
            or per_block * 4 * cols != region.shape[1]):
        p.add(f"epilogue: {len(pairs)} register pairs per thread in {rows} x {cols} blocks "
              f"for a view of shape {region.shape}", region.text, cs)
        return
    index = "p" if blocks == (1, 1) else f"b * {per_block} + p"
    p.eq("epilogue register pair index", index, c.get("pair_index"), lt, cs)
    names = set(re.findall(r"[A-Za-z_]\w*", base))
    axes = names - {"warp", "lane8", "lane4"}
    if len(axes) > 1:
        p.add(f"epilogue: the thread base '{base}' reads {sorted(axes)}", lt, cs)
        return
    element = ELEMENT_BYTES[region.element]
    view_bytes = layout_bytes(region)
    for g in range(region.shape[0] // (64 * rows)):
        for warp, lane8, lane4 in itertools.product(range(4), range(8), range(4)):
            env = {"warp": warp, "lane8": lane8, "lane4": lane4}
            env.update({a: g for a in axes})
            at = evaluate(base, env)
            for index, offset in enumerate(pairs):
                b, pair = divmod(index, per_block)
                word = at + offset
                if c.get("swizzle"):
                    word = swizzle(c["swizzle"], word)
                row = 64 * (rows * g + b // cols) + 16 * warp + 8 * (pair % 2) + lane8
                col = 4 * per_block * (b % cols) + 8 * (pair // 2) + 2 * lane4
                for e in (0, 1):
                    want = view_bytes(row, col + e)
                    if word + e * element != want:
                        p.add(f"epilogue address of accumulator register {2 * pair + e} of "
                              f"thread (group {g}, warp {warp}, lane8 {lane8}, lane4 {lane4}), "
                              f"element ({row}, {col + e}): LIR's view has byte {want}, the "
                              f"CUDA file {word + e * element}", region.text, cs)
                        return


def compare_wgmma(lir, cu, lrun, crun, used_descs, acc_shape, p, lt, cs):
    slots = crun["slots"]
    calls = crun["calls"]
    if set(slots) != {"a", "b"}:
        p.add("WGMMA block without a_slot and b_slot", lt, cs)
        return
    axis_values = sorted({w["axis_value"] for w in lrun})
    first = [w for w in lrun if w["axis_value"] == axis_values[0]]
    p.eq("WGMMA k-steps, in order", [w["k"] for w in first], [c["k"] for c in calls], lt, cs)
    by_k = {(c["k"], c["block"]): c for c in calls}
    for w in lrun:
        wt = w["text"]
        c = by_k.get((w["k"], w["block"]))
        if c is None:
            p.add(f"no WGMMA for k-step {w['k']} into block {w['block']}", wt, cs)
            continue
        ct = str(c["stmt"])
        m = re.fullmatch(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k(\d+)\.f32\.(\w+)\.(\w+)",
                         w["opcode"])
        if not m:
            p.add("WGMMA opcode the CUDA file's wgmma::mma does not implement", wt, ct)
        else:
            p.eq("WGMMA N", int(m.group(1)), c["n"], wt, ct)
            p.eq("WGMMA A and B types", (WGMMA_TYPE.get(m.group(3)), WGMMA_TYPE.get(m.group(4))),
                 (c["type_a"], c["type_b"]), wt, ct)
        p.eq("WGMMA tnsp_a (A major)", w["tnsp_a"], c["tnsp_a"], wt, ct)
        p.eq("WGMMA tnsp_b (B major)", w["tnsp_b"], c["tnsp_b"], wt, ct)
        p.eq("WGMMA accumulator", w["acc"], c["acc"], wt, ct)
        p.eq("WGMMA accumulator block", w["block"], c["block"], wt, ct)
        if w["acc"] in acc_shape and m:
            blocks, regs, zt, zc = acc_shape[w["acc"]]
            p.eq(f"registers per thread of {w['acc']} (N / 2)", int(m.group(1)) // 2, regs, wt, zc)
            if w["block"] >= blocks:
                p.add(f"accumulator block {w['block']} outside {w['acc']}[{blocks}]", wt, zc)
        for op in ("a", "b"):
            ld, slot = w[op], slots[op]
            st = str(slot["stmt"])
            p.eq(f"WGMMA {op.upper()} ring", identifier(ld["ring"]), slot["ring"], wt, st)
            if (ld["slot"] is None) != (slot["slot"] is None):
                p.add(f"WGMMA {op.upper()} slot: one side indexes a ring stage", wt, st)
            elif ld["slot"] is not None:
                p.expr_eq(f"WGMMA {op.upper()} slot", ld["slot"], slot["slot"], wt, st)
            stride = slot["stride"]
            if stride:
                p.eq(f"WGMMA {op.upper()} warpgroup axis", identifier(w["axis"]), slot["axis"],
                     wt, st)
            start = c[f"start_{op}"] + w["axis_value"] * stride
            p.eq(f"WGMMA {op.upper()} start ({w['axis']}={w['axis_value']} k={w['k']})",
                 ld["start"], start, wt,
                 f"{ct}  [+ {w['axis_value']} * {stride}]")
            name = c[f"desc_{op}"]
            used_descs.add(name)
            if not name.startswith(identifier(ld["ring"]) + "_desc"):
                p.add(f"WGMMA {op.upper()} descriptor {name} is not {ld['ring']}'s", wt, ct)
            if name not in cu.descs:
                p.add(f"WGMMA {op.upper()} descriptor {name} is not declared", wt, ct)
                continue
            lbo, sbo, swz, base, dt = cu.descs[name]
            p.eq(f"WGMMA {op.upper()} descriptor LBO", "unused" if ld["lbo"] is None
                 else ld["lbo"], "unused" if lbo is None else lbo, wt, dt)
            p.eq(f"WGMMA {op.upper()} descriptor SBO", ld["sbo"], sbo, wt, dt)
            p.eq(f"WGMMA {op.upper()} descriptor base offset", ld["base"], base, wt, dt)
            p.eq(f"WGMMA {op.upper()} descriptor swizzle", SWIZZLE.get(ld["swizzle"]), swz, wt, dt)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        lir = parse_lir(f.read())
    with open(argv[2]) as f:
        cu = parse_cu(f.read())
    problems = []
    if not lir:
        problems.append(f"{argv[1]}: no kernel")
    if sorted(k.name for k in lir) != sorted(cu):
        problems.append(f"kernels: the LIR has {sorted(k.name for k in lir)}, "
                        f"the CUDA file {sorted(cu)}")
    for k in lir:
        if k.name in cu:
            problems += check_kernel(k, cu[k.name])
    for line in problems:
        print(f"MISMATCH {line}")
    if problems:
        print(f"cross_check: {len(problems)} mismatch(es) between {argv[1]} and {argv[2]}")
        return 1
    n_inst = sum(len(k.body) for k in lir)
    print(f"cross_check: {len(lir)} kernel(s), {n_inst} LIR lines: {argv[2]} agrees with {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
