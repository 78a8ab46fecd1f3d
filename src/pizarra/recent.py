"""The last values used, by key: what a long-running ``serve`` reuses between rebuilds."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most ``size`` values; the one used longest ago goes first.

    One place for the bound, so that no in-memory cache of parsed lessons, results or
    page scans can grow with the number of saves a server sees. Safe across threads
    (a server keeps one rebuild's parses while the next reads them) without a lock, which
    a forked worker could inherit held: each step is one atomic dict operation, and
    one that finds its key gone (another thread evicted it meanwhile) does nothing.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            with contextlib.suppress(KeyError):
                self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        with contextlib.suppress(KeyError):
            self._items.move_to_end(key)
        while len(self._items) > self.size:
            with contextlib.suppress(KeyError):  # emptied by another thread meanwhile
                self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)
