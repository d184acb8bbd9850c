"""The one parser of numeric request parameters (query strings, form fields): finite and bounded.

``float("nan")``, ``float("inf")`` and ``float("1e309")`` all parse, and NaN compares false with
everything, so ``min(max(nan, 0), cap)`` is NaN and a loop bounded by it never ends. Every numeric
parameter a request carries goes through :func:`number_param`, which refuses with
:class:`core.errors.InvalidInput` (a 400 with its message) anything but a finite number within its
bounds: NaN, infinities, overflows, letters, an empty value, a number out of range.
"""

import math
from collections.abc import Mapping

from core.errors import InvalidInput


def number_param(
    params: Mapping,
    name: str,
    *,
    default: float | None = None,
    minimum: float,
    maximum: float,
    integer: bool = False,
    cap: bool = False,
) -> float | int | None:
    """``params[name]`` as a number in [minimum, maximum] (an int when ``integer``); ``default`` when the
    parameter is absent. Raises InvalidInput naming the parameter and its bounds otherwise (an empty
    value included: ``?wait=`` is a mistake, not a request for the default). With ``cap``, a finite
    number above ``maximum`` means ``maximum`` (the server's longest wait, say), as it always has."""
    if name not in params:
        return default
    raw = params.get(name)
    kind = "a whole number" if integer else "a number"
    problem = InvalidInput(f"{name} must be {kind} from {_show(minimum)} to {_show(maximum)}.", code="bad_parameter")
    if not isinstance(raw, str) or len(raw) > 40:
        raise problem
    try:
        number = int(raw.strip()) if integer else float(raw.strip())
    except ValueError:
        raise problem from None
    if cap and math.isfinite(number) and number > maximum:
        return maximum
    if not math.isfinite(number) or not minimum <= number <= maximum:
        raise problem
    return number


def _show(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound)
