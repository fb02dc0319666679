"""Draw a fresh sample's ten shapes (fresh19 onward): two square, one short-K, one long-K, one skinny, two decode,
two odd and one small, sizes at random per family with Python's random and the given seed, in the ranges of
gpu_broad_sweep.py's FRESH19 comment; a name or size an earlier sample (SHAPES or a FRESH*_SHAPES list of gpu_broad_sweep.py) holds
is drawn again, except that a decode name already held takes the next letter (decode37b), and so does a held name of
a family whose every name is held (short K after fresh26: NAME_SPACE); a family whose first range's every size is
held draws from the next of LATER_RANGES (squares and small ones after fresh33), and from the one after where that is
held too (small ones after fresh41, fresh49, fresh57, fresh73, fresh81 and fresh113, squares after fresh46, fresh62
and fresh78).
Prints the list to paste into gpu_broad_sweep.py and the draws it redrew, for its comment.

    python benchmarks/draw_fresh_shapes.py 2026_12_5

With ``--without FRESH25_SHAPES`` the named list counts as not yet held: drawing it again from its own seed gives it
back (tests/test_draw_fresh_shapes.py checks fresh20 to fresh117 that way).
"""

from __future__ import annotations

import argparse
import random
import re
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import gpu_broad_sweep

Shape = tuple[str, str, str, int, int, int]
# Draws of one family before the rule gives up.
MAX_DRAWS = 1000
# The ranges the sizes are drawn from (FRESH19_SHAPES's comment in gpu_broad_sweep.py); a family's name says the
# first range of its row.
SIZES = {"square": (range(2048, 6145, 64),),
         "short_k": (range(256, 641, 16), range(6144, 12289, 256)),  # K; M and N
         "long_k": (range(12288, 32769, 256), range(1024, 2561, 128)),  # K; M and N
         "skinny": (range(256, 513, 16), range(8192, 24577, 512), range(4096, 12289, 128)),  # M, N, K
         "decode": (range(2, 65), range(8192, 28673, 512), range(4096, 12289, 256)),  # M, N, K
         "odd": (range(1000, 7001, 100),),  # M, N and K
         "small": (range(1024, 2049, 32),)}  # fmt: skip
# Where every size of a family's first range is held (the squares after fresh33), its sizes are drawn from the next
# range instead, and so on down the list (small ones after fresh41, fresh49 and fresh57, squares after fresh46 and
# fresh62; the last large square range, 10304-12288, added with two squares of the one before left; small 4128-4608 with
# four left, and 4640-5120 once every small size was held, after fresh73; squares 2064-6128 in steps of 32, sizes of 16
# past a multiple of 32 that no square or small range holds, once the last large range was held, after fresh78: smaller
# squares, which time faster than those over 10k; small ones 1040-2032 in steps of 32, 16 past a multiple of 32, which
# no range holds, once every small size of the others was held, after fresh81; small ones 5152-6144 in steps of 32,
# going on from 4640-5120, once those were held too, after fresh113: of them the multiples of 64 are the squares' first
# range, held since fresh33, so 16 sizes are left, none a size another family's range can draw again); the draws
# before a range is reached never touch it, so every earlier sample draws again as it was (gpu_broad_sweep.py's comments call the first three
# NEXT_RANGE, LAST_RANGE and FOURTH_RANGE, their names before the list).
LATER_RANGES = {"square": (range(6208, 8193, 64), range(8256, 10241, 64), range(10304, 12289, 64),
                           range(2064, 6145, 32)),
                "small": (range(2080, 2561, 32), range(2592, 3073, 32), range(3104, 3585, 32),
                          range(3616, 4097, 32), range(4128, 4609, 32), range(4640, 5121, 32),
                          range(1040, 2049, 32), range(5152, 6145, 32))}  # fmt: skip
PREFIX = {"square": "sq", "short_k": "shortk", "long_k": "longk", "skinny": "skinny", "small": "small"}
# The names each family's rule can give: once every one is held, as short K's 25 were after fresh26, a held name of
# that family takes the next letter (shortk400b), as decode's always do.
NAME_SPACE = {family: {f"{prefix}{x}" for x in SIZES[family][0]} for family, prefix in PREFIX.items()}
FAMILIES = ("square", "square", "short_k", "long_k", "skinny", "decode", "decode", "odd", "odd", "small")


