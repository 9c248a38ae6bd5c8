"""A per-variant memo that also remembers failures: one dict per (variant, name), errors re-raised.

Meld analysis and its engine wrappers are pure functions of a variant and a meld, called again and
again on the same melds (search, candidate building, replays), and many melds tried are invalid.
`memoized` keeps each answer, the error included, in a dict stored on the variant under `name`
(so each options-derived variant has its own). A cached error is raised again as a fresh copy,
so no traceback or context collects on the stored one. A dict holding more than `cap` entries is
emptied before the next one goes in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any, TypeVar

Owner = TypeVar("Owner")
Arg = TypeVar("Arg")
Result = TypeVar("Result")


def memoized(
    name: str, error_type: type[Exception], cap: int, key: Callable[[Any], Hashable] | None = None
) -> Callable[[Callable[[Owner, Arg], Result]], Callable[[Owner, Arg], Result]]:
    """Decorate ``f(variant, meld)`` to remember its result, or the `error_type` it raised, per variant.

    `key` turns `meld` into the cache key (default: `meld` itself); `f` still gets `meld` as given.
    The wrapper takes exactly ``(variant, meld)`` and raises in its own frame, so a cache hit costs
    what an inline cache costs (extra arguments or frames measurably slow the hot meld checks).
    """

    def decorate(compute: Callable[[Owner, Arg], Result]) -> Callable[[Owner, Arg], Result]:
        @wraps(compute)
        def cached(variant: Owner, meld: Arg) -> Result:
            k = meld if key is None else key(meld)
            cache: dict[Hashable, Any] | None = variant.__dict__.get(name)
            if cache is None:
                cache = variant.__dict__[name] = {}
            hit: Any = cache.get(k)
            if hit is None:
                try:
                    hit = compute(variant, meld)
                except error_type as error:
                    hit = error
                if len(cache) > cap:
                    cache.clear()
                cache[k] = hit
            if isinstance(hit, error_type):
                raise _fresh(hit)  # not bound to a local: the frame would hold it in a reference cycle
            return hit

        return cached

    return decorate


def _fresh(error: Exception) -> Exception:
    """A new exception like `error`, rebuilt as pickle and `copy` rebuild one: its type called with
    its args, then its attributes copied (no traceback, cause or context)."""
    again = type(error)(*error.args)
    if error.__dict__:
        again.__dict__.update(error.__dict__)
    return again
