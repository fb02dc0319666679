"""benchmarks/draw_fresh_shapes.py draws the fresh samples' shapes again from their seeds: fresh20 to fresh117 were
drawn by the rule it writes down (fresh19, drawn before, by a rule not kept), so a later sample can be drawn the same
way and checked."""

from __future__ import annotations

import pytest

from benchmarks import draw_fresh_shapes, gpu_broad_sweep

# The sizes' seeds, from each list's comment in gpu_broad_sweep.py (the kernels' seeds are FRESH_SAMPLES's).
SIZE_SEEDS = {20: 2026_11_29, 21: 2026_11_30, 22: 2026_12_1, 23: 2026_12_2, 24: 2026_12_3, 25: 2026_12_4,
              26: 2026_12_5, 27: 2026_12_6, 28: 2026_12_7, 29: 2026_12_8,
              30: 2026_12_9, 31: 2026_12_10, 32: 2026_12_11, 33: 2026_12_12, 34: 2026_12_13, 35: 2026_12_14,
              36: 2026_12_15, 37: 2026_12_16, 38: 2026_12_17, 39: 2026_12_18, 40: 2026_12_19, 41: 2026_12_20,
              42: 2026_12_21, 43: 2026_12_22, 44: 2026_12_23, 45: 2026_12_24, 46: 2026_12_25, 47: 2026_12_26,
              48: 2026_12_27, 49: 2026_12_28, 50: 2026_12_29,
              51: 2026_12_30, 52: 2026_12_31,
              53: 2027_1_1, 54: 2027_1_2,
              55: 2027_1_3, 56: 2027_1_4,
              57: 2027_1_5, 58: 2027_1_6,
              59: 2027_1_7, 60: 2027_1_8,
              61: 2027_1_9, 62: 2027_1_10,
              63: 2027_1_11, 64: 2027_1_12,
              65: 2027_1_13, 66: 2027_1_14, 67: 2027_1_15, 68: 2027_1_16, 69: 2027_1_17,
              70: 2027_1_18, 71: 2027_1_19, 72: 2027_1_20, 73: 2027_1_21, 74: 2027_1_22, 75: 2027_1_23,
              76: 2027_1_24, 77: 2027_1_25, 78: 2027_1_26,
              79: 2027_1_27, 80: 2027_1_28, 81: 2027_1_29,
              82: 2027_1_30, 83: 2027_1_31, 84: 2027_1_32, 85: 2027_1_33, 86: 2027_1_34,
              87: 2027_1_35, 88: 2027_1_36, 89: 2027_1_37,
              90: 2027_1_38, 91: 2027_1_39, 92: 2027_1_40,
              93: 2027_1_41, 94: 2027_1_42, 95: 2027_1_43,
              96: 2027_1_44, 97: 2027_1_45, 98: 2027_1_46, 99: 2027_1_47, 100: 2027_1_48, 101: 2027_1_49,
              102: 2027_1_50, 103: 2027_1_51, 104: 2027_1_52, 105: 2027_1_53, 106: 2027_1_54, 107: 2027_1_55,
              108: 2027_1_56, 109: 2027_1_57, 110: 2027_1_58, 111: 2027_1_59, 112: 2027_1_60, 113: 2027_1_61,
              114: 2027_1_62, 115: 2027_1_63, 116: 2027_1_64, 117: 2027_1_65}  # fmt: skip


def later_samples(first: int) -> tuple[str, ...]:
    """The names of the fresh samples from ``first`` to the last drawn (SIZE_SEEDS): the held shapes a draw excludes."""
    return tuple(f"FRESH{i}_SHAPES" for i in range(first, max(SIZE_SEEDS) + 1))


@pytest.mark.parametrize("i", sorted(SIZE_SEEDS))
def test_each_fresh_sample_is_drawn_again_from_its_seed(i: int) -> None:
    name = f"FRESH{i}_SHAPES"
    later = tuple(f"FRESH{j}_SHAPES" for j in SIZE_SEEDS if j > i)  # drawn after it: not held when it was drawn
    shapes, _ = draw_fresh_shapes.draw(SIZE_SEEDS[i], draw_fresh_shapes.held_shapes((name, *later)))
    assert shapes == getattr(gpu_broad_sweep, name)


def test_a_held_name_or_size_is_drawn_again():
    held = draw_fresh_shapes.held_shapes(("FRESH26_SHAPES",))
    shapes, redrawn = draw_fresh_shapes.draw(2026_12_5, held)
    assert not {s[0] for s in shapes} & {s[0] for s in held} and redrawn
    assert not {s[3:] for s in shapes} & {s[3:] for s in held}
    assert [s[1] for s in shapes] == list(draw_fresh_shapes.FAMILIES)


def test_a_family_whose_every_name_is_held_takes_letters():
    """After fresh26 every short-K name (K = 256 to 640 by 16) is held: a held one takes the next letter, as decode's
    do, while the other families still draw names of their own; the name spaces are the ranges _one draws from."""
    held = draw_fresh_shapes.held_shapes(("FRESH32_SHAPES", "FRESH33_SHAPES"))  # as held after fresh31 was drawn
    assert draw_fresh_shapes._every_name_held("short_k", {s[0] for s in held})
    assert not draw_fresh_shapes._every_name_held("square", {s[0] for s in held})
    shapes, _ = draw_fresh_shapes.draw(2026_12_6, held)
    short = next(s for s in shapes if s[1] == "short_k")
    assert short[0][-1].isalpha() and short[0] not in {s[0] for s in held} and short[3:] not in {s[3:] for s in held}
    import random

    rnd = random.Random(0)
    for family, space in draw_fresh_shapes.NAME_SPACE.items():
        assert {draw_fresh_shapes._one(rnd, family)[0] for _ in range(20000)} == space, family