def held_shapes(without: tuple[str, ...] = ()) -> list[Shape]:
    """Every shape of the broad sweep's lists in gpu_broad_sweep.py (SHAPES and FRESH*_SHAPES), but those of
    ``without``."""
    return [s for name, v in vars(gpu_broad_sweep).items()
            if re.fullmatch(r"(FRESH\d*_)?SHAPES", name) and name not in without for s in v]  # fmt: skip


def _pick(rnd: random.Random, r: range) -> int:
    return rnd.randrange(r.start, r.stop, r.step)


def _one(rnd: random.Random, family: str, next_range: int = 0) -> tuple[str, tuple[int, int, int]]:
    """One draw of ``family``: its name and (M, N, K), from its first range (``next_range`` 0) or the
    ``next_range``-th of LATER_RANGES; the calls to ``rnd`` in this order keep old samples drawable."""
    sizes = SIZES[family]
    if family in ("square", "small"):
        s = _pick(rnd, _ranges(family)[next_range])
        return f"{PREFIX[family]}{s}", (s, s, s)
    if family in ("short_k", "long_k"):
        k, m, n = _pick(rnd, sizes[0]), _pick(rnd, sizes[1]), _pick(rnd, sizes[1])
        return f"{PREFIX[family]}{k}", (m, n, k)
    if family == "odd":
        m, n, k = (_pick(rnd, sizes[0]) for _ in range(3))
        return f"odd{m}x{n}x{k}", (m, n, k)
    m, n, k = (_pick(rnd, r) for r in sizes)  # skinny, decode
    return f"{family}{m}", (m, n, k)


def _every_name_held(family: str, names: set[str]) -> bool:
    """Whether every name NAME_SPACE gives ``family`` is among ``names``."""
    return family in NAME_SPACE and NAME_SPACE[family] <= names


def _ranges(family: str) -> tuple[range, ...]:
    """``family``'s ranges in the order they are drawn from: its first, then LATER_RANGES's."""
    return SIZES[family][0], *LATER_RANGES.get(family, ())


def _ranges_held(family: str, sizes: set[tuple[int, ...]]) -> int:
    """How many of ``family``'s ranges (_ranges) have every size among ``sizes``, counting on while a next one is given
    (0 for a family without LATER_RANGES): the range to draw from next."""
    ranges = _ranges(family)
    held = 0
    while held + 1 < len(ranges) and all((x, x, x) in sizes for x in ranges[held]):
        held += 1
    return held


def draw(seed: int, held: list[Shape]) -> tuple[list[Shape], list[str]]:
    """The ten shapes of FAMILIES drawn with ``seed`` against the ``held`` ones, and the names drawn again."""
    rnd = random.Random(seed)
    names, sizes = {s[0] for s in held}, {tuple(s[3:]) for s in held}
    out: list[Shape] = []
    redrawn: list[str] = []
    for family in FAMILIES:
        for _ in range(MAX_DRAWS):
            name, size = _one(rnd, family, _ranges_held(family, sizes))
            if family == "decode" or _every_name_held(family, names):
                base, i = name, 0
                while name in names:
                    i += 1
                    name = base + string.ascii_lowercase[i]
            if name not in names and size not in sizes:
                break
            redrawn.append(name)
        else:
            raise ValueError(f"no {family} shape left to draw: {MAX_DRAWS:,} draws each held (its names take one of "
                             "few sizes: the rule needs a new range or name before another sample)")  # fmt: skip
        names.add(name)
        sizes.add(size)
        out.append((name, family, "holdout", *size))
    return out, redrawn


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=lambda s: int(s.replace("_", "")))
    ap.add_argument("--without", nargs="*", default=[], help="shape lists to count as not held (e.g. FRESH25_SHAPES)")
    args = ap.parse_args()
    shapes, redrawn = draw(args.seed, held_shapes(tuple(args.without)))
    for s in shapes:
        print(f"    {s!r},")
    print("drawn again:", ", ".join(redrawn) or "none")


if __name__ == "__main__":
    main()
