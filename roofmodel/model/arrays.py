"""Elementwise helpers that take numbers or numpy arrays alike, so that one formula serves the scalar
predictor and the vectorized search (numpy is imported only when an array is passed)."""

from __future__ import annotations

import math
from typing import Any


def _np() -> Any:
    import numpy as np

    return np


def is_array(*xs: Any) -> bool:
    return any(hasattr(x, "shape") for x in xs)


def _fold(name: str, scalar: Any, xs: tuple[Any, ...]) -> Any:
    if not is_array(*xs):
        return scalar(xs)
    op, out = getattr(_np(), name), xs[0]
    for x in xs[1:]:
        out = op(out, x)
    return out


def maximum(*xs: Any) -> Any:
    """Elementwise max of numbers or arrays (numpy.maximum folded over the arguments)."""
    return _fold("maximum", max, xs)


def minimum(*xs: Any) -> Any:
    """Elementwise min of numbers or arrays (numpy.minimum folded over the arguments)."""
    return _fold("minimum", min, xs)


def exp(x: Any) -> Any:
    """e ** x of a number or an array, by numpy.exp for both: where numpy has its own SIMD exp (x86 with AVX-512F),
    math.exp differs from it in the last bit for about 5% of arguments, and predict's numbers would then part from
    the search's arrays (a one-element array takes numpy's path, as cta_model.p_norm's powers do)."""
    np = _np()
    return np.exp(x) if is_array(x) else float(np.exp(np.atleast_1d(np.asarray(x, dtype=float)))[0])


def sqrt(x: Any) -> Any:
    """The square root of a number or an array (numpy.sqrt)."""
    return _np().sqrt(x) if is_array(x) else math.sqrt(x)


def where(cond: Any, a: Any, b: Any) -> Any:
    if is_array(cond, a, b):
        return _np().where(cond, a, b)
    return a if cond else b


def logical_not(x: Any) -> Any:
    return _np().logical_not(x) if is_array(x) else not x


def take(table: tuple[Any, ...], index: Any) -> Any:
    """table[index] for an integer or an integer array."""
    return _np().asarray(table)[index] if is_array(index) else table[index]


def ceil_div(a: Any, b: Any) -> Any:
    return -(-a // b)


def next_pow2(x: Any) -> Any:
    """The smallest power of two >= x (x >= 1), for a number or an array."""
    if is_array(x):
        np = _np()
        return (2 ** np.ceil(np.log2(np.asarray(x, dtype=float)) - 1e-9)).astype(np.int64)
    out = 1
    while out < x:
        out *= 2
    return out


def whole(x: Any) -> Any:
    """A whole number of a number or an integer array of an array (floats that hold whole numbers, as the model's
    byte counts do where a share such as B_SHARE multiplied them)."""
    return x.astype(_np().int64) if is_array(x) else int(x)


def lowest_set_bit(x: Any) -> Any:
    """The largest power of two dividing a whole number x > 0 (x & -x), for a number or an integer array."""
    return x & -x
