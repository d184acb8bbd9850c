"""The engine's Numba decorator for small hot-loop helpers.

``helper_jit`` compiles a helper that allocates nothing without Numba's reference counting (NRT):
a call then hands its arrays over without the atomic increment/decrement of their counts, which
costs more than a helper's own work (measured 2-3x on local search, 4-6x on the learning types of
reference-2016).  Unlike ``inline="always"``, each helper is still compiled once, so a cold
compile stays short.  A helper compiled this way must not create arrays.
"""

from numba import njit
from numba.core.cpu import CPUTargetOptions

# `_nrt` is a private Numba option (present for years): should a release drop it, the helpers compile
# with reference counting instead, giving the same numbers, more slowly.
helper_jit = njit(cache=True, _nrt=False) if hasattr(CPUTargetOptions, "_nrt") else njit(cache=True)
