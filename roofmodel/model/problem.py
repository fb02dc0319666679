"""The GEMM being modelled and the tiles a kernel uses for it.

C[M, N] = A[M, K] @ B[K, N]. Element sizes per dtype; C is written once in the output dtype
(fp8 GEMMs write bf16, int8 GEMMs write int32) and is not read (beta = 0).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from roofmodel import defaults
from roofmodel.errors import ProblemError
from roofmodel.results import Result

DtypeName = Literal["fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"]
DTYPES: tuple[str, ...] = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")

INPUT_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}
OUTPUT_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 2, "int8": 4}
# Registers (4 B each) per accumulator element, by accumulator type: fp64 takes two, fp32 and
# int32 one, fp16 half of one (two packed per register, as cuBLAS HGEMM accumulates; seed 004).
ACCUMULATOR_REGISTERS = {"fp64": 2.0, "fp32": 1.0, "int32": 1.0, "fp16": 0.5}
DEFAULT_ACCUMULATOR = {
    "fp64": "fp64",
    "fp32": "fp32",
    "tf32": "fp32",
    "fp16": "fp32",
    "bf16": "fp32",
    "fp8": "fp32",
    "int8": "int32",
}
# fp16 and fp8 mma.sync accumulate in fp32 or fp16 (PTX ISA mma; fp8 with an fp16 accumulator from
# PTX 8.7 on sm_89); the other types in one accumulator only.
ALLOWED_ACCUMULATORS = {"fp16": ("fp32", "fp16"), "fp8": ("fp32", "fp16")}


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"]) or "value"
    msg = err["msg"].removeprefix("Value error, ")
    return f"{loc}: {msg} (got {err.get('input')!r})"


class _Problem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise ProblemError(f"{type(self).__name__.lower()}: {_one_line(exc)}") from None


class Gemm(_Problem):
    """A GEMM problem: ``Gemm(4096)``, ``Gemm(8192, 8192, 1024, "bf16")`` or by keyword. Sizes are
    element counts (N and K default to M, as on the command line); dtype selects the compute pipe
    (default: roofmodel.defaults.DTYPE)."""

    m: int = Field(gt=0)
    n: int = Field(gt=0)
    k: int = Field(gt=0)
    dtype: DtypeName = defaults.DTYPE  # type: ignore[assignment]
    accumulator: Literal["fp64", "fp32", "int32", "fp16"] | None = None

    def __init__(
        self,
        m: int | None = None,
        n: int | None = None,
        k: int | None = None,
        dtype: str | None = None,
        accumulator: str | None = None,
        **data: Any,
    ) -> None:
        data.update({"m": m, "n": n if n is not None else m, "k": k if k is not None else m})
        if dtype is not None:
            data["dtype"] = dtype
        if accumulator is not None:
            data["accumulator"] = accumulator
        super().__init__(**data)
        # Checked after validation, so the refusal is this one line and not pydantic's wrapping of it.
        acc = self.accumulator or DEFAULT_ACCUMULATOR[self.dtype]
        allowed = ALLOWED_ACCUMULATORS.get(self.dtype, (DEFAULT_ACCUMULATOR[self.dtype],))
        if acc not in allowed:
            raise ProblemError(f"gemm: a {self.dtype} GEMM accumulates in {' or '.join(allowed)} (got {acc})")
        object.__setattr__(self, "accumulator", acc)

    @property
    def accumulator_registers(self) -> float:
        """Registers per accumulator element (fp16 accumulators pack two to a register)."""
        return ACCUMULATOR_REGISTERS[self.accumulator or DEFAULT_ACCUMULATOR[self.dtype]]

    @property
    def input_bytes(self) -> int:
        return INPUT_BYTES[self.dtype]

    @property
    def output_bytes(self) -> int:
        return OUTPUT_BYTES[self.dtype]

    @property
    def fmas(self) -> int:
        """M * N * K fused multiply-adds."""
        return self.m * self.n * self.k

    @property
    def flops(self) -> int:
        """2 * M * N * K (one FMA is two FLOPs)."""
        return 2 * self.fmas

    @property
    def compulsory_bytes(self) -> int:
        """Each matrix moved once: (M*K + K*N) * input bytes + M*N * output bytes (seed 000 §2)."""
        return (self.m * self.k + self.k * self.n) * self.input_bytes + self.m * self.n * self.output_bytes


class Tile(_Problem):
    """An output tile BM x BN with depth BK along K (BK may be left to a default):
    ``Tile(128, 256, 64)`` or ``Tile(bm=128, bn=256)``."""

    bm: int = Field(gt=0)
    bn: int = Field(gt=0)
    bk: int | None = Field(default=None, gt=0)

    def __init__(self, bm: int | None = None, bn: int | None = None, bk: int | None = None, **data: Any) -> None:
        super().__init__(bm=bm, bn=bn, bk=bk, **data)

    @classmethod
    def parse(cls, text: str, what: str = "tile") -> Tile:
        """'128x256' or '128x256x64' (also with '*' or 'X')."""
        parts = re.split(r"[xX*]", text.strip())
        if len(parts) not in (2, 3) or not all(re.fullmatch(r"[+-]?\d+", p.strip()) for p in parts):
            raise ProblemError(f"--{what}: expected BMxBN or BMxBNxBK with whole numbers (got {text!r})")
        nums = [int(p) for p in parts]
        for name, v in zip(("BM", "BN", "BK"), nums, strict=False):
            if v <= 0:
                raise ProblemError(f"--{what}: {name} must be > 0 (got {v})")
        return cls(bm=nums[0], bn=nums[1], bk=nums[2] if len(nums) == 3 else None)

    @property
    def reuse(self) -> float:
        """Average operand reuse 2*BM*BN/(BM+BN) (seed 000 §5.1.1; a square tile T gives T)."""
        return 2 * self.bm * self.bn / (self.bm + self.bn)

    def label(self) -> str:
        return f"{self.bm}x{self.bn}" + (f"x{self.bk}" if self.bk else "")


class GemmInfo(Result):
    m: int
    n: int
    k: int
    dtype: str
    accumulator: str
    input_bytes: int
    output_bytes: int
    flops: float
    compulsory_bytes: float
    intensity_flop_per_byte: float


def gemm_info(gemm: Gemm) -> GemmInfo:
    """The GEMM as every result reports it, with its FLOPs, compulsory bytes and their ratio."""
    return GemmInfo(
        m=gemm.m,
        n=gemm.n,
        k=gemm.k,
        dtype=gemm.dtype,
        accumulator=gemm.accumulator or "",
        input_bytes=gemm.input_bytes,
        output_bytes=gemm.output_bytes,
        flops=float(gemm.flops),
        compulsory_bytes=float(gemm.compulsory_bytes),
        intensity_flop_per_byte=gemm.flops / gemm.compulsory_bytes,
    )
