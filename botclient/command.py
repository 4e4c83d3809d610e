"""`part-du-chef`: the games command line, with bot programs and URLs played as in the arena.

The rules package's command line (`games.part_du_chef.cli`) knows only the built-in bots; this
console command gives it the `LocalBots` resolver, so `simulate`, `compare` and the others also take
`mybot.py`, `mybot.js`, a folder or `.zip` holding `main.py`, or `http://localhost:8080/`.
Installed by `pip install -e .` (scripts/venv.sh does it), it runs from any folder.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from games.part_du_chef import cli

from .local import LocalBots


def main(argv: Sequence[str] | None = None) -> int:
    return cli.main(argv, resolvers=[LocalBots()], prog="part-du-chef")


if __name__ == "__main__":
    sys.exit(main())
