"""Thread-block-cluster multicast (seed 000 §5.2): SMs that need the same data share one fetch.

A cm x cn cluster of BM x BN CTA tiles (cm along M, cn along N) needs cm distinct A panels and
cn distinct B panels, where its CTAs request cm*cn of each; with multicast the memory system
serves each distinct panel once. For the traffic it draws from the level above, the cluster acts
as one (cm*BM) x (cn*BN) tile (seed 000 §5.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from roofmodel.errors import ProblemError
from roofmodel.machine import Machine


def multicast_factor(cm: int, cn: int, bm: float, bn: float) -> float:
    """Requested / distinct operand bytes of a cm x cn cluster: cm*cn*(BM+BN) / (cm*BM + cn*BN).

    seed 000 §5.2: a 2x2 cluster of 32x32 tiles requests 4*(32+32) = 256*K and needs 2*32 + 2*32 =
    128*K distinct elements: a factor of 2. It never exceeds the cluster size cm*cn.
    """
    return cm * cn * (bm + bn) / (cm * bm + cn * bn)


def cluster_tile(cm: int, cn: int, bm: int, bn: int) -> tuple[int, int]:
    """The tile a cluster acts as for the level above: (cm*BM) x (cn*BN) (seed 000 §5.2.2)."""
    return (cm * bm, cn * bn)


@dataclass(frozen=True)
class ClusterCycles:
    """Cycles per unit of K for a group of SMs: operand reads from a level vs the compute."""

    read_cycles_per_k: float
    multicast_read_cycles_per_k: float
    compute_cycles_per_k: float


def cluster_cycles_per_k(
    cm: int,
    cn: int,
    bm: int,
    bn: int,
    element_bytes: int,
    bw_bytes_per_cycle_per_sm: float,
    fma_per_cycle_per_sm: float,
) -> ClusterCycles:
    """seed 000 §5.2's arithmetic for cm*cn SMs each computing one BM x BN tile.

    Reads: cm*cn*(BM+BN)*K*bytes over the SMs' joint bandwidth cm*cn*bw; with multicast, only the
    distinct (cm*BM + cn*BN)*K*bytes. Compute: each SM's BM*BN*K FMAs at its FMA rate (the SMs work
    in parallel). 4 SMs, 32x32, fp32, 13.3 B/cycle, 64 FMA/cycle: 19.2K, 9.6K and 16K cycles.
    """
    sms = cm * cn
    requested = sms * (bm + bn) * element_bytes
    distinct = (cm * bm + cn * bn) * element_bytes
    return ClusterCycles(
        read_cycles_per_k=requested / (sms * bw_bytes_per_cycle_per_sm),
        multicast_read_cycles_per_k=distinct / (sms * bw_bytes_per_cycle_per_sm),
        compute_cycles_per_k=bm * bn / fma_per_cycle_per_sm,
    )


def check_cluster(machine: Machine, cm: int, cn: int) -> None:
    """Raise ProblemError unless the machine can run a cm x cn cluster with multicast."""
    if cm < 1 or cn < 1:
        raise ProblemError(f"--cluster: sizes must be >= 1 (got {cm}x{cn})")
    if cm * cn == 1:
        return
    if machine.cluster is None:
        raise ProblemError(
            f"--cluster {cm}x{cn}: {machine.name} has no thread block clusters (compute capability "
            f"{machine.compute_capability}; clusters need 9.0)"
        )
    if not machine.cluster.tma_multicast:
        raise ProblemError(f"--cluster {cm}x{cn}: {machine.name} has clusters but no TMA multicast")
    limit = machine.cluster.max_size_nonportable or machine.cluster.max_size
    if cm * cn > limit.n:
        raise ProblemError(f"--cluster {cm}x{cn}: {cm * cn} CTAs exceed the cluster limit of {limit.n}")


def check_pair_cluster(family: str, cm: int, cn: int) -> None:
    """tcgen05's two-SM form pairs the CTAs of a cluster whose ranks differ in the last bit, along M
    here (CUTLASS's 2SM kernels: cluster M a multiple of 2): refuse a cluster without such pairs."""
    if family == "tcgen05.2sm" and cm % 2:
        raise ProblemError(
            f"--instruction tcgen05.2sm: the pair of CTAs is a cluster along M; --cluster {cm}x{cn} needs an even "
            "first dimension (e.g. 2x1)"
        )


def parse_cluster(text: str) -> tuple[int, int]:
    """'2x1' -> (2, 1): cm CTAs along M by cn along N."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ProblemError(f"--cluster: expected CMxCN, e.g. 2x1 (got {text!r})")
    cm, cn = (int(p) for p in parts)
    if cm < 1 or cn < 1:
        raise ProblemError(f"--cluster: sizes must be >= 1 (got {text!r})")
    return cm, cn
