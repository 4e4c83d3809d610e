"""`part-du-chef signup | login | submit | status | logs | enter | leave | server-compare`: one's bots on an
arena server.

The server's address and an API token are kept in a config file (`part-du-chef signup` for a new account,
`part-du-chef login` for an existing one; the file is
``PART_DU_CHEF_CONFIG``, by default ``~/.config/part-du-chef/config.json``, readable by its owner only),
as the Battlesnake and Kaggle command lines do. Every command is one or a few calls of the REST API
(docs/api.md, docs/bots-submission.md) with the standard library's HTTP client; an error says what to
fix, from the server's own message when it gave one.
"""

from __future__ import annotations

import argparse
import getpass
import json
import mimetypes
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

# In the order `part-du-chef --help` lists them.
COMMANDS = ("signup", "login", "submit", "status", "logs", "enter", "leave", "server-compare")
GAME = "part-du-chef"
TIMEOUT_S = 60.0


class ServerError(Exception):
    """A problem the user can fix, said in one message."""


def config_path() -> Path:
    configured = os.environ.get("PART_DU_CHEF_CONFIG")
    if configured:
        return Path(configured).expanduser()
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "part-du-chef" / "config.json"


def load_config() -> dict[str, str]:
    path = config_path()
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ServerError(
            "not logged in: run `part-du-chef login --server URL --username NAME` first "
            "(`part-du-chef signup` with the same options creates an account)"
        ) from None
    except (OSError, ValueError) as exc:
        raise ServerError(f"cannot read {path}: {exc}; run `part-du-chef login` again") from None
    if not isinstance(data, dict) or not data.get("server") or not data.get("token"):
        raise ServerError(f"{path} holds no server and token; run `part-du-chef login` again")
    return {"server": str(data["server"]), "token": str(data["token"])}


def save_config(server: str, token: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump({"server": server, "token": token}, fh)
    os.chmod(path, 0o600)
    return path


class Api:
    """The REST API of one server, authenticated with a token (or not, for logging in)."""

    def __init__(self, server: str, token: str | None = None) -> None:
        parsed = urllib.parse.urlsplit(server)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ServerError(f"{server!r} is not a server address; give one like http://127.0.0.1:8000/")
        self.server = server.rstrip("/") + "/"
        self.token = token

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, *, files: dict[str, Path] | None = None
    ) -> Any:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data: bytes | None = None
        if files:
            data, content_type = _multipart(body or {}, files)
            headers["Content-Type"] = content_type
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(
            urllib.parse.urljoin(self.server, path.lstrip("/")), data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise ServerError(_explain(exc.code, exc.read(), path)) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ServerError(f"cannot reach {self.server}: {reason}; is the server running at that address?") from None
        return json.loads(raw) if raw else None


def _explain(code: int, raw: bytes, path: str) -> str:
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if code == 401:
        return "the server refused the token: run `part-du-chef login` again"
    detail = _detail(body) if body is not None else raw.decode(errors="replace")[:300]
    return f"the server answered {code} to {path}: {detail}"


def _detail(body: Any) -> str:
    if isinstance(body, dict):
        if "detail" in body and len(body) == 1:
            return str(body["detail"])
        return "; ".join(f"{key}: {_detail(value)}" for key, value in body.items())
    if isinstance(body, list):
        return " ".join(_detail(item) for item in body)
    return str(body)


def _multipart(fields: dict[str, Any], files: dict[str, Path]) -> tuple[bytes, str]:
    boundary = f"part-du-chef-{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, path in files.items():
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{path.name}"\r\n'
            f"Content-Type: {kind}\r\n\r\n"
        )
        parts.append(head.encode() + path.read_bytes() + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


# -- the commands ---------------------------------------------------------------------------------


def parser(prog: str) -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog=prog, description="Your bots on an arena server.")
    sub = top.add_subparsers(dest="command", required=True)
    signup = sub.add_parser("signup", help="create an account on a server, and log in to it (as `login` does)")
    signup.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000/")
    signup.add_argument(
        "--username", required=True, help="the account's name (the password is asked twice, or PART_DU_CHEF_PASSWORD)"
    )
    login = sub.add_parser("login", help="keep the server's address and an API token in the config file")
    login.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000/")
    login.add_argument("--username", help="your account (the password is asked, or read from PART_DU_CHEF_PASSWORD)")
    login.add_argument("--token", help="an API token you already have, instead of a username and password")
    submit = sub.add_parser("submit", help="upload a bot (--name) or a new version of one of yours (--bot)")
    submit.add_argument("file", type=Path, help="one source file, or a .zip (docs/languages.md)")
    which = submit.add_mutually_exclusive_group(required=True)
    which.add_argument("--name", help="the new bot's name")
    which.add_argument("--bot", type=int, help="the id of your bot that gets a new version")
    submit.add_argument("--description", default="")
    submit.add_argument("--wait", action="store_true", help="wait until validation ends and show its result")
    status = sub.add_parser("status", help="your bots, or one bot with its versions and arena entries")
    status.add_argument("bot", type=int, nargs="?")
    logs = sub.add_parser("logs", help="a version's validation log: its build messages and games")
    logs.add_argument("bot", type=int)
    logs.add_argument("--version", type=int, help="the version number (default: the latest)")
    enter = sub.add_parser("enter", help="enter a bot in the ranked arena")
    enter.add_argument("bot", type=int)
    enter.add_argument("--table-size", type=int, default=2, help="2 to 5 players a table (default 2)")
    leave = sub.add_parser("leave", help="take a bot out of the arena")
    leave.add_argument("bot", type=int)
    compare = sub.add_parser("server-compare", help="compare the active version with another one, on the server")
    compare.add_argument("bot", type=int)
    compare.add_argument("--against-version", type=int, required=True)
    compare.add_argument("--deals", type=int, default=10)
    compare.add_argument("--opponents", default="greedy", help="comma-separated built-in bots (default greedy)")
    compare.add_argument("--wait", action="store_true", help="wait for the verdict")
    return top


