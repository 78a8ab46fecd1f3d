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

    def __init__(self, size: int, per_group: int | None = None) -> None:
        self.size = size
        self.per_group = per_group
        """At most this many values of one group (:meth:`put`), the newest."""
        self._items: OrderedDict[K, V] = OrderedDict()
        self._groups: dict[Hashable, tuple[K, ...]] = {}

    def at_least(self, size: int) -> None:
        """Hold at least ``size`` values from now on. Read in the same order at every
        rebuild, a course of more lessons than the bound would find none of them: the
        lesson used longest ago is always the next one asked for."""
        self.size = max(self.size, size)

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            with contextlib.suppress(KeyError):
                self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V, group: Hashable | None = None) -> V:
        """Keep ``value``. With a ``group`` (the file a parse is of), the group's oldest
        values beyond :attr:`per_group` go: a served lesson saved a hundred times is
        not kept a hundred times, which would leave less room for the other lessons and
        give Python's collector more to go through at every full pass."""
        self._items[key] = value
        if group is not None and self.per_group is not None:
            keys = (*(k for k in self._groups.get(group, ()) if k != key), key)
            for old in keys[: -self.per_group]:
                self._items.pop(old, None)
            self._groups[group] = keys[-self.per_group :]
            if len(self._groups) > self.size:  # forget the groups with nothing kept
                held = self._items
                self._groups = {  # from a copy: another thread may be putting
                    g: ks for g, ks in list(self._groups.items()) if any(k in held for k in ks)
                }
        with contextlib.suppress(KeyError):
            self._items.move_to_end(key)
        while len(self._items) > self.size:
            with contextlib.suppress(KeyError):  # emptied by another thread meanwhile
                self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)
