"""Every string marked for translation in the web app has its French and Norwegian words: the checked-in
catalogs (web/locale/<language>/LC_MESSAGES/django.po) leave no entry empty or fuzzy, keep the placeholders
of the English, fill every plural form, and their compiled .mo files say the same; and the catalogs that
Django's makemessages draws from the code today are the checked-in ones, nothing missing and nothing stale.

The .po files are read by the small parser below (Python's gettext reads only .mo files)."""

from __future__ import annotations

import ast
import gettext
import os
import re
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support import ROOT

LANGUAGES = ("fr", "nb")
WEB = ROOT / "web"
# The placeholders a translation must keep: Python's %-conversions (%(name)s, %d, %%) and {name}.
PERCENT = re.compile(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")
BRACES = re.compile(r"\{\w*\}")


@dataclass
class Entry:
    msgid: str
    context: str | None = None
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)  # msgstr, or msgstr[n] for a plural entry
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def key(self) -> str:
        return self.msgid if self.context is None else f"{self.context}\x04{self.msgid}"


def read_po(path: Path) -> list[Entry]:
    """The live entries of a .po file (obsolete `#~` ones left out), header included (msgid "")."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    target: tuple[str, int] = ("", 0)
    context: str | None = None

    def append(kind: str, index: int, text: str) -> None:
        assert current is not None
        if kind == "msgid":
            current.msgid += text
        elif kind == "msgid_plural":
            current.plural = (current.plural or "") + text
        else:
            current.strings[index] = current.strings.get(index, "") + text

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            context = ast.literal_eval(line[8:])
            target = ("msgctxt", 0)
        elif line.startswith('"'):
            if target[0] == "msgctxt":
                context = (context or "") + ast.literal_eval(line)
            else:
                append(*target, ast.literal_eval(line))
        else:
            keyword, text = line.split(" ", 1)
            match = re.fullmatch(r"(msgid|msgid_plural|msgstr)(?:\[(\d+)\])?", keyword)
            assert match, f"{path}:{number}: cannot read {raw!r}"
            if match[1] == "msgid":
                current = Entry(msgid="", context=context, flags=flags, line=number)
                entries.append(current)
                flags, context = set(), None
            target = (match[1], int(match[2] or 0))
            append(*target, ast.literal_eval(text))
    return entries


def nplurals(entries: list[Entry]) -> int:
    header = next(entry for entry in entries if entry.msgid == "" and entry.context is None).strings[0]
    found = re.search(r"nplurals\s*=\s*(\d+)", header)
    assert found, f"no Plural-Forms in the header: {header!r}"
    return int(found[1])


def placeholders(text: str) -> list[str]:
    return sorted(PERCENT.findall(text) + BRACES.findall(text))


def problems(path: Path) -> list[str]:
    """What is wrong with a catalog, one line per entry: untranslated, fuzzy, a plural form missing, a
    placeholder that is not the English one's."""
    entries = read_po(path)
    forms = nplurals(entries)
    found = []
    for entry in entries:
        if entry.msgid == "":
            continue
        where = f"{path.name}:{entry.line} {entry.msgid!r}"
        expected = range(forms) if entry.plural is not None else range(1)
        if "fuzzy" in entry.flags:
            found.append(f"{where} is fuzzy")
        if not any(entry.strings.values()):
            found.append(f"{where} is not translated")
            continue
        if missing := [index for index in expected if not entry.strings.get(index)]:
            found.append(f"{where} lacks the plural forms {missing} (of {forms})")
            continue
        if entry.plural is None:
            if "python-format" in entry.flags or "python-brace-format" in entry.flags:
                english, translated = placeholders(entry.msgid), placeholders(entry.strings[0])
                if english != translated:
                    found.append(f"{where} has the placeholders {translated}, not {english}")
        else:
            allowed = set(placeholders(entry.msgid) + placeholders(entry.plural))
            for index, text in entry.strings.items():
                if extra := set(placeholders(text)) - allowed:
                    found.append(f"{where} form {index} has placeholders of its own: {sorted(extra)}")
    return found


def catalog(entries: list[Entry]) -> dict[object, str]:
    """What msgfmt compiles from these entries, in the shape of gettext.GNUTranslations' catalog."""
    compiled: dict[object, str] = {}
    for entry in entries:
        if "fuzzy" in entry.flags and entry.msgid != "":
            continue
        if entry.plural is None:
            compiled[entry.key] = entry.strings[0]
        else:
            compiled.update({(entry.key, index): text for index, text in entry.strings.items()})
    return compiled


def comparable(compiled: dict[object, str]) -> dict[object, object]:
    """A catalog with its header as fields, less the one msgfmt leaves out (POT-Creation-Date)."""
    header = dict(line.split(": ", 1) for line in compiled.get("", "").splitlines() if ": " in line)
    header.pop("POT-Creation-Date", None)
    return {**compiled, "": header}


def translations(entries: list[Entry]) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    return {
        entry.key: (entry.plural, tuple(text for _, text in sorted(entry.strings.items())))
        for entry in entries
        if entry.msgid != ""
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_checked_in_catalog_translates_every_entry_and_its_compiled_file_says_the_same(language: str) -> None:
    po = WEB / "locale" / language / "LC_MESSAGES" / "django.po"
    found = problems(po)
    assert not found, "\n".join(found)
    with open(po.with_suffix(".mo"), "rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    assert comparable(compiled) == comparable(catalog(read_po(po))), (
        f"{po.name} is not what {po.stem}.mo says: run compilemessages"
    )


@pytest.mark.system  # it runs Django's makemessages, which runs xgettext
def test_every_string_marked_for_translation_in_the_code_is_in_the_checked_in_catalogs(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.fail("makemessages needs GNU gettext (xgettext, msgmerge): install gettext, as scripts/test.sh does")
    # The web app's catalogs are drawn from the web folder alone (makemessages run there): a copy of it, so
    # that the checked-in files stay as they are.
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    languages = [argument for language in LANGUAGES for argument in ("-l", language)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SECRET_KEY": secrets.token_urlsafe(50)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "makemessages", *languages, "--no-obsolete"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for language in LANGUAGES:
        drawn = copy / "locale" / language / "LC_MESSAGES" / "django.po"
        found = problems(drawn)
        assert not found, f"run makemessages in web/ and translate ({language}):\n" + "\n".join(found)
        checked_in = translations(read_po(WEB / "locale" / language / "LC_MESSAGES" / "django.po"))
        assert translations(read_po(drawn)) == checked_in, (
            f"web/locale/{language} is not what makemessages draws from the code: run it in web/ (--no-obsolete)"
        )
