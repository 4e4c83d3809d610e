"""What README.md and docs/*.md claim about the tree, checked against the tree itself.

A claim is something a reader would type or open: a path (`botclient/server.py`, `starter-kits/`, a link
to another page and its anchor), a dotted name of the project (`ratings.ledger.replay_ledger`), a command
(`part-du-chef submit --wait`, `python -m games.part_du_chef ladder --seed 1`, `manage.py prepare_services`)
with its options and a synopsis's defaults, a setting (`ARENA_MATCH_LEASE_SECONDS`, `PART_DU_CHEF_CONFIG`) and
the default stated beside it (`ARENA_BOT_MOVE_MS` (1000)), and the README's configuration table's defaults.
Each check returns the problems found, as lines naming the page, the line and the false claim.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# Folders made at run time (see also .gitignore): a path under them is named, never shipped.
RUNTIME = {"var", "build", "media", "staticfiles", ".venv", "test-artifacts"}
SOURCE_SUFFIXES = (".py", ".sh", ".md", ".toml", ".txt", ".json", ".cfg", ".ini", ".yml", ".yaml", ".c", ".rs")
# What ends a command's options on a line: a comment, a pipe, another command, a redirection.
_END_OF_COMMAND = re.compile(r"\s#|\s\|\s|;|&&|\s[0-9]?>|\$\(|`")
_COMMAND = re.compile(
    r"(?:^|[\s(;&|`$/])(?P<tool>part-du-chef|python -m games\.part_du_chef|manage\.py)\s+(?P<command>[a-z][a-z0-9_-]*)"
    r"(?P<rest>.*)"
)
_OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
_SETTING = re.compile(r"\b(?:ARENA|DATABASE|PART_DU_CHEF)_[A-Z0-9_]*[A-Z0-9]\b")
_PATH = re.compile(r"^[\w.@-]+(?:/[\w.@-]*)+$")
_DOTTED = re.compile(r"^[a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_SPAN = re.compile(r"(`+)(.+?)\1")


@dataclass(frozen=True)
class Line:
    page: str
    number: int
    text: str
    code: bool  # inside a fenced or indented code block


def lines_of(page: str, text: str) -> Iterator[Line]:
    fenced = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        indented = raw.startswith("    ") and not raw.lstrip().startswith(("-", "*", "|", "1", "2", "3"))
        yield Line(page, number, raw, fenced or indented)


def segments(line: Line) -> list[str]:
    """The text of a line that is code: the whole line in a code block, else its inline code spans."""
    return [line.text] if line.code else [match.group(2).strip() for match in _SPAN.finditer(line.text)]


def where(line: Line) -> str:
    return f"{line.page}:{line.number}"


# -- the tree ------------------------------------------------------------------------------------


@cache
def ignored() -> tuple[str, ...]:
    """The folders of the tree made at run time, as .gitignore anchors them (`/var/`, `/bench/results/`)."""
    lines = (ROOT / ".gitignore").read_text().splitlines()
    return tuple(line.strip("/") for line in lines if line.startswith("/") and not any(c in line for c in "*?["))


def _is_ignored(relative: str) -> bool:
    return any(relative == folder or relative.startswith(folder + "/") for folder in ignored())


@cache
def tracked() -> frozenset[str]:
    """Every file and folder of the tree, but what is made at run time, caches and the virtual environment."""
    found: set[str] = set()
    for folder, subfolders, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if here == "." else here + "/"
        subfolders[:] = [
            name
            for name in subfolders
            if not name.startswith(".")
            and name != "__pycache__"
            and not name.endswith(".egg-info")
            and not _is_ignored(prefix + name)
        ]
        found.update(prefix + name for name in [*subfolders, *files] if not name.endswith(".pyc"))
    return frozenset(found)


@cache
def sources() -> str:
    """The text of every tracked file that is not documentation, nor this checker and its tests: where a
    setting is read."""
    texts = []
    for name in tracked():
        path = ROOT / name
        if name.endswith(".md") or name.startswith("tests/docs/") or not path.is_file():
            continue
        if path.suffix not in SOURCE_SUFFIXES and path.name not in {"Makefile", "run"} and "." in path.name:
            continue
        with contextlib.suppress(UnicodeDecodeError, OSError):
            texts.append(path.read_text())
    return "\n".join(texts)


def _exists(relative: str) -> bool:
    return relative.rstrip("/") in tracked()


def _ends_a_path(relative: str) -> bool:
    tail = "/" + relative.rstrip("/")
    return any(name.endswith(tail) for name in tracked())


@cache
def task_names() -> frozenset[str]:
    """The Celery tasks' stable names (common/task_names.py), which read like dotted names of modules."""
    return frozenset(re.findall(r'=\s*"([a-z_]+\.[a-z_]+)"', (ROOT / "common" / "task_names.py").read_text()))


