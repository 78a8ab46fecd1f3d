"""Claims that only restate what the lesson declared about a letter.

With ``variables: {x: positive}``, the sentence "for $x>0$" proves nothing: the
checker reads ``x > 0`` as true because the declaration says so. Counting it as
*checked* would overstate what verification did, so a proved relation between one
declared letter, standing alone on its side, and a side without letters is
*assumed*: it says nothing about ``x`` beyond its declared domain (``x \\ge 0`` and
``x \\ne 0`` follow from ``positive`` on their own). Every other proved relation
uses the declaration to reach something new (``\\sqrt{x^2} = x``) and stays checked.
"""

from __future__ import annotations

from pizarra.math.exact.ast import Node, Sym, has_letters
from pizarra.math.exact.context import Context
from pizarra.math.exact.cursor import Unsupported
from pizarra.math.exact.side import Side

RELATIONS = frozenset({"<", ">", "\\le", "\\ge", "\\ne"})
"""Relations (canonical spellings) a domain can imply for a lone letter; ``x = 3``
defines a value and is never proved."""


def restated_declaration(relation: str, left: Side, right: Side, context: Context) -> str | None:
    """``x: positive`` when ``left relation right`` is ``x`` against a closed side and
    ``x`` is declared; None otherwise. Call it only for a relation already proved true:
    then the declaration alone implies it."""
    if relation not in RELATIONS:
        return None
    for letter, other in ((left.node, right.node), (right.node, left.node)):
        if _declared_letter(letter, context) and _closed(other):
            assert isinstance(letter, Sym)
            return f"{letter.name}: {context.domains[letter.name]}"
    return None


def _declared_letter(node: Node | Unsupported, context: Context) -> bool:
    return isinstance(node, Sym) and node.name in context.domains


def _closed(node: Node | Unsupported) -> bool:
    return not isinstance(node, Unsupported) and not has_letters(node)