def main(argv: Sequence[str], prog: str = "part-du-chef", out: TextIO | None = None) -> int:
    args = parser(prog).parse_args(list(argv))
    say: Callable[[str], None] = lambda line: print(line, file=out or sys.stdout, flush=True)  # noqa: E731
    try:
        if args.command == "signup":
            return _signup(args, say)
        if args.command == "login":
            return _login(args, say)
        config = load_config()
        api = Api(config["server"], config["token"])
        handler = {
            "submit": _submit,
            "enter": _enter,
            "leave": _leave,
            "status": _status,
            "logs": _logs,
            "server-compare": _compare,
        }[args.command]
        return handler(api, args, say)
    except ServerError as exc:
        print(f"error: {exc}", file=sys.stderr, flush=True)
        return 1


def _signup(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    api = Api(args.server)
    password = os.environ.get("PART_DU_CHEF_PASSWORD")
    if not password:
        password = getpass.getpass(f"a password for {args.username}: ")
        if getpass.getpass("the same password again: ") != password:
            raise ServerError("the two passwords differ; nothing was created")
    # The web sign-up's rules and throttle (accounts.views.AccountCreateView); the answer carries the token.
    account = api.call("POST", "/api/accounts/", {"username": args.username, "password": password})
    path = save_config(api.server, account["token"])
    say(f"signed up to {api.server} as {account['username']} (player {account['player_id']}); token kept in {path}")
    return 0


def _login(args: argparse.Namespace, say: Callable[[str], None]) -> int:
    api = Api(args.server)
    token = args.token
    if not token:
        if not args.username:
            raise ServerError("give --username (and type the password) or --token")
        password = os.environ.get("PART_DU_CHEF_PASSWORD") or getpass.getpass(f"password for {args.username}: ")
        answer = api.call("POST", "/api/auth/token/", {"username": args.username, "password": password})
        token = answer["token"]
    Api(args.server, token).call("GET", "/api/bots/")  # the token works
    path = save_config(api.server, token)
    say(f"logged in to {api.server}; token kept in {path}")
    return 0


def _submit(api: Api, args: argparse.Namespace, say: Callable[[str], None]) -> int:
    path: Path = args.file
    if not path.is_file():
        raise ServerError(f"{path}: no such file (a bot is one source file or a .zip, see docs/languages.md)")
    if args.bot is not None:
        version = api.call("POST", f"/api/bots/{args.bot}/versions/", {}, files={"file": path})
        bot_id, number = args.bot, version["number"]
    else:
        fields = {"name": args.name, "game": GAME, "description": args.description}
        bot = api.call("POST", "/api/bots/", fields, files={"file": path})
        bot_id, number = bot["id"], 1
    say(f"bot {bot_id} version {number}: submitted, validation queued")
    if not args.wait:
        say(f"follow it with: part-du-chef status {bot_id}")
        return 0
    version = _wait_for(
        lambda: api.call("GET", f"/api/bots/{bot_id}/versions/{number}/"), ("active", "rejected", "retired")
    )
    say(f"bot {bot_id} version {number}: {version['status']}" + (f": {version['reason']}" if version["reason"] else ""))
    return 0 if version["status"] == "active" else 1


def _wait_for(fetch: Callable[[], Any], done: tuple[str, ...], limit_s: float = 900.0) -> Any:
    deadline = time.monotonic() + limit_s
    while True:
        current = fetch()
        if current["status"] in done:
            return current
        if time.monotonic() > deadline:
            raise ServerError(f"still {current['status']} after {limit_s:.0f} s")
        time.sleep(1.0)  # polling a person's command line: once a second is plenty


def _enter(api: Api, args: argparse.Namespace, say: Callable[[str], None]) -> int:
    entry = api.call("POST", "/api/arena/entries/", {"player": args.bot, "game": GAME, "table_size": args.table_size})
    wait = entry.get("wait") or {}
    say(f"bot {args.bot} entered the arena at tables of {entry['table_size']} (entry {entry['id']})")
    if wait.get("reason"):
        say(f"  {wait['state']}: {wait['reason']}")
    return 0


def _entries(api: Api, bot: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    page: str | None = "/api/arena/entries/"
    while page:
        answer = api.call("GET", page)
        rows = answer["results"] if isinstance(answer, dict) else answer
        found += [row for row in rows if row["player"] == bot]
        page = answer.get("next") if isinstance(answer, dict) else None
    return found


def _leave(api: Api, args: argparse.Namespace, say: Callable[[str], None]) -> int:
    entries = _entries(api, args.bot)
    if not entries:
        raise ServerError(f"bot {args.bot} is not in the arena (`part-du-chef status {args.bot}` shows its entries)")
    for entry in entries:
        api.call("DELETE", f"/api/arena/entries/{entry['id']}/")
        say(f"bot {args.bot} left the arena (entry {entry['id']}, tables of {entry['table_size']})")
    return 0


def _status(api: Api, args: argparse.Namespace, say: Callable[[str], None]) -> int:
    if args.bot is None:
        answer = api.call("GET", "/api/bots/")
        bots = answer["results"] if isinstance(answer, dict) else answer
        if not bots:
            say("no bots yet: part-du-chef submit FILE --name NAME")
        for bot in bots:
            say(_bot_line(bot))
        return 0
    bot = api.call("GET", f"/api/bots/{args.bot}/")
    say(_bot_line(bot))
    answer = api.call("GET", f"/api/bots/{args.bot}/versions/")
    for version in answer["results"] if isinstance(answer, dict) else answer:
        reason = f": {version['reason'].splitlines()[0]}" if version.get("reason") else ""
        say(f"  version {version['number']}: {version['status']}{reason}")
    for entry in _entries(api, args.bot):
        wait = entry.get("wait") or {}
        say(f"  arena, tables of {entry['table_size']}: {wait.get('state', '?')}: {wait.get('reason', '')}")
    return 0


def _bot_line(bot: dict[str, Any]) -> str:
    rating = bot.get("rating")
    rated = f", rating {rating['rating']:.0f} over {rating['games']} games" if rating else ""
    return f"bot {bot['id']} {bot['name']}: {bot['status']}{rated}"


def _logs(api: Api, args: argparse.Namespace, say: Callable[[str], None]) -> int:
    number = args.version
    if number is None:
        latest = api.call("GET", f"/api/bots/{args.bot}/").get("latest_version") or {}
        number = latest.get("number")
        if number is None:
            raise ServerError(f"bot {args.bot} has no version yet")
    version = api.call("GET", f"/api/bots/{args.bot}/versions/{number}/")
    say(
        f"bot {args.bot} version {number}: {version['status']}"
        + (f": {version['reason']}" if version["reason"] else "")
    )
    for entry in version.get("log") or []:
        if entry.get("build"):
            say("build messages:")
            say(entry["build"])
        if "game" in entry:
            outcome = f"forfeited: {entry['reason']}" if entry.get("forfeited") else entry.get("status", "")
            say(
                f"game {entry['game']} (match {entry['match']}, seat {entry['seat']}, "
                f"{entry['decisions']} decisions, slowest {entry.get('max_latency_ms')} ms): {outcome}"
            )
            if entry.get("stderr"):
                say("  stderr: " + entry["stderr"].rstrip().replace("\n", "\n  stderr: "))
    return 0


def _compare(api: Api, args: argparse.Namespace, say: Callable[[str], None]) -> int:
    body = {
        "against": {"version": args.against_version},
        "deals": args.deals,
        "opponents": [name for name in args.opponents.split(",") if name],
    }
    made = api.call("POST", f"/api/bots/{args.bot}/compare/", body)
    say(f"comparison {made['id']} queued: version {made['version']} against version {args.against_version}")
    if not args.wait:
        return 0
    done = _wait_for(
        lambda: api.call("GET", f"/api/bots/{args.bot}/compares/{made['id']}/"), ("finished", "failed"), 3600.0
    )
    for forfeit in done.get("forfeits") or []:
        say(
            f"forfeit: version {forfeit['version']} in deal {forfeit['deal']} (seed {forfeit['seed']}), "
            f"seat {forfeit['seat']}: {forfeit['reason']}"
        )
    if done["status"] == "failed":
        raise ServerError(f"comparison {made['id']} failed: {done['error']}")
    say(f"verdict: {done['result']['verdict']}")
    return 0
