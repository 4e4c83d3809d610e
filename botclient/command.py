"""`part-du-chef`: the games command line, with bot programs and URLs played as in the arena, and one's bots
on an arena server.

The rules package's command line (`games.part_du_chef.cli`) knows only the built-in bots; this
console command gives it the `LocalBots` resolver, so `simulate`, `compare` and the others also take
a bot in any language of the arena (`mybot.py`, `mybot.rs`, a folder or `.zip`...), built as the
server builds it, or `http://localhost:8080/`. The server commands (`signup`, `login`, `submit`,
`status`, `logs`, `enter`, `leave`, `server-compare`) are in `botclient.server`, `replay` in
`botclient.replay`. `--help` lists all of them, from their own parsers.

`pip install .` (or the wheel) installs it alone, with `rich`; scripts/venv.sh installs it editable
into the server's environment. It runs from any folder.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from games.part_du_chef import cli

from . import replay, server
from .local import LocalBots

PROG = "part-du-chef"
USAGE = f"usage: {PROG} COMMAND [options]    ({PROG} COMMAND --help: one command's options)"


def groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every command with its one-line help, in the two groups `--help` shows, read from the commands' parsers."""
    local = _listed(cli.parser(prog=PROG))
    description = replay.parser(PROG).description or ""
    local.append(("replay", description[:1].lower() + description[1:].rstrip(".")))
    return [
        ("play on this machine (no account, no server; BOT: built-in, a bot program or a URL)", local),
        ("your bots on an arena server (`signup` or `login` first)", _listed(server.parser(PROG))),
    ]


def commands() -> list[str]:
    return [name for _, listed in groups() for name, _ in listed]


def _listed(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            # A help string is a format (`%%` for a percent sign) that argparse expands when it prints it.
            return [(choice.dest, (choice.help or "").replace("%%", "%")) for choice in action._choices_actions]
    raise AssertionError(f"{parser.prog} has no commands")


def usage(out: TextIO) -> None:
    lines = [
        USAGE,
        "",
        "La Part du Chef: play your bots here exactly as the arena plays them, then submit them to a server.",
        "Walkthrough: docs/bots-submission.md#your-first-hour; every option: docs/cli.md.",
    ]
    width = max(len(name) for name in commands()) + 2
    for title, listed in groups():
        lines += ["", f"{title}:"]
        lines += [f"  {name:<{width}}{text}" for name, text in listed]
    print("\n".join(lines), file=out)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        usage(sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] in server.COMMANDS:
        return server.main(args, prog=PROG)
    if args[0] == "replay":
        return replay.main(args[1:], prog=PROG)
    if args[0] not in commands():
        print(USAGE, file=sys.stderr)
        known = ", ".join(commands())
        print(f"{PROG}: error: invalid choice: {args[0]!r} (choose from {known})", file=sys.stderr)
        return 2
    return cli.main(args, resolvers=[LocalBots()], prog=PROG)


if __name__ == "__main__":
    sys.exit(main())