# -- paths, links and anchors --------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces
    to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for raw in text.splitlines():
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", raw)
        if heading and not fenced:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', text))
    return found


def _check_target(line: Line, target: str, read: Callable[[str], str | None]) -> list[str]:
    """A link's target (`cli.md#compare`, `../README.md`, `#your-first-hour`), relative to its page."""
    if re.match(r"^[a-z]+:", target) or target.startswith("/"):
        return []  # a URL, or a path of the web site
    file, _, anchor = target.partition("#")
    page_dir = Path(line.page).parent
    relative = (page_dir / file).as_posix() if file else line.page
    relative = _normalise(relative)
    if relative is None or (file and not _exists(relative)):
        return [f"{where(line)}: {target!r} links to {relative or file}, which does not exist"]
    if anchor:
        text = read(relative)
        if text is not None and anchor not in anchors(text):
            return [f"{where(line)}: {target!r}: {relative} has no heading #{anchor}"]
    return []


def _normalise(relative: str) -> str | None:
    parts: list[str] = []
    for part in relative.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


def check_paths(line: Line, read: Callable[[str], str | None]) -> list[str]:
    problems: list[str] = []
    if not line.code:
        for target in _LINK.findall(line.text):
            problems += _check_target(line, target, read)
    for segment in segments(line):
        for token in re.split(r"[\s,;()'\"=\[\]]+", segment):
            token = token.rstrip(".")
            if not token:
                continue
            if not line.code and token.endswith(".md") and "/" not in token and token == segment:
                problems += _check_target(line, token, read)
                continue
            if not _PATH.match(token) or any(ch in token for ch in "{}<>*$:"):
                continue
            first = token.split("/")[0]
            if first in RUNTIME or first.startswith(".") or first == "":
                continue
            ours = first in tracked()
            if not token.endswith((*SOURCE_SUFFIXES, "/")) and (line.code or not ours):
                continue  # a URL path (`api/bots/`), a rate (`games/s`), a name elsewhere (`bots.example.org/chef`)
            if ours and not _exists(token) and not _is_ignored(token):
                problems.append(f"{where(line)}: `{token}` does not exist")
            elif not ours and not line.code and not token.endswith("/") and not _ends_a_path(token):
                # Named from inside its package (`bots/search.py` in a page about games/part_du_chef).
                problems.append(f"{where(line)}: `{token}` is no file of the tree")
    return problems


# -- dotted names of the project -----------------------------------------------------------------


