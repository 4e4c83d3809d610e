"""`part-du-chef`: the games command line, with bot programs and URLs played as in the arena, and one's bots
on an arena server.

The rules package's command line (`games.part_du_chef.cli`) knows only the built-in bots; this
console command gives it the `LocalBots` resolver, so `simulate`, `compare` and the others also take
a bot in any language of the arena (`mybot.py`, `mybot.rs`, a folder or `.zip`...), built as the
server builds it, or `http://localhost:8080/`. The server commands (`login`, `submit`, `enter`,
`leave`, `status`, `logs`, `server-compare`) are in `botclient.server`, `replay` in `botclient.replay`.
Installed by `pip install -e .` (scripts/venv.sh does it), it runs from any folder.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from games.part_du_chef import cli

from . import replay, server
from .local import LocalBots


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in server.COMMANDS:
        return server.main(args, prog="part-du-chef")
    if args and args[0] == "replay":
        return replay.main(args[1:], prog="part-du-chef")
    return cli.main(args, resolvers=[LocalBots()], prog="part-du-chef")


if __name__ == "__main__":
    sys.exit(main())
