"""Is a figure a cell drew a plain drawing? The safe subset of SVG pizarra publishes.

A cell's figure is published as a file beside its page, and a static host serves it
with no Content-Security-Policy: an SVG opened on its own runs its scripts on the
site's origin. A cell is untrusted code, so its SVG is untrusted text. It is read with
expat (no declarations, no entities, no processing instructions) and accepted only if
every element is one of the drawing elements matplotlib writes, in the SVG namespace
(or RDF metadata inside ``<metadata>``), no attribute is an event handler, and every
link or ``url(...)`` points inside the figure (``#id``) or is an embedded PNG or JPEG
image. Anything else is refused at the cell's line, not rewritten: a figure that
carries a script or a link was made to, and the author should know.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from xml.parsers import expat

from pizarra.base.errors import Diagnostic, SourcePos
from pizarra.source.blocks import Figure

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
METADATA = frozenset(
    {
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
        "http://creativecommons.org/ns#",
        "http://purl.org/dc/elements/1.1/",
        "http://purl.org/dc/terms/",
    }
)

DRAWING = frozenset(
    {
        "svg", "g", "defs", "use", "symbol", "path", "rect", "circle", "ellipse", "line",
        "polyline", "polygon", "text", "tspan", "textPath", "title", "desc", "metadata",
        "style", "clipPath", "mask", "pattern", "image", "linearGradient",
        "radialGradient", "stop", "marker", "filter", "feGaussianBlur", "feOffset",
        "feBlend", "feFlood", "feComposite", "feMerge", "feMergeNode", "feColorMatrix",
    }
)  # fmt: skip
"""Elements that only draw. Not here, so refused: ``script``, ``foreignObject`` (HTML
inside), ``a`` (a link), ``animate``/``set`` (they can rewrite an ``href``), ``iframe``,
and anything in another namespace (an XHTML ``script`` runs in an SVG document too)."""

_LINK_ATTRIBUTES = frozenset({"href", f"{XLINK} href"})
_EMBEDDED = re.compile(r"data:image/(?:png|jpeg);base64,[A-Za-z0-9+/=\s]*\Z")
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_CSS_HAZARD = re.compile(r"@import|expression\s*\(|javascript:|behavior\s*:", re.IGNORECASE)
_DEPTH_LIMIT = 200
_SVG11 = "-//W3C//DTD SVG 1.1//EN"
_SVG11_DTD = "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"


class _Refused(Exception):
    """The first thing in the figure outside the safe subset."""


def svg_problem(data: bytes) -> str | None:
    """What makes ``data`` unsafe to publish, or None when it is a plain drawing."""
    reader = _Reader()
    try:
        reader.read(data)
    except _Refused as exc:
        return str(exc)
    except expat.ExpatError as exc:
        return f"it is not well-formed XML ({expat.errors.messages.get(exc.code, exc.code)})"
    if not reader.seen_root:
        return "it has no <svg> element"
    return None


def unsafe_figures(pos: SourcePos, figures: Sequence[Figure]) -> list[Diagnostic]:
    """An error at the cell for each of its figures outside the safe subset."""
    found = []
    for number, figure in enumerate(figures, 1):
        problem = svg_problem(figure.svg)
        if problem is not None:
            found.append(
                Diagnostic(
                    pos,
                    f"figure {number} of the code cell is not published: {problem}",
                    hint="draw with matplotlib's plotting functions only; links "
                    "(`set_url`), scripts and embedded HTML are not allowed in figures",
                )
            )
    return found


class _Reader:
    """One pass of expat over a figure, refusing at the first unsafe part."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.style: list[str] = []
        self.seen_root = False
        self.parser = expat.ParserCreate(namespace_separator=" ")
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.text
        self.parser.StartDoctypeDeclHandler = self.refuse_doctype
        self.parser.EntityDeclHandler = self.refuse_entity
        self.parser.ProcessingInstructionHandler = self.refuse_instruction
        self.parser.ExternalEntityRefHandler = self.refuse_external
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def read(self, data: bytes) -> None:
        self.parser.Parse(data, True)

    def start(self, name: str, attributes: dict[str, str]) -> None:
        namespace, _, local = name.rpartition(" ")
        drawing = namespace == SVG and local in DRAWING
        described = namespace in METADATA and "metadata" in self.stack
        if not (drawing or described):
            raise _Refused(f"it contains the element <{local}>, which is not part of a drawing")
        if not self.stack and local != "svg":
            raise _Refused(f"its root element is <{local}>, not <svg>")
        self.seen_root = True
        if len(self.stack) >= _DEPTH_LIMIT:
            raise _Refused(f"its elements are nested more than {_DEPTH_LIMIT} deep")
        for attribute, value in attributes.items():
            _check_attribute(local, attribute, value)
        self.stack.append(local)

    def end(self, name: str) -> None:
        if self.stack.pop() == "style":
            _check_css("".join(self.style), "its <style> element")
            self.style.clear()

    def text(self, data: str) -> None:
        if self.stack and self.stack[-1] == "style":
            self.style.append(data)

    def refuse_doctype(
        self, name: str, system: str | None, public: str | None, subset: bool
    ) -> None:
        """matplotlib names SVG 1.1's DTD, which neither expat nor a browser fetches;
        any other declaration is refused."""
        if (name, system, public, subset) != ("svg", _SVG11_DTD, _SVG11, False):
            raise _Refused("it has a document type declaration of its own")

    def refuse_entity(self, *args: object) -> None:
        raise _Refused("it declares an entity")

    def refuse_instruction(self, target: str, data: str) -> None:
        raise _Refused(f"it has a processing instruction <?{target}?>")

    def refuse_external(self, *args: object) -> int:
        raise _Refused("it refers to an external entity")


def _check_attribute(element: str, attribute: str, value: str) -> None:
    local = attribute.rpartition(" ")[2]
    if local.lower().startswith("on"):
        raise _Refused(f"its <{element}> has an event handler ({local})")
    if attribute in _LINK_ATTRIBUTES or local == "href":
        target = value.strip()
        if target.startswith("#") or (element == "image" and _EMBEDDED.match(target)):
            return
        raise _Refused(f"its <{element}> links to {_shorten(target)!r}, outside the figure")
    if local == "style":
        _check_css(value, f"the style of its <{element}>")
    elif "url(" in value.lower():
        _check_urls(value, f"its <{element}>'s {local}")


def _check_css(css: str, where: str) -> None:
    if _CSS_HAZARD.search(css):
        raise _Refused(f"{where} has CSS that imports or runs something")
    _check_urls(css, where)


def _check_urls(text: str, where: str) -> None:
    for match in _URL.finditer(text):
        if not match.group(2).strip().startswith("#"):
            raise _Refused(f"{where} refers to {_shorten(match.group(2))!r}, outside the figure")


def _shorten(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."