@cache
def _module_file(dotted: str) -> Path | None:
    path = ROOT.joinpath(*dotted.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file() and _exists(candidate.relative_to(ROOT).as_posix()):
            return candidate
    return None


@cache
def _names_in(file: Path) -> dict[str, set[str]]:
    """A module's top-level names, each class with the names of its body ("" holds the module's)."""
    tree = ast.parse(file.read_text())
    names: dict[str, set[str]] = {"": set()}

    def bound(node: ast.stmt) -> set[str]:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return {node.name}
        if isinstance(node, ast.Assign):
            return {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return {node.target.id}
        if isinstance(node, ast.Import | ast.ImportFrom):
            return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        if isinstance(node, ast.If | ast.Try):
            body = [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            return {name for child in body for name in bound(child)}
        return set()

    for node in tree.body:
        names[""] |= bound(node)
        if isinstance(node, ast.ClassDef):
            names[node.name] = {name for child in node.body for name in bound(child)}
            names[node.name] |= {
                t.attr
                for child in ast.walk(node)
                for t in ([child] if isinstance(child, ast.Attribute) else [])
                if isinstance(t.value, ast.Name) and t.value.id == "self"
            }
    return names


def check_dotted(line: Line) -> list[str]:
    problems: list[str] = []
    for segment in segments(line):
        if line.code or not _DOTTED.match(segment) or segment in task_names():
            continue
        if re.search(r"\.(org|com|net|io|dev|local)$", segment):
            continue  # a host name
        if re.search(r"\.(js|css|html|json|md|txt|po|mo|sh|toml|cfg)$", segment):
            continue  # a file named without its folder ("play.js"), not a module's attribute
        parts = segment.split(".")
        if not (ROOT / parts[0] / "__init__.py").is_file():
            continue  # not one of the project's packages
        for cut in range(len(parts), 0, -1):
            module = _module_file(".".join(parts[:cut]))
            if module is not None:
                break
        else:
            problems.append(f"{where(line)}: `{segment}`: no such module")
            continue
        rest = parts[cut:]
        if not rest:
            continue
        names = _names_in(module)
        if rest[0] not in names[""]:
            if _module_file(".".join(parts[: cut + 1])) is None:
                problems.append(f"{where(line)}: `{segment}`: {'.'.join(parts[:cut])} defines no {rest[0]}")
        elif len(rest) > 1 and rest[0] in names and rest[1] not in names[rest[0]]:
            problems.append(f"{where(line)}: `{segment}`: {rest[0]} has no {rest[1]}")
    return problems


# -- commands and their options ------------------------------------------------------------------


@cache
def _parsers() -> dict[str, dict[str, argparse.ArgumentParser]]:
    from botclient import command, replay, server
    from botclient.local import LocalBots
    from games.part_du_chef import cli

    def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return dict(action.choices)

    mine = subparsers(cli.parser([LocalBots()], "part-du-chef"))
    mine.update(subparsers(server.parser("part-du-chef")))
    mine["replay"] = replay.parser("part-du-chef")
    assert set(mine) == set(command.commands())
    return {"part-du-chef": mine, "python -m games.part_du_chef": subparsers(cli.parser())}


@cache
def _management_parser(name: str) -> argparse.ArgumentParser | None:
    from django.core.management import get_commands, load_command_class

    app = get_commands().get(name)
    if app is None:
        return None
    command = load_command_class(app, name) if isinstance(app, str) else app
    return command.create_parser("manage.py", name)


def _parser(tool: str, name: str) -> argparse.ArgumentParser | None:
    if tool == "manage.py":
        return _management_parser(name)
    return _parsers()[tool].get(name)


def runs_help(parser: argparse.ArgumentParser) -> str | None:
    """The command's `--help`, printed as the command prints it; None when printing it fails."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            parser.parse_args(["--help"])
    except SystemExit as exit:
        return out.getvalue() if exit.code == 0 else None
    except (ValueError, TypeError, KeyError):  # a help string that is not a valid format
        return None
    return None


def check_commands(line: Line) -> list[str]:
    problems: list[str] = []
    for segment in segments(line):
        for match in _COMMAND.finditer(segment):
            tool, name = match.group("tool"), match.group("command")
            parser = _parser(tool, name)
            if parser is None:
                problems.append(f"{where(line)}: `{tool} {name}`: no such command")
                continue
            if runs_help(parser) is None:
                problems.append(f"{where(line)}: `{tool} {name} --help` fails")
            rest = _END_OF_COMMAND.split(match.group("rest"), maxsplit=1)[0]
            known = parser._option_string_actions
            for option in _OPTION.findall(rest):
                if option not in known:
                    problems.append(f"{where(line)}: `{tool} {name}` has no option {option}")
            if re.search(r"\b[A-Z][A-Z_]*\b", rest):  # a synopsis (`A B [--deals 30]`): brackets give defaults
                for option, value in _STATED_DEFAULT.findall(rest):
                    if option in known and not _is_default(parser, known[option], value):
                        problems.append(f"{where(line)}: `{tool} {name}`: {option} does not default to {value}")
    return problems


# `[--deals 30]` in a synopsis: the option's default, lower case (an upper-case word is a placeholder).
_STATED_DEFAULT = re.compile(r"\[(--[a-z][a-z0-9-]*)[ =]([a-z0-9][a-z0-9.,/-]*)\]")


def _is_default(parser: argparse.ArgumentParser, action: argparse.Action, value: str) -> bool:
    """The parser's default, or the default its help states (`--games` of `bench --think` defaults to 20)."""
    if action.default is not None and str(action.default) == value:
        return True
    option = action.option_strings[-1]
    helps = [other.help or "" for other in parser._actions]
    return f"default {value}" in (action.help or "") or any(f"{option} defaults to {value}" in h for h in helps)


# -- settings ------------------------------------------------------------------------------------


@cache
def read_settings() -> frozenset[str]:
    return frozenset(_SETTING.findall(sources()))


def check_settings(line: Line) -> list[str]:
    problems: list[str] = []
    for name in sorted(set(_SETTING.findall(line.text))):
        if name not in read_settings():
            problems.append(f"{where(line)}: {name}: no code reads this setting")
    return problems


@cache
def settings_defaults() -> dict[str, Any]:
    """Every `env_*("NAME", default)` of config/settings.py whose default is a literal: {NAME: default}."""
    tree = ast.parse((ROOT / "config" / "settings.py").read_text())
    found: dict[str, Any] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith("env_")):
            continue
        if len(node.args) < 2:
            continue
        first = node.args[0]
        if isinstance(first, ast.Call) and first.args:  # renamed_env("NAME")
            first = first.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        with contextlib.suppress(ValueError):
            found[first.value] = _literal(node.args[1])
    return found


def _literal(node: ast.expr) -> Any:
    """A literal, or a product of literal numbers (`1024 * 1024`)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _literal(node.left) * _literal(node.right)
    return ast.literal_eval(node)


def _same(stated: str, default: Any) -> bool:
    if isinstance(default, bool):
        return stated.lower() in (("off", "0", "false", "no") if not default else ("on", "1", "true", "yes"))
    if isinstance(default, int | float):
        try:
            return float(stated) == float(default)
        except ValueError:
            return False
    if isinstance(default, list | tuple):
        return stated == ",".join(str(item) for item in default)
    return stated == str(default)


# "`ARENA_BOT_MOVE_MS` (1000)", "(default 10, at most 50)", "`ARENA_THROTTLE_TABLE` 120/hour", "(1 MiB)".
_STATED = re.compile(
    r"`(?P<name>(?:ARENA|DATABASE)_[A-Z0-9_]+)`(?: \((?:default )?| )"
    r"(?P<value>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?(?:/[a-z]+)?)"
    r"(?: (?P<unit>MiB|KiB|s)\b)?(?=[),;| ]|$)"
)
_UNITS = {"MiB": 1024 * 1024, "KiB": 1024, "s": 1, None: 1}


def check_stated_defaults(line: Line, defaults: dict[str, Any]) -> list[str]:
    """A setting named with its value beside it states its default: it must be the settings' own."""
    problems: list[str] = []
    for match in _STATED.finditer(line.text):
        name, value, unit = match.group("name", "value", "unit")
        if name not in defaults or isinstance(defaults[name], bool):
            continue
        value = re.sub(r"(?<=\d),(?=\d{3})", "", value)
        if not value.replace(".", "").isdigit():
            stated: str = value
        else:
            # A setting in milliseconds (`..._MS`) may be stated in seconds: "`ARENA_SANDBOX_START_MS` (20 s)".
            scale = 1000 if unit == "s" and name.endswith("_MS") else _UNITS[unit]
            stated = str(float(value) * scale)
        if not _same(stated, defaults[name]):
            problems.append(
                f"{where(line)}: {name}: the page says {match.group(0)!r}, the default is {defaults[name]!r}"
            )
    return problems


def check_configuration_table(page: str, text: str, defaults: dict[str, Any]) -> tuple[list[str], int]:
    """The README's table `| variable | default |`: each variable's stated default is the settings' own.
    Returns the problems and how many defaults were compared."""
    problems: list[str] = []
    compared = 0
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0] if "## Configuration" in text else ""
    offset = text[: text.find(section)].count("\n") if section else 0
    for index, raw in enumerate(section.splitlines()):
        cells = [cell.strip() for cell in raw.strip().strip("|").split("|")] if raw.startswith("|") else []
        if len(cells) != 2 or cells[0] in ("variable", "---"):
            continue
        names = re.findall(r"`([A-Z][A-Z0-9_]+)`", cells[0])
        stated_cell = cells[1]
        if re.match(r"^(off|on|none)\b", stated_cell):
            word = stated_cell.split(";")[0].split()[0].rstrip(":")
            stated = ["" if word == "none" else word] * len(names)
        else:
            stated = re.findall(r"`([^`]+)`", stated_cell)[: len(names)]
        line = Line(page, offset + index + 1, raw, False)
        for name, value in zip(names, stated, strict=False):
            if name not in defaults:
                continue
            compared += 1
            if not _same(value, defaults[name]):
                problems.append(f"{where(line)}: {name}: the table says {value!r}, the settings {defaults[name]!r}")
    return problems, compared


# -- every check of one page ---------------------------------------------------------------------


def check_page(page: str, text: str, read: Callable[[str], str | None] | None = None) -> list[str]:
    def from_tree(relative: str) -> str | None:
        if relative == page:
            return text
        path = ROOT / relative
        return path.read_text() if path.is_file() else None

    problems: list[str] = []
    for line in lines_of(page, text):
        problems += check_paths(line, read or from_tree)
        problems += check_dotted(line)
        problems += check_commands(line)
        problems += check_settings(line)
        problems += check_stated_defaults(line, settings_defaults())
    return problems
