"""Every string marked for translation in the web app has its French and Norwegian words: the checked-in
catalogs (web/locale/<language>/LC_MESSAGES/django.po) leave no entry empty or fuzzy, keep the placeholders
of the English, fill every plural form, and their compiled .mo files say the same; and the catalogs that
Django's makemessages draws from the code today are the checked-in ones, nothing missing and nothing stale."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tests.support import ROOT

LANGUAGES = ("fr", "nb")
WEB = ROOT / "web"
# The placeholders a translation must keep: Python's %-conversions (%(name)s, %d, %%) and {name}.
PERCENT = re.compile(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")
BRACES = re.compile(r"\{\w*\}")


def _key(entry: polib.POEntry | polib.MOEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


def placeholders(text: str) -> list[str]:
    return sorted(PERCENT.findall(text) + BRACES.findall(text))


def problems(po: polib.POFile, name: str) -> list[str]:
    """What is wrong with a catalog, one line per entry: untranslated, fuzzy, a plural form missing, a
    placeholder that is not the English one's."""
    found = []
    plural_forms = re.search(r"nplurals\s*=\s*(\d+)", po.metadata.get("Plural-Forms", ""))
    assert plural_forms, f"{name} has no Plural-Forms in its header"
    forms = int(plural_forms[1])
    for entry in po:
        if entry.obsolete:
            continue
        where = f"{name}:{entry.linenum} {entry.msgid!r}"
        if entry.fuzzy:
            found.append(f"{where} is fuzzy")
        if entry.msgid_plural:
            strings = entry.msgstr_plural
            if not any(strings.values()):
                found.append(f"{where} is not translated")
            elif missing := [index for index in range(forms) if not strings.get(index)]:
                found.append(f"{where} lacks the plural forms {missing} (of {forms})")
            else:
                allowed = set(placeholders(entry.msgid) + placeholders(entry.msgid_plural))
                for index, text in strings.items():
                    if extra := set(placeholders(text)) - allowed:
                        found.append(f"{where} form {index} has placeholders of its own: {sorted(extra)}")
        elif not entry.msgstr:
            found.append(f"{where} is not translated")
        elif {"python-format", "python-brace-format"} & set(entry.flags):
            english, translated = placeholders(entry.msgid), placeholders(entry.msgstr)
            if english != translated:
                found.append(f"{where} has the placeholders {translated}, not {english}")
    return found


def translations(catalog: polib.POFile | polib.MOFile) -> dict[tuple[str | None, str], object]:
    """What each live, not fuzzy entry says (the header left out): what msgfmt compiles."""
    return {
        _key(entry): (entry.msgid_plural, dict(entry.msgstr_plural)) if entry.msgid_plural else entry.msgstr
        for entry in catalog
        if entry.msgid and not entry.obsolete and "fuzzy" not in entry.flags
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_checked_in_catalog_translates_every_entry_and_its_compiled_file_says_the_same(language: str) -> None:
    path = WEB / "locale" / language / "LC_MESSAGES" / "django.po"
    po = polib.pofile(str(path))
    found = problems(po, path.name)
    assert not found, "\n".join(found)
    assert translations(polib.mofile(str(path.with_suffix(".mo")))) == translations(po), (
        f"{path.name} is not what {path.stem}.mo says: run compilemessages"
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
        drawn = polib.pofile(str(copy / "locale" / language / "LC_MESSAGES" / "django.po"))
        found = problems(drawn, f"{language}/django.po")
        assert not found, f"run makemessages in web/ and translate ({language}):\n" + "\n".join(found)
        checked_in = translations(polib.pofile(str(WEB / "locale" / language / "LC_MESSAGES" / "django.po")))
        assert translations(drawn) == checked_in, (
            f"web/locale/{language} is not what makemessages draws from the code: run it in web/ (--no-obsolete)"
        )