def test_a_family_with_no_shape_left_is_one_clear_error(monkeypatch):
    monkeypatch.setattr(draw_fresh_shapes, "MAX_DRAWS", 3)
    held = [("sq4096", "square", "train", 4096, 4096, 4096)] * 1
    monkeypatch.setattr(draw_fresh_shapes, "_one", lambda rnd, family, next_range=False: ("sq4096", (4096, 4096, 4096)))
    with pytest.raises(ValueError, match="no square shape left to draw"):
        draw_fresh_shapes.draw(1, held)


def test_a_family_whose_first_range_is_held_draws_from_the_next():
    """After fresh33 every square size but one of 2048-6144 is held, and every small one of 1024-2048: the square
    drawn first takes the one left, the second and the small one come from the first of LATER_RANGES (6208-8192, 2080-2560); with
    the first range free again (the lists after fresh31 held) nothing comes from the next."""
    shapes, _ = draw_fresh_shapes.draw(
        2026_12_13,
        draw_fresh_shapes.held_shapes(("FRESH34_SHAPES", "FRESH35_SHAPES", "FRESH36_SHAPES", "FRESH37_SHAPES")),
    )
    squares = [s[3] for s in shapes if s[1] == "square"]
    assert squares[0] in draw_fresh_shapes.SIZES["square"][0]
    assert squares[1] in draw_fresh_shapes.LATER_RANGES["square"][0]
    assert next(s[3] for s in shapes if s[1] == "small") in draw_fresh_shapes.LATER_RANGES["small"][0]
    earlier, _ = draw_fresh_shapes.draw(
        2026_12_13,
        draw_fresh_shapes.held_shapes(
            ("FRESH32_SHAPES", "FRESH33_SHAPES", "FRESH34_SHAPES", "FRESH35_SHAPES", "FRESH36_SHAPES", "FRESH37_SHAPES")
        ),
    )
    assert all(s[3] not in draw_fresh_shapes.LATER_RANGES.get(s[1], ((),))[0] for s in earlier)


def test_once_the_last_large_square_range_is_held_squares_come_from_the_mid_range():
    """After fresh78 every square of 10304-12288 is held, so the next squares (seed 2027_1_27, fresh79's) come
    from 2064-6128 in steps of 32, each 16 past a multiple of 32 (no square or small range holds those); with fresh78's
    shapes counted as not held, a size of the large range is left and the draw stays there, as fresh78's did."""
    mid = draw_fresh_shapes.LATER_RANGES["square"][3]
    shapes, _ = draw_fresh_shapes.draw(
        2027_1_27,
        draw_fresh_shapes.held_shapes(later_samples(79)),
    )
    squares = [s[3] for s in shapes if s[1] == "square"]
    assert len(squares) == 2 and all(x in mid and x % 32 == 16 for x in squares)
    held = {tuple(s[3:]) for s in draw_fresh_shapes.held_shapes(later_samples(79))}
    assert all((x, x, x) in held for x in draw_fresh_shapes.LATER_RANGES["square"][2])
    before, _ = draw_fresh_shapes.draw(
        2027_1_26,
        draw_fresh_shapes.held_shapes(later_samples(78)),
    )
    assert all(s[3] in draw_fresh_shapes.LATER_RANGES["square"][2] for s in before if s[1] == "square")


def test_once_every_small_size_is_held_small_ones_come_from_sizes_16_past_a_multiple_of_32():
    """After fresh81 every small size of the ranges before is held (fresh81's small5088 the last left in 4640-5120), so
    the next small shape (seed 2027_1_30, fresh82's) comes from 1040-2032 in steps of 32, which no square or small range
    holds; with fresh81's shapes counted as not held, its own draw stays in 4640-5120."""
    low = draw_fresh_shapes.LATER_RANGES["small"][6]
    held = draw_fresh_shapes.held_shapes(later_samples(82))
    sizes = {tuple(s[3:]) for s in held}
    assert all((x, x, x) in sizes for r in draw_fresh_shapes.LATER_RANGES["small"][:6] for x in r)
    assert not any((x, x, x) in sizes for x in low)
    shapes, _ = draw_fresh_shapes.draw(2027_1_30, held)
    assert [s[3] for s in shapes if s[1] == "small"] == [1264]
    before, _ = draw_fresh_shapes.draw(
        2027_1_29,
        draw_fresh_shapes.held_shapes(later_samples(81)),
    )
    assert [s[3] for s in before if s[1] == "small"] == [5088]


def test_once_sizes_16_past_a_multiple_of_32_are_held_small_ones_go_on_past_5120():
    """After fresh113 every small size of 1040-2032 is held as well (fresh113's small1968 among the last), so the next
    small shape (seed 2027_1_62, fresh114's) comes from 5152-6144 in steps of 32, whose multiples of 64 the squares'
    first range holds: 5920; with fresh113's shapes counted as not held, its own draw stays in 1040-2032."""
    last = draw_fresh_shapes.LATER_RANGES["small"][7]
    held = draw_fresh_shapes.held_shapes(later_samples(114))
    sizes = {tuple(s[3:]) for s in held}
    assert all((x, x, x) in sizes for r in draw_fresh_shapes.LATER_RANGES["small"][:7] for x in r)
    assert not any((x, x, x) in sizes for x in last if x % 64)
    shapes, _ = draw_fresh_shapes.draw(2027_1_62, held)
    assert [s[3] for s in shapes if s[1] == "small"] == [5920]
    before, _ = draw_fresh_shapes.draw(2027_1_61, draw_fresh_shapes.held_shapes(later_samples(113)))
    assert [s[3] for s in before if s[1] == "small"] == [1968]
