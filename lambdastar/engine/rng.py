"""Random number streams used by the engine kernels.

Both streams live in one ``int64`` state array (see :func:`glibc_state` and :func:`pcg64_state`)
so the numba kernels take a single argument type; :func:`rand31` draws the next 31-bit integer.

* ``glibc``: the glibc ``rand()`` TYPE_3 additive-feedback generator (``srand(seed)`` seeding:
  31 words from the 16807 LCG, 310 discarded outputs, then ``r[i] = r[i-31] + r[i-3]`` and
  output ``r[i] >> 1``), replayed exactly.
* ``pcg64``: NumPy's PCG64 bit generator (128-bit LCG, XSL-RR output) re-implemented for numba;
  a stream is ``np.random.PCG64(np.random.SeedSequence(key))`` advanced by ``episode * 2**64``
  steps, and each draw is ``random_raw() >> 33``.  :func:`pcg64_state` reads the seeded state from
  NumPy itself, so the streams are NumPy's.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from .jit import helper_jit

STATE_SIZE = 40
MODE = 33  # 0 = glibc, 1 = pcg64
_F, _R = 31, 32  # glibc front/rear pointers
_SH, _SL, _IH, _IL = 34, 35, 36, 37  # pcg64 state/increment, high/low 64-bit words (bit patterns)

_MASK32 = 0xFFFFFFFF
PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645


# --------------------------------------------------------------------------------------------
# glibc
def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def glibc_state(seed: int) -> np.ndarray:
    """State after ``srand(seed)`` (seed is a C ``unsigned int``)."""
    seed &= _MASK32
    if seed == 0:
        seed = 1
    word = seed - (1 << 32) if seed >= 1 << 31 else seed  # int32_t word = seed
    r = [word & _MASK32]
    for _ in range(1, 31):
        hi = _c_div(word, 127773)
        lo = word - hi * 127773
        word = 16807 * lo - 2836 * hi
        if word < 0:
            word += 2147483647
        r.append(word & _MASK32)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[:31] = r
    st[_F], st[_R], st[MODE] = 3, 0, 0
    for _ in range(310):
        _glibc_next(st)
    return st


class GlibcRandom:
    """Plain-Python glibc ``rand()`` (for tests and tools)."""

    def __init__(self, seed: int = 1):
        self.state = glibc_state(seed)

    def rand(self) -> int:
        return int(_glibc_next(self.state))


@helper_jit
def _glibc_next(st):
    f = st[31]
    r = st[32]
    v = (st[f] + st[r]) & 0xFFFFFFFF
    st[f] = v
    f += 1
    r += 1
    if f == 31:
        f = 0
    if r == 31:
        r = 0
    st[31] = f
    st[32] = r
    return v >> 1


# --------------------------------------------------------------------------------------------
# 128-bit arithmetic on (hi, lo) uint64 pairs
@intrinsic
def _mul64(typingctx, a, b):
    """Full 64x64 -> 128 product of two uint64 values as (hi, lo): one native multiply."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        p = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        lo = builder.trunc(p, ir.IntType(64))
        hi = builder.trunc(builder.lshr(p, ir.Constant(wide, 64)), ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, (hi, lo))

    return sig, codegen


@njit(cache=True, inline="always")
def _mul128(ah, al, bh, bl):
    hi, lo = _mul64(al, bl)
    hi = hi + al * bh + ah * bl
    return hi, lo


@njit(cache=True, inline="always")
def _add128(ah, al, bh, bl):
    lo = al + bl
    carry = np.uint64(1) if lo < al else np.uint64(0)
    return ah + bh + carry, lo


_MH = np.uint64(PCG_MULT >> 64)
_ML = np.uint64(PCG_MULT & 0xFFFFFFFFFFFFFFFF)


@helper_jit
def _pcg_next(st):
    sh = np.uint64(st[34])
    sl = np.uint64(st[35])
    ih = np.uint64(st[36])
    il = np.uint64(st[37])
    sh, sl = _mul128(sh, sl, _MH, _ML)
    sh, sl = _add128(sh, sl, ih, il)
    st[34] = np.int64(sh)
    st[35] = np.int64(sl)
    x = sh ^ sl
    rot = sh >> np.uint64(58)
    out = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    return np.int64(out >> np.uint64(33))


@njit(cache=True)
def pcg_advance(st, delta_hi, delta_lo):
    """Advance the PCG64 state in ``st`` by the 128-bit ``delta`` (uint64 words)."""
    cur_mh = _MH
    cur_ml = _ML
    cur_ph = np.uint64(st[36])
    cur_pl = np.uint64(st[37])
    acc_mh = np.uint64(0)
    acc_ml = np.uint64(1)
    acc_ph = np.uint64(0)
    acc_pl = np.uint64(0)
    one = np.uint64(1)
    for word in range(2):
        d = delta_lo if word == 0 else delta_hi
        for _ in range(64):
            if d & one:
                acc_mh, acc_ml = _mul128(acc_mh, acc_ml, cur_mh, cur_ml)
                acc_ph, acc_pl = _mul128(acc_ph, acc_pl, cur_mh, cur_ml)
                acc_ph, acc_pl = _add128(acc_ph, acc_pl, cur_ph, cur_pl)
            th, tl = _add128(cur_mh, cur_ml, np.uint64(0), one)
            cur_ph, cur_pl = _mul128(th, tl, cur_ph, cur_pl)
            cur_mh, cur_ml = _mul128(cur_mh, cur_ml, cur_mh, cur_ml)
            d = d >> one
    sh, sl = _mul128(acc_mh, acc_ml, np.uint64(st[34]), np.uint64(st[35]))
    sh, sl = _add128(sh, sl, acc_ph, acc_pl)
    st[34] = np.int64(sh)
    st[35] = np.int64(sl)


def pcg64_state(key) -> np.ndarray:
    """Stream state of ``np.random.PCG64(np.random.SeedSequence(key))`` (not yet advanced)."""
    s = np.random.PCG64(np.random.SeedSequence(key)).state["state"]
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[MODE] = 1
    for idx, value in ((_SH, s["state"] >> 64), (_SL, s["state"]), (_IH, s["inc"] >> 64), (_IL, s["inc"])):
        st[idx] = np.uint64(value & 0xFFFFFFFFFFFFFFFF).view(np.int64)
    return st


@njit(cache=True)
def pcg_stream_for(base, episode):
    """Copy of ``base`` advanced by ``episode * 2**64`` draws: the episode's own stream."""
    st = base.copy()
    pcg_advance(st, np.uint64(episode), np.uint64(0))
    return st


# --------------------------------------------------------------------------------------------
@helper_jit
def rand31(st):
    """Next 31-bit random integer from either stream."""
    if st[33] == 0:
        return _glibc_next(st)
    return _pcg_next(st)
