"""The key two names are compared on: NFKC, case folded, then each character replaced by the one
representative of its confusable class (the skeleton of Unicode TS #39), so that full-width `ｇｒｅｅｄｙ`,
Cyrillic `grееdy` and `GREEDY` all give the key of `greedy`.

The classes come from Unicode's confusables.txt as shipped by the `confusable-homoglyphs` package (its
data file only): single characters that the data pairs in either direction form one class, and the
class's representative is an ASCII letter (lowercase) or digit when it holds one, else its smallest character.
Multi-character prototypes (`m` ~ `rn`) are left out: a name keeps its length under the key.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources


def _data() -> dict[str, list[dict[str, str]]]:
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    loaded: dict[str, list[dict[str, str]]] = json.loads(text)
    return loaded


def _rank(character: str) -> tuple[int, str]:
    """Representatives: an ASCII lowercase letter of the class, else the lowercase of an ASCII capital
    (names are case folded before the mapping: `0` and `O` meet at `o`), then an ASCII digit, then the smallest."""
    if "a" <= character <= "z":
        return (0, character)
    if "A" <= character <= "Z":
        return (1, character.lower())
    if character.isascii() and character.isalnum():
        return (2, character)
    return (3, character)


@cache
def _representatives() -> dict[str, str]:
    parent: dict[str, str] = {}

    def root(character: str) -> str:
        parent.setdefault(character, character)
        while parent[character] != character:
            parent[character] = parent[parent[character]]
            character = parent[character]
        return character

    for source, targets in _data().items():
        for target in targets:
            glyph = target["c"].replace("\u200e", "")  # the data marks right-to-left glyphs with LRM
            if len(source) == 1 and len(glyph) == 1:
                first, second = root(source), root(glyph)
                if first != second:
                    parent[first] = second
    classes: dict[str, list[str]] = {}
    for character in list(parent):
        classes.setdefault(root(character), []).append(character)
    mapping: dict[str, str] = {}
    for members in classes.values():
        # Names are case folded before the mapping, so a capital representative would be folded later.
        representative = min(_rank(member) for member in members)[1]
        for member in members:
            mapping[member] = representative
    return mapping


def normalised(name: str) -> str:
    """What a reader takes the name for: surrounding spaces dropped, NFKC, case folded."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


def skeleton(name: str) -> str:
    """The comparison key of a name: `normalised`, then every character mapped to its confusable class."""
    mapping = _representatives()
    decomposed = unicodedata.normalize("NFD", normalised(name))
    mapped = "".join(mapping.get(character, character) for character in decomposed)
    return unicodedata.normalize("NFC", unicodedata.normalize("NFKC", mapped).casefold())
