"""Ceilings measured on the GPU in front of you: DRAM copy and read bandwidth, L2-resident read
bandwidth, and the matrix rate per dtype through cuBLAS (torch.matmul). Each returns the figure
and how it was obtained, for the calibration overlay's sources.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

import triton
import triton.language as tl


def _bench(fn: Any) -> float:
    return triton.testing.do_bench(fn, warmup=50, rep=300, return_mode="median")


def dram_copy_gb_per_s(gib: float = 2.0) -> dict[str, Any]:
    """Device-to-device copy of a large buffer: (bytes read + bytes written) / time."""
    import torch

    n = int(gib * 2**30) // 4
    src = torch.randn(n, device="cuda")
    dst = torch.empty_like(src)
    ms = _bench(lambda: dst.copy_(src))
    return {"value": 2 * n * 4 / (ms * 1e-3) / 1e9, "how": f"torch copy_ of {gib:g} GiB, (read + write) / median time"}


def dram_read_gb_per_s(gib: float = 2.0) -> dict[str, Any]:
    """A sum over a large buffer: bytes read / time (the write is one scalar)."""
    import torch

    n = int(gib * 2**30) // 4
    x = torch.randn(n, device="cuda")
    ms = _bench(lambda: x.sum())
    return {"value": n * 4 / (ms * 1e-3) / 1e9, "how": f"torch sum over {gib:g} GiB, bytes read / median time"}


@triton.jit
def _l2_group_read_kernel(x_ptr, out_ptr, n_per_group, GROUP: tl.constexpr, REPS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    base = x_ptr + (pid // GROUP) * n_per_group
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for _ in range(REPS):
        for start in range(0, n_per_group, BLOCK):
            acc += tl.load(base + start + tl.arange(0, BLOCK), cache_modifier=".cg")
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


def l2_read_gb_per_s(
    mib: float = 16.0, programs_per_sm: int = 4, reps: int = 64, shared: bool = False
) -> dict[str, Any]:
    """Repeated reads of a buffer that fits L2, bypassing L1 (ld.global.cg): bytes delivered / time.
    Seed 001 measured 3.57 TB/s this way on 16 MB with 528 blocks. With ``shared`` every program
    reads the same slice at the same time, as the CTAs of a GEMM wave read a shared panel: the
    difference is what the L2 serves to concurrent same-address requests beyond distinct ones."""
    import torch

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    programs = sms * programs_per_sm
    block = 1024
    n_per_prog = (int(mib * 2**20) // 4 // programs) // block * block
    x = torch.randn(programs * n_per_prog, device="cuda")
    out = torch.empty(programs * block, device="cuda")
    group = programs if shared else 1  # every program on one slice, or each on its own
    ms = _bench(lambda: _l2_group_read_kernel[(programs,)](x, out, n_per_prog, GROUP=group, REPS=reps, BLOCK=block,
                                                          num_warps=8))  # fmt: skip
    total = programs * n_per_prog * 4 * reps
    what = f"one {n_per_prog * 4 / 2**10:.0f} KiB slice read by all" if shared else f"{mib:g} MiB in distinct slices"
    return {
        "value": total / (ms * 1e-3) / 1e9,
        "how": f"Triton ld.global.cg reads, {what}, x {reps}, {programs} programs, bytes delivered / median time",
    }


def l2_group_read_gb_per_s(group: int, programs_per_sm: int, slice_kib: int = 32, reps: int = 256) -> dict[str, Any]:
    """Reads of L2-resident slices (ld.global.cg), ``group`` programs reading each slice at the same
    time and the groups reading distinct slices, as a GEMM wave's CTAs read its panels: bytes
    delivered / median time. ``group`` 1 is distinct-address reads."""
    import torch

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    programs = sms * programs_per_sm
    groups = -(-programs // group)
    block = 1024
    n_per_group = slice_kib * 2**10 // 4 // block * block
    x = torch.randn(groups * n_per_group, device="cuda")
    out = torch.empty(programs * block, device="cuda")
    ms = _bench(lambda: _l2_group_read_kernel[(programs,)](x, out, n_per_group, GROUP=group, REPS=reps, BLOCK=block,
                                                           num_warps=8))  # fmt: skip
    return {
        "value": programs * n_per_group * 4 * reps / (ms * 1e-3) / 1e9,
        "group": group,
        "programs_per_sm": programs_per_sm,
        "how": f"Triton ld.global.cg reads, {programs} programs, each {slice_kib} KiB slice read by {group} of them "
        f"at once, x {reps}, bytes delivered / median time",
    }


# The L2-bound GEMMs whose requested bytes over time are memory.l2.gemm_bandwidth: 4096^3 fp16, 64x32 and
# 32x64 tiles on 4 warps (BLOCK_K 64, 3 stages, GROUP_M 8), each operand layout; on the H100 Nsight Compute
# puts their L2 at 90-92% of its peak (docs/measurements/h100-2026-11-25/ncu).
L2_GEMM_TILES = ((64, 32), (32, 64))
L2_GEMM_LAYOUTS = (("k", "n"), ("k", "k"), ("m", "n"), ("m", "k"))


def l2_gemm_rate(times_s: list[float], m: int = 4096, n: int = 4096, k: int = 4096, bm: int = 64, bn: int = 32,
                 element_bytes: int = 2) -> float:  # fmt: skip
    """Bytes per second: every tile's A and B panels (ceil(M/BM) x ceil(N/BN) tiles x (BM + BN) x K x
    e) and C (M x N x e), over the median time. (64x32 and 32x64 tiles request the same bytes.)"""
    tiles = -(-m // bm) * -(-n // bn)
    return (tiles * (bm + bn) * k * element_bytes + m * n * element_bytes) / statistics.median(times_s)


def l2_gemm_gb_per_s() -> dict[str, Any]:
    """memory.l2.gemm_bandwidth on this GPU: l2_gemm_rate of the L2_GEMM_TILES kernels in every layout."""
    from roofmodel.backends.triton_gemm import run_config

    times = [run_config(4096, 4096, 4096, "fp16", bm, bn, 64, 8, 4, 3, a_major=a, b_major=b)["time_ms"] * 1e-3
             for bm, bn in L2_GEMM_TILES for a, b in L2_GEMM_LAYOUTS]  # fmt: skip
    listed = ", ".join(f"{t * 1e3:.3f}" for t in times)
    return {"value": l2_gemm_rate(times) / 1e9,
            "how": "requested bytes (every tile's A and B panels, and C) / median time of 4096^3 fp16 Triton GEMMs "
            f"with 64x32 and 32x64 tiles on 4 warps in each operand layout, which the L2 binds (ms: {listed})"}  # fmt: skip


def matmul_tflops(dtype: str, size: int = 8192) -> dict[str, Any]:
    """cuBLAS through torch.matmul on random size^3 inputs: 2 size^3 / median time."""
    import torch

    t = {"fp16": torch.float16, "bf16": torch.bfloat16, "tf32": torch.float32, "fp32": torch.float32}[dtype]
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    try:
        a = torch.randn(size, size, device="cuda").to(t)
        b = torch.randn(size, size, device="cuda").to(t)
        ms = _bench(lambda: a @ b)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return {"value": 2 * size**3 / (ms * 1e-3) / 1e12, "how": f"cuBLAS via torch.matmul, {size}^3 random {dtype}"}


def sustained_clock_mhz(seconds: float = 10.0, size: int = 8192, dtype: str = "fp16") -> dict[str, Any]:
    """The SM clock under sustained tensor-core load: cuBLAS size^3 GEMMs back to back for
    ``seconds`` while nvidia-smi samples the clock every 0.1 s; the median of the samples after the
    first third (the clock settles as power and temperature rise), with the TFLOPS over that time."""
    import time

    import torch

    from roofmodel.backends.provenance import ClockSampler

    t = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
    a = torch.randn(size, size, device="cuda").to(t)
    b = torch.randn(size, size, device="cuda").to(t)
    sampler = ClockSampler(period=0.1)
    count = 0
    with sampler.running():
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                a @ b
            torch.cuda.synchronize()
            count += 10
        elapsed = time.perf_counter() - start
    settled = sampler.samples[len(sampler.samples) // 3 :]
    if not settled:
        raise RuntimeError("nvidia-smi returned no SM clock samples")
    return {
        "value": statistics.median(settled),
        "samples": sampler.samples,
        "tflops": 2 * size**3 * count / elapsed / 1e12,
        "how": f"nvidia-smi clocks.sm every 0.1 s during {seconds:g} s of back-to-back cuBLAS {size}^3 {dtype} GEMMs "
        f"(torch.matmul), median of the samples after the first third",
    }


@triton.jit
def _chase_kernel(next_ptr, out_ptr, steps):
    idx = tl.load(next_ptr)
    for _ in range(steps):
        idx = tl.load(next_ptr + idx, cache_modifier=".cg")
    tl.store(out_ptr, idx)


def pointer_chase_ns(mib: float) -> dict[str, Any]:
    """Latency of one dependent load: a single thread follows a random cycle through ``mib`` MiB,
    one 128-byte line per step (loads bypass L1: ld.global.cg). do_bench flushes L2 before each run,
    so the first pass over the cycle misses: the latency is the difference of two runs, S and 2S steps,
    over S, with S two passes of the cycle for a working set that fits L2 (4 MiB) and 20,000 steps for
    one that does not (256 MiB, seed 001's working sets)."""
    import torch

    lines = int(mib * 2**20) // 128
    g = torch.Generator().manual_seed(1)
    order = torch.randperm(lines, generator=g)
    nxt = torch.zeros(lines * 16, dtype=torch.int64)
    nxt[order * 16] = torch.roll(order, -1) * 16  # one cycle through every line
    nxt = nxt.cuda()
    out = torch.empty(1, dtype=torch.int64, device="cuda")
    steps = 2 * lines if mib < 64 else 20000
    t1, t2 = (_bench(lambda s=s: _chase_kernel[(1,)](nxt, out, s, num_warps=1)) for s in (steps, 2 * steps))
    return {"value": (t2 - t1) * 1e-3 / steps * 1e9,
            "how": f"one thread chasing a random cycle of 128-byte lines through {mib:g} MiB (ld.global.cg), "
                   f"(time of {2 * steps} - time of {steps} dependent loads) / {steps}, do_bench medians"}  # fmt: skip


@triton.jit
def _empty_kernel(x_ptr):
    pass


def launch_seconds() -> dict[str, Any]:
    """An empty Triton kernel of one program per SM, timed as GEMMs are (do_bench median): the fixed cost of a
    launch. A grid of one program per SM, not one program: every broad sweep's micro.json times both, and the full
    wave reads more in 23 of 26 H100 runs (paired median 0.86 us) and in 12 of 22 H200 runs (0.17; 0.50 without the
    one-program outliers): docs/measurements/h200-2026-11-29/startup. This harness (warmup 50, rep 300) has read an
    empty kernel 0.25-1.25 us above the sweeps' timing of it, so a calibrated launch is not the built-in figure's
    equal."""
    import torch

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    x = torch.empty(1, device="cuda")
    ms = _bench(lambda: _empty_kernel[(sms,)](x))
    return {"value": ms * 1e-3, "how": f"an empty Triton kernel of {sms} programs (one per SM), do_bench median"}


def ksweep_kernels(force_mma_sync: bool, tiles: Any = None, tiles_per_sm: int = 1, layouts: Any = None) -> list[Any]:
    """roofmodel.model.kernel_costs's K sweep on this GPU: Triton GEMMs of ``tiles`` ((dtype, BM, BN,
    BK, warps, stages); by default KSWEEP_TILES in fp16) with a grid of exactly ``tiles_per_sm`` tiles
    per SM (one by default), each checked against float64 once and timed at every KSWEEP_K, with the
    registers it spilled. ``layouts``: (A major, B major) pairs to time each tile in; by default A
    K-major and B N-major for 16- and 32-bit types, K-major for 8-bit ones.
    ``force_mma_sync``: compile with DISABLE_MMA_V3=1 (Hopper's mma.sync) in a JIT object of its own."""
    import os

    import torch

    from roofmodel.backends import triton_gemm as tg
    from roofmodel.model.kernel_costs import KSWEEP_K, KSWEEP_TILES, KSweepKernel, grid_of
    from roofmodel.model.problem import INPUT_BYTES

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    tm, tn = grid_of(sms)
    jit = triton.jit(tg._matmul_kernel.fn) if force_mma_sync else None
    out = []
    # An 8-bit B is K-major by default: N-major, Triton copies it through registers unpipelined under wgmma.
    kinds = [(t, lay) for t in tiles or [("fp16", *t) for t in KSWEEP_TILES]
             for lay in layouts or [("k", "k" if INPUT_BYTES[t[0]] == 1 else "n")]]  # fmt: skip
    for (dtype, bm, bn, bk, warps, stages), (a_major, b_major) in kinds:
        points, family, spilled = [], "", 0
        for k in KSWEEP_K:
            a, b = tg.random_inputs(tm * bm, tn * tiles_per_sm * bn, k, dtype, "cuda", seed=k, a_major=a_major,
                                    b_major=b_major)  # fmt: skip
            c = tg.output_for(a, b, dtype)
            cfg = dict(dtype=dtype, block_m=bm, block_n=bn, block_k=bk, group_m=1, num_warps=warps,
                       num_stages=stages, kernel=jit)  # fmt: skip
            if force_mma_sync:
                os.environ["DISABLE_MMA_V3"] = "1"
            try:
                compiled = tg.launch(a, b, c, **cfg)
            finally:
                os.environ.pop("DISABLE_MMA_V3", None)
            err = tg.check(a, b, c)
            if not err <= tg.TOLERANCE[dtype]:
                raise RuntimeError(f"K sweep {dtype} {bm}x{bn}x{bk}, K {k}: wrong result (relative error {err:.3g})")
            facts = tg.compiled_facts(compiled)
            family, spilled = facts["instruction"], facts["spilled_registers"]
            points.append((k, _bench(lambda a=a, b=b, c=c, cfg=cfg: tg.launch(a, b, c, **cfg)) * 1e-3))
        out.append(KSweepKernel(dtype=dtype, family=family, bm=bm, bn=bn, bk=bk, warps=warps,
                                element_bytes=INPUT_BYTES[dtype], points=tuple(points), spilled=spilled,
                                a_major=a_major, b_major=b_major))  # fmt: skip
    return out


def spill_pair_kernels() -> list[Any]:
    """The spill pairs of roofmodel.model.kernel_costs (SPILL_PAIR_TILES on four warps and on eight),
    timed as the K sweep is."""
    from roofmodel.model.kernel_costs import SPILL_PAIR_TILES

    tiles = [(d, bm, bn, bk, w, s) for d, bm, bn, bk, s in SPILL_PAIR_TILES for w in (4, 8)]
    return ksweep_kernels(force_mma_sync=False, tiles=tiles)


def kernel_costs(rate_tflops: Any) -> dict[str, Any]:
    """The per-CTA model's kernel costs on this GPU: the launch, and the per-iteration costs
    roofmodel.model.kernel_costs derives from a K sweep of wgmma (where Triton lowers to it) and mma.sync
    kernels. ``rate_tflops(dtype, family)``: the rates to take the MMA time at."""
    import torch

    from roofmodel.model.cta_model import COLD_SPILLED_REGISTERS
    from roofmodel.model.kernel_costs import (
        CONVERT_TILES,
        CONVERT_TILES_PER_SM,
        GATHER_LAYOUTS,
        derive_kernel_costs,
        spill_pairs,
    )

    kernels = ksweep_kernels(force_mma_sync=False)
    if torch.cuda.get_device_capability(0)[0] >= 9:
        kernels += ksweep_kernels(force_mma_sync=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    fit = derive_kernel_costs(kernels, rate_tflops, sms)
    pairs, convert = [], []
    if torch.cuda.get_device_capability(0)[0] == 9:
        pairs = spill_pairs(spill_pair_kernels(), rate_tflops, sms, fit.wait_s or 0.0, COLD_SPILLED_REGISTERS)
        # Triton on sm_90 converts fp8 to fp16 for mma.sync: the conversion-heavy tiles, many per SM, with both
        # operands K-major (kernel_costs.convert) and with one MN-major, read byte by byte (kernel_costs.gather).
        convert = ksweep_kernels(force_mma_sync=True, tiles=CONVERT_TILES, tiles_per_sm=CONVERT_TILES_PER_SM,
                                 layouts=(("k", "k"), *GATHER_LAYOUTS))  # fmt: skip
    return {"launch": launch_seconds(), "fit": fit, "kernels": kernels, "spill_pairs": pairs, "convert": convert}


def transpose_cost_if_wgmma() -> dict[str, Any] | None:
    """kernel_costs.transpose where the GPU has wgmma (compute capability 9.x); None elsewhere."""
    import torch

    if torch.cuda.get_device_capability(0)[0] != 9:
        return None
    from roofmodel.backends.layout_probe import transpose_seconds

    return transpose_seconds()


def calibrate(
    base: str,
    dtypes: tuple[str, ...] = ("fp16", "bf16", "tf32", "fp32"),
    progress: Callable[[int, int, str], None] | None = None,
) -> tuple[dict[str, Any], Any]:
    """Measure the ceilings and build a machine-file overlay (``base: <base>``) of measured
    quantities whose sources carry the device, date, method and clocks. Returns (overlay, provenance).
    ``progress`` is told, before each measurement, how many are done, of how many, and which is next."""
    from roofmodel.backends.provenance import ClockSampler, collect

    steps = 10 + len(dtypes)
    done = 0

    def step(what: str) -> None:
        nonlocal done
        if progress is not None:
            progress(done, steps, what)
        done += 1

    sampler = ClockSampler()
    with sampler.running():
        step("DRAM copy bandwidth")
        copy = dram_copy_gb_per_s()
        step("DRAM read bandwidth")
        read = dram_read_gb_per_s()
        step("L2 read bandwidth")
        l2 = l2_read_gb_per_s()
        step("L2 same-address read bandwidth")
        l2_shared = l2_read_gb_per_s(shared=True)
        step("L2 rate of a GEMM's requests (L2-bound fp16 GEMMs)")
        l2_gemm = l2_gemm_gb_per_s()
        step("L2 and DRAM latency (pointer chase)")
        chase = {"l2": pointer_chase_ns(4), "dram": pointer_chase_ns(256)}
        rates = {}
        for d in dtypes:
            step(f"{d} matrix rate (cuBLAS)")
            rates[d] = matmul_tflops(d)
    step("sustained clock under load")
    sustained = sustained_clock_mhz()
    from roofmodel.machine import load_machine

    machine = load_machine(base)

    def rate(dtype: str, family: str) -> float:
        from roofmodel.model.kernel_costs import family_rate_tflops

        return family_rate_tflops(machine, {d: r["value"] for d, r in rates.items()}, dtype, family)

    step("kernel costs (K sweep of one tile per SM; spill pairs; fp8 conversions and MN-major byte gathers)")
    costs = kernel_costs(rate)
    step("transposing an MN-major tf32 operand (layouts timed)")
    transpose = transpose_cost_if_wgmma()
    step("device facts (provenance)")
    prov = collect(sampler.samples)
    tag = f"roofmodel calibrate on {prov.device}, {prov.date}, driver {prov.driver}, torch {prov.torch}"
    clock = f"; SM clock median {prov.sm_clock_mhz_median:.0f} MHz" if prov.sm_clock_mhz_median else ""

    def q(value: float, unit: str, how: str, digits: int = 1) -> dict[str, Any]:
        return {"value": round(value, digits), "unit": unit, "kind": "measured", "source": f"{tag}: {how}{clock}"}

    overlay: dict[str, Any] = {
        "base": base,
        "name": f"{prov.device} (measured {prov.date[:10]})",
        "memory": {
            # The read-only figure is the one an operand stream sees; the copy figure is kept in the note.
            "dram": {"bandwidth": {"measured": {**q(read["value"], "GB/s", read["how"]),
                                                "note": f"copy (read + write): {copy['value']:.0f} GB/s"}},
                     "latency": q(chase["dram"]["value"], "ns", chase["dram"]["how"])},
            "l2": {"bandwidth": {"measured": q(l2["value"], "GB/s", l2["how"])},
                   "shared_read_bandwidth": {"measured": q(l2_shared["value"], "GB/s", l2_shared["how"])},
                   "gemm_bandwidth": {"measured": q(l2_gemm["value"], "GB/s", l2_gemm["how"])},
                   "latency": q(chase["l2"]["value"], "ns", chase["l2"]["how"])},
        },
        "compute": {d: {"rate": {"measured": q(r["value"], "TFLOPS", r["how"])}} for d, r in rates.items()},
        "clocks": {"sustained": {"value": round(sustained["value"]), "unit": "MHz", "kind": "measured",
                                 "source": f"{tag}: {sustained['how']}; {sustained['tflops']:.0f} TFLOPS over the run"}},
    }  # fmt: skip
    fit = costs["fit"]
    ksweep = "the K-sweep microbenchmark (roofmodel.model.kernel_costs: one fp16 tile per SM, K 1024-8192, slope of time over K/BK less the MMA time)"
    found = {"launch": (costs["launch"]["value"], costs["launch"]["how"]),
             "iteration": (fit.iteration_s, f"mma.sync, four warps, intercept over copies per thread: {ksweep}"),
             "copy_issue": (fit.copy_issue_s, f"per 16-byte copy a thread issues: {ksweep}"),
             "wait": (fit.wait_s, f"wgmma, one warpgroup, median: {ksweep}")}  # fmt: skip
    if transpose is not None:
        found["transpose"] = (
            transpose["value"],
            f"per element per SM, roofmodel.backends.layout_probe: {transpose['how']}",
        )
    convert = gather = None
    if prov.sm_clock_mhz_median and costs["convert"]:
        from roofmodel.model.kernel_costs import (
            CONVERT_TILES_PER_SM,
            convert_cycles_per_element,
            gather_cycles_per_element,
        )

        clock_hz = prov.sm_clock_mhz_median * 1e6
        # convert_rates counts the tiles with both operands K-major only; the others are the gathers' pairs
        both_k = sum(1 for k in costs["convert"] if k.layout() == "kk")
        convert = convert_cycles_per_element(costs["convert"], CONVERT_TILES_PER_SM, clock_hz)
        gather = gather_cycles_per_element(costs["convert"], CONVERT_TILES_PER_SM, clock_hz)
    overlay["kernel_costs"] = {
        name: q(value * 1e9, "ns", how, digits=3 if name == "transpose" else 1)
        for name, (value, how) in found.items() if value and value > 0
    }  # fmt: skip
    if convert:
        overlay["kernel_costs"]["convert"] = q(
            convert, "cycles", "SM cycles per fp8 element an SM converts to fp16 for mma.sync (a pipe beside the MMAs): "
            f"1 / the median over {both_k} conversion-heavy fp8 tiles (mma.sync forced, "
            f"{CONVERT_TILES_PER_SM} tiles per SM) of elements converted per SM cycle "
            "(roofmodel.model.kernel_costs.convert_rates); the pair convert_shared and convert_warp (CTAs sharing the "
            "SM, both operands K-major) stays the machine file's: these tiles' BK 64 and 128 do not take it apart "
            "(benchmarks/convert_check.py)", digits=5)  # fmt: skip
    if gather and gather > 0:
        overlay["kernel_costs"]["gather"] = q(
            gather, "cycles", "SM cycles per element of an 8-bit MN-major operand mma.sync's warps read byte by byte "
            "(on the conversions' pipe): the median over the conversion-heavy fp8 tiles with B N-major and with A "
            f"M-major (mma.sync forced, {CONVERT_TILES_PER_SM} tiles per SM) of the extra time per iteration over the "
            "same tile with both operands K-major per gathered element (roofmodel.model.kernel_costs.gather_rates)",
            digits=5)  # fmt: skip
    if prov.sm_clock_mhz_median and costs["spill_pairs"]:
        from roofmodel.model.kernel_costs import spill_bandwidth

        spill = spill_bandwidth(costs["spill_pairs"], prov.sm_clock_mhz_median * 1e6)
        if spill:
            how = ("wgmma tiles that spill on four warps against the same tiles on eight, one tile per SM over K: "
                   "2 x (spilled - cold) registers x 4 B x threads / ((difference of the slopes per iteration - the "
                   "model's gap between one warpgroup and two) x SM clock), "
                   f"median of {len(costs['spill_pairs'])} pairs (roofmodel.model.kernel_costs)")  # fmt: skip
            overlay["kernel_costs"]["spill_bandwidth"] = q(spill, "B/cycle/SM", how)
    if progress is not None:
        progress(steps, steps, "done")
    return overlay, prov
