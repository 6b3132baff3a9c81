"""Tests of the tf GEMM extension against torch.matmul, and of each refusal.

Run on a machine with an sm_90 GPU, torch and nvcc (run.sh does it):
    python3 examples/torch/test_gemm.py -v
"""
import unittest

import torch

import tf_gemm

EXT = tf_gemm.load()


def rand(*shape, **kw):
    return torch.randn(*shape, device="cuda", dtype=torch.bfloat16, **kw)


class Matmul(unittest.TestCase):
    # (M, N, K): one tile, tile multiples, and shapes that are no tile
    # multiple (the kernel's tile is 128 x 256 x 64) in M, N and K.
    SHAPES = [(128, 256, 64), (1024, 2048, 512), (1000, 1544, 1000),
              (129, 264, 72), (1, 8, 8), (333, 520, 4104), (4096, 8, 200)]

    def check(self, M, N, K):
        torch.manual_seed(M * 1000003 + N * 1009 + K)
        a, b = rand(M, K), rand(K, N)
        ours = EXT.gemm(a, b)
        self.assertEqual(ours.shape, (M, N))
        self.assertEqual(ours.dtype, torch.bfloat16)
        self.assertEqual(ours.device, a.device)
        # The exact product in f64; bf16 products are exact in f32, the sum
        # of K of them errs by about K 2^-24 sum|a b| (doubled for tensor
        # cores' truncating sums), and the bf16 output by one ulp, 2^-7 |ref|.
        ref = a.double() @ b.double()
        bound = 2 * K * 2.0**-23 * (a.double().abs() @ b.double().abs()) \
            + 2.0**-7 * ref.abs()
        err = (ours.double() - ref).abs()
        bad = (err > bound) | ~torch.isfinite(ours)
        self.assertFalse(bad.any().item(),
                         f"{int(bad.sum())} of {M * N} elements off the bound at "
                         f"{M}x{N}x{K}; worst err/bound "
                         f"{float((err / bound.clamp_min(1e-30)).max()):.3g}")
        # torch.matmul (cuBLAS) passes the same bound: the bound is one a
        # correct bf16 GEMM meets, not one tuned to ours.
        theirs = torch.matmul(a, b)
        self.assertFalse(((theirs.double() - ref).abs() > bound).any().item())

    def test_shapes(self):
        for M, N, K in self.SHAPES:
            with self.subTest(M=M, N=N, K=K):
                self.check(M, N, K)

    def test_empty(self):
        self.assertEqual(EXT.gemm(rand(0, 64), rand(64, 8)).shape, (0, 8))
        out = EXT.gemm(rand(16, 0), rand(0, 8))
        self.assertTrue(torch.equal(out, torch.zeros(16, 8, device="cuda",
                                                     dtype=torch.bfloat16)))

    def test_contiguous_views_accepted(self):
        # Rows 8..: contiguous, offset by 8 rows of 64 bf16 (16-byte aligned).
        a = rand(136, 64)[8:]
        b = rand(64, 256)
        self.assertTrue(torch.equal(EXT.gemm(a, b),
                                    EXT.gemm(a.clone(), b)))


class Refusals(unittest.TestCase):
    def refused(self, a, b, *fragments):
        with self.assertRaises(RuntimeError) as caught:
            EXT.gemm(a, b)
        message = str(caught.exception)
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_rank(self):
        self.refused(rand(2, 64, 64), rand(64, 64), "a must be a 2-D matrix",
                     "got 3-D tensor of shape [2, 64, 64]")
        self.refused(rand(64, 64), rand(64), "b must be a 2-D matrix", "got 1-D")

    def test_inner_extents(self):
        self.refused(rand(64, 64), rand(72, 64), "inner extents must agree",
                     "got a [64, 64] and b [72, 64]")

    def test_dtype(self):
        self.refused(rand(64, 64).float(), rand(64, 64), "a must be bfloat16",
                     "got Float")
        self.refused(rand(64, 64), rand(64, 64).half(), "b must be bfloat16",
                     "got Half")

    def test_device(self):
        self.refused(rand(64, 64).cpu(), rand(64, 64),
                     "a must be on a CUDA device", "got device cpu")
        if torch.cuda.device_count() > 1:
            self.refused(rand(64, 64), rand(64, 64).to("cuda:1"),
                         "a and b must be on the same device")

    def test_contiguity(self):
        self.refused(rand(64, 64).t(), rand(64, 64), "a must be contiguous",
                     "got strides [1, 64]")
        self.refused(rand(64, 64), rand(64, 128)[:, ::2], "b must be contiguous")

    def test_row_alignment(self):
        self.refused(rand(64, 60), rand(60, 64), "a must have rows of a multiple of 16 bytes",
                     "got extent 1 = 60")

    def test_address_alignment(self):
        a = rand(64 * 64 + 1)[1:].view(64, 64)  # contiguous, 2 bytes off
        self.refused(a, rand(64, 64), "a data must be 16-byte aligned",
                     "storage offset 1")

    def test_stream(self):
        with torch.cuda.stream(torch.cuda.Stream()):
            self.refused(rand(64, 64), rand(64, 64), "runs on the default stream")


if __name__ == "__main__":
    unittest.main()
