"""Seed 000: how to make a compute-bound problem actually compute-bound (A100, FP32 on CUDA cores).

Reproduces the seed's reasoning with roofmodel: the simple two-level machine model, then the
realistic DRAM -> smem -> RF -> CUDA core pipeline, the reuse each stage needs and the tiles that
provide it. Run: python examples/seed_000_a100_cuda_core.py
"""

from roofmodel import Gemm, Tile, analyze, load_machine

a100 = load_machine("a100")
gemm = Gemm(m=4096, n=4096, k=4096, dtype="fp32")

# §2, the simple machine model: infinite on-chip storage, one DRAM roof.
r = analyze(a100, gemm, levels=["dram", "smem", "rf"], bandwidth="spec")
print(f"A100 per-SM DRAM bandwidth: {r.stages[0].bandwidth_bytes_per_cycle_per_sm:.2f} B/cycle (seed: 13.3)")
print(
    f"problem: {gemm.fmas / 2**30:.0f} Gi FMA over {3 * 4096 * 4096 / 2**20:.0f} Mi elements "
    f"= {gemm.fmas / (3 * 4096 * 4096):.0f} FMA/element ({gemm.fmas / gemm.compulsory_bytes:.1f} FMA/B)"
)
print(
    f"machine: 64 FMA/cycle / {r.stages[0].bandwidth_bytes_per_cycle_per_sm:.2f} B/cycle "
    f"= {64 / r.stages[0].bandwidth_bytes_per_cycle_per_sm:.2f} FMA/B -> compute-bound"
)

# §4-5, the realistic model: every stage must deliver 512 B/cycle.
print(f"\noperand demand: {r.stages[0].demand_bytes_per_cycle_per_sm:.0f} B/cycle/SM")
for s in r.stages:
    print(
        f"  {s.name:<11} raw {s.bandwidth_bytes_per_cycle_per_sm:7.2f} B/cycle  needs reuse {s.required_reuse:6.2f} "
        f"(local {s.local_required_reuse:5.2f})  -> tile {s.minimum_tile_edge}  held by {s.holder}"
    )
print(
    f"chosen: CTA {r.tiles.cta[0]}x{r.tiles.cta[1]}, thread tile {r.tiles.register_tile[0]}x{r.tiles.register_tile[1]}; "
    f"local x global = {r.stages[0].local_achieved_reuse:.0f} x {r.stages[1].local_achieved_reuse:.0f} "
    f"= {r.stages[0].achieved_reuse:.0f}"
)
print(f"verdict: {r.verdict}")

# §5.2: a 32 x 32 tile is not enough on its own.
small = analyze(a100, gemm, levels=["dram", "smem", "rf"], bandwidth="spec", tile=Tile(bm=32, bn=32))
print(f"\nwith a 32x32 smem tile: {small.verdict}")
