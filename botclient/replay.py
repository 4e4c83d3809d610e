"""`part-du-chef replay MATCH_OR_RECORD --bot FILE --seat N`: run a bot again on what its seat saw in a game.

The observations are rebuilt from the game's published record (`games.part_du_chef.seat_view`): a
record file (`.json`, or the first line of a `.jsonl`), or a match id or URL of the server you are
logged in to (`part-du-chef login`), whose record endpoint gives it once the match is over. The bot is
prepared and run as `simulate` runs it (the same build, sandbox and limits) and gets, decision by
decision, the very observation its seat got; each answer is compared with the action that was played.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from games.part_du_chef import RecordError
from games.part_du_chef.seat_view import same_action, seat_decisions
from games.part_du_chef.seating import BotError

from . import server
from .local import LocalBots
from .protocol import BotFailure
from .session import BotSession


def parser(prog: str) -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog=f"{prog} replay", description="Run a bot again on the observations its seat saw in a finished game."
    )
    top.add_argument("game", help="a record file (.json/.jsonl), or a match id or URL on the server you logged in to")
    top.add_argument("--bot", required=True, help="the bot program (any language) or URL to run")
    top.add_argument("--seat", type=int, required=True, help="the seat to replay (0 is the first seat)")
    top.add_argument("--no-sandbox", action="store_true", help="run the bot bare, with your rights")
    top.add_argument("--verbose", action="store_true", help="show every decision, not only those that differ")
    return top


def load_record(game: str) -> dict[str, Any]:
    path = Path(game).expanduser()
    if path.is_file():
        text = path.read_text()
        try:
            record = json.loads(text.splitlines()[0] if path.suffix == ".jsonl" else text)
        except (ValueError, IndexError) as exc:
            raise BotError(f"{game}: not a game record ({exc})") from None
    elif game.isdigit() or game.startswith(("http://", "https://")):
        match_id = game.rstrip("/").rsplit("/", 1)[-1] if not game.isdigit() else game
        if not match_id.isdigit():
            raise BotError(f"{game}: give a match id or a match's URL (…/matches/ID/)")
        config = server.load_config()
        record = server.Api(config["server"], config["token"]).call("GET", f"/api/matches/{match_id}/record/")
    else:
        raise BotError(f"{game}: no such record file, and not a match id")
    if not isinstance(record, dict):
        raise BotError(f"{game}: not a game record")
    return record


def main(
    argv: Sequence[str], prog: str = "part-du-chef", out: TextIO | None = None, resolver: LocalBots | None = None
) -> int:
    args = parser(prog).parse_args(list(argv))
    say = lambda line: print(line, file=out or sys.stdout, flush=True)  # noqa: E731
    bots = resolver or LocalBots()
    bots.configure(args)
    try:
        record = load_record(args.game)
        decisions = seat_decisions(record, args.seat)
        make = bots.resolve(args.bot)
        if make is None:
            raise BotError(f"{args.bot}: no such bot program")
        session = make(record["seed"])
        if not isinstance(session, BotSession):
            raise BotError(f"{args.bot}: replay runs a bot program or URL, not a built-in bot")
        return _replay(session, record, args.seat, decisions, args.verbose, say)
    except (BotError, RecordError, server.ServerError) as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 2
    finally:
        bots.close()


def _replay(
    session: BotSession, record: dict[str, Any], seat: int, decisions: list[Any], verbose: bool, say: Any
) -> int:
    options: dict[str, Any] = {"marianne": True} if record["options"].get("marianne") else {}
    players = len(record["players"])
    differ = 0
    compared = 0
    try:
        try:
            session.start(seat, players, options)
        except BotFailure as exc:
            say(f"at start: {exc.result.status}: {exc.result.error}")
            return 1
        for decision in decisions:
            if decision.decided_by != "player":
                say(f"turn {decision.turn}: played by the stand-in after a forfeit; the replay stops here")
                break
            result = session.act(decision.observation)
            compared += 1
            if not result.ok:
                differ += 1
                say(f"turn {decision.turn}: {result.status}: {result.error}")
                break
            if same_action(result.action, decision.played):
                if verbose:
                    say(f"turn {decision.turn}: same: {json.dumps(decision.played)}")
                continue
            differ += 1
            say(f"turn {decision.turn}: differs")
            say(f"  played:  {json.dumps(decision.played)}")
            say(f"  answers: {json.dumps(result.action)}")
    finally:
        session.close()
    name = record["players"][seat]
    say(f"seat {seat} ({name}): {compared} decisions replayed, {compared - differ} the same, {differ} different")
    return 0 if differ == 0 else 1
