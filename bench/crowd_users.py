"""The crowd of bench/crowd.py: Locust users of the whole site, and the generator that runs them in steps.

Imported only by the load generator's own process (Locust patches the standard library for gevent on
import): nothing here imports Django. What the users need from the database (players, matches,
tokens, sessions) comes from the JSON the benchmark's seeding step wrote, named by `CROWD_SEED`.

* `Browser`: anonymous people reading leaderboards, profiles and replays, as pages and through the API.
* `Person`: a signed-in person at a friendly table with a bot (token for the API, session for the pages),
  acting whenever it is their turn, opening the next table when one ends.
* `Spectator`: holds the event stream of a running table (Server-Sent Events) for a while, counts events.
* `ApiClient`: a staff account's token; lists matches, reads them, creates rated bot matches, each with an
  Idempotency-Key it retries until a 2xx (honouring Retry-After on 429 and 503).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import gevent  # type: ignore[import-untyped]  # gevent ships no type information
from locust import FastHttpUser, HttpUser, User, between, task
from locust.env import Environment

GAME = "part-du-chef"
# Statuses a request can end with; 0 stands for no answer at all (connection refused, reset, timed out).
NO_ANSWER = 0


@dataclass
class Tally:
    """What the users of one step did, beyond Locust's own statistics."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    per_second: dict[int, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    # Idempotency-Key -> (last status, the match id of a 2xx answer)
    keys: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    streams: int = 0
    stream_events: int = 0
    stream_seconds: float = 0.0
    tables: int = 0
    queued: int = 0
    seated_from_queue: int = 0
    actions: int = 0
    games_over: int = 0


SEED: dict[str, Any] = {}
TALLY = Tally()
_people = itertools.count()
_clients = itertools.count()


def seed() -> dict[str, Any]:
    if not SEED:
        path = os.environ.get("CROWD_SEED")
        if not path:
            raise SystemExit("CROWD_SEED must name the seed JSON bench/crowd.py wrote (var/bench/crowd-*-seed.json)")
        with open(path) as stream:
            SEED.update(json.load(stream))
    return SEED


def record(
    request_type: str,
    name: str,
    response_time: float,
    response_length: int,
    response: Any = None,
    exception: BaseException | None = None,
    start_time: float | None = None,
    **kwargs: Any,
) -> None:
    """Every request's time and status, by route and by second (the outage's window is read from these)."""
    status = getattr(response, "status_code", None) or NO_ANSWER
    route = f"{request_type} {name}"
    TALLY.times[route].append(response_time)
    TALLY.statuses[route][status] += 1
    TALLY.per_second[int(start_time or time.time())][status] += 1


def _retry_after(response: Any) -> float:
    try:
        return min(5.0, float(response.headers.get("Retry-After") or 1.0))
    except (TypeError, ValueError):
        return 1.0


class Browser(FastHttpUser):
    """Anonymous reading: leaderboards, profiles and replays, HTML and JSON."""

    weight = 6
    wait_time = between(1, 3)

    def _player(self) -> int:
        return int(random.choice(seed()["bots"]))

    def _match(self) -> int:
        return int(random.choice(seed()["matches"]))

    @task(3)
    def leaderboard_page(self) -> None:
        self.client.get(f"/leaderboard/{GAME}/?page={random.randint(1, 2)}", name="/leaderboard/[game]/")

    @task(2)
    def leaderboard_api(self) -> None:
        self.client.get(f"/api/leaderboards/{GAME}/", name="/api/leaderboards/[game]/")

    @task(3)
    def profile_page(self) -> None:
        self.client.get(f"/players/{self._player()}/", name="/players/[id]/")

    @task(1)
    def standing_api(self) -> None:
        self.client.get(
            f"/api/leaderboards/{GAME}/players/{self._player()}/", name="/api/leaderboards/[game]/players/[id]/"
        )

    @task(1)
    def history_api(self) -> None:
        self.client.get(f"/api/players/{self._player()}/ratings/{GAME}/", name="/api/players/[id]/ratings/[game]/")

    @task(3)
    def replay_page(self) -> None:
        self.client.get(f"/matches/{self._match()}/", name="/matches/[id]/")

    @task(1)
    def record_json(self) -> None:
        self.client.get(f"/matches/{self._match()}/record.json", name="/matches/[id]/record.json")

    @task(1)
    def home(self) -> None:
        self.client.get("/", name="/")


class Person(HttpUser):
    """A person playing, as the pages' scripts do: the lobby page, then a friendly table with a bot (two times in
    three) or the arena's queue for a rated table, then the state endpoint and an action whenever it is their
    turn; the next game once one is over. A person left at a table or in the queue by the previous step goes on."""

    weight = 2
    wait_time = between(0.3, 0.8)

    def on_start(self) -> None:
        people = seed()["people"]
        me = people[next(_people) % len(people)]
        self.api = {"Authorization": f"Token {me['token']}"}
        self.client.cookies.set("sessionid", me["session"])
        self.match: int | None = None
        self.waiting = False
        self.client.get("/play/", name="/play/")
        self._queue_status()

    def _queue_status(self) -> None:
        answer = self.client.get("/api/arena/queue/", headers=self.api, name="/api/arena/queue/")
        if answer.status_code == 200:
            status = answer.json()
            if status["match"] is not None:
                TALLY.seated_from_queue += int(self.waiting)  # its entry closed as it was seated
                self.match = int(status["match"])
            self.waiting = status["waiting"] is not None

    def _join_queue(self) -> None:
        body = {"game": GAME, "table_size": 2}
        answer = self.client.post("/api/arena/queue/", json=body, headers=self.api, name="/api/arena/queue/ (join)")
        if answer.status_code == 201:
            self.waiting = True
            TALLY.queued += 1
        elif answer.status_code in (429, 503):
            gevent.sleep(_retry_after(answer))

    def _open(self) -> None:
        body = {"game": GAME, "guests": [int(random.choice(seed()["guests"]))]}
        answer = self.client.post("/api/tables/", json=body, headers=self.api, name="/api/tables/ (open)")
        if answer.status_code == 201:
            self.match = int(answer.json()["match"])
            TALLY.tables += 1
            self.client.get(f"/play/{self.match}/", name="/play/[id]/")
        elif answer.status_code in (429, 503):
            gevent.sleep(_retry_after(answer))

    @task
    def play(self) -> None:
        if self.match is None:
            if self.waiting:
                self._queue_status()
            elif random.random() < 1 / 3:
                self._join_queue()
            else:
                self._open()
            return
        answer = self.client.get(f"/api/matches/{self.match}/state/", headers=self.api, name="/api/matches/[id]/state/")
        if answer.status_code != 200:
            return
        state = answer.json()
        if state["status"] != "running":
            TALLY.games_over += 1
            self.client.get(f"/play/{self.match}/panel/", name="/play/[id]/panel/")
            self.match = None
            return
        legal = state.get("legal")
        if not state.get("your_turn") or not legal:
            return
        if legal["phase"] == "cut":
            action: dict[str, Any] = {"type": "cut", "cuts": list(range(legal["cut"]["points"])), "marianne": None}
        else:
            portion = random.choice(legal["portions"])["index"]
            action = {"type": "take", "portion": portion, "eat": [], "steals": []}
        sent = self.client.post(
            f"/api/matches/{self.match}/actions/",
            json={"turn": state["turn"], "action": action},
            headers=self.api,
            name="/api/matches/[id]/actions/",
        )
        if sent.status_code == 200:
            TALLY.actions += 1


class Spectator(HttpUser):
    """Holds a running table's event stream for 8 to 15 s and counts its events; the time to the stream's
    headers is the request's time."""

    weight = 1
    wait_time = between(0.5, 1.5)

    @task
    def watch(self) -> None:
        listed = self.client.get("/api/matches/?status=running&kind=friendly", name="/api/matches/?status=running")
        if listed.status_code != 200:
            return
        # The tables seeded running are watched when the crowd has none of its own yet.
        running = [int(match["id"]) for match in listed.json().get("results", [])] or seed()["tables"]
        if not running:
            return
        hold = random.uniform(8.0, 15.0)
        started = time.monotonic()
        with self.client.get(
            f"/events/tables/{random.choice(running)}/",
            stream=True,
            name="/events/tables/[id]/",
            timeout=(5.0, hold + 20.0),
            catch_response=True,
        ) as stream:
            if stream.status_code != 200:
                stream.failure(f"status {stream.status_code}")
                return
            stream.success()
            TALLY.streams += 1
            # Held for `hold` seconds whatever comes (or does not come): then the connection is dropped.
            with gevent.Timeout(hold, False):
                for line in stream.iter_lines():
                    if line.startswith(b"data:"):
                        TALLY.stream_events += 1
            stream.close()
        TALLY.stream_seconds += time.monotonic() - started


class ApiClient(FastHttpUser):
    """A staff account's API client: reads matches, and creates rated bot matches with an Idempotency-Key."""

    weight = 1
    wait_time = between(1, 3)

    def on_start(self) -> None:
        tokens = seed()["api"]
        self.api = {"Authorization": f"Token {tokens[next(_clients) % len(tokens)]}"}
        # Its first call creates a match, so that even a short step has every route: at one task in six, a
        # client of a 15 s step would otherwise create nothing about one time in four.
        self.create_rated_match()

    @task(3)
    def list_matches(self) -> None:
        self.client.get("/api/matches/?kind=ranked", headers=self.api, name="/api/matches/?kind=ranked")

    @task(2)
    def read_match(self) -> None:
        match = random.choice(seed()["matches"])
        self.client.get(f"/api/matches/{match}/", headers=self.api, name="/api/matches/[id]/")

    @task(1)
    def create_rated_match(self) -> None:
        players = random.sample(seed()["bots"], random.randint(2, 4))
        body = {"game": GAME, "kind": "ranked", "players": players}
        key = str(uuid.uuid4())
        headers = {**self.api, "Idempotency-Key": key}
        # The same key until a 2xx: a retry after an answer lost in an outage must not create a second match.
        for _ in range(8):
            answer = self.client.post("/api/matches/", json=body, headers=headers, name="/api/matches/ (create)")
            status = answer.status_code or NO_ANSWER
            match = answer.json().get("id") if 200 <= status < 300 else None
            TALLY.keys[key] = (status, match)
            if 200 <= status < 300 or status in (400, 403, 422):
                return
            gevent.sleep(_retry_after(answer) if status in (429, 503) else 1.0)


USER_CLASSES: dict[str, type[User]] = {
    "browser": Browser,
    "person": Person,
    "spectator": Spectator,
    "api": ApiClient,
}


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered))) - 1))]


def summary(tally: Tally) -> dict[str, Any]:
    routes = {
        route: {
            "count": len(times),
            "p50": _percentile(times, 0.50),
            "p99": _percentile(times, 0.99),
            "statuses": {str(code): n for code, n in sorted(tally.statuses[route].items())},
        }
        for route, times in sorted(tally.times.items())
    }
    every = [t for times in tally.times.values() for t in times]
    statuses: Counter[int] = Counter()
    for counts in tally.statuses.values():
        statuses.update(counts)
    return {
        "routes": routes,
        "overall": {
            "count": len(every),
            "p50": _percentile(every, 0.50) if every else 0.0,
            "p99": _percentile(every, 0.99) if every else 0.0,
            "statuses": {str(code): n for code, n in sorted(statuses.items())},
        },
        "errors": sum(n for code, n in statuses.items() if code == NO_ANSWER or code >= 400),
        "per_second": {
            str(sec): {str(c): n for c, n in counts.items()} for sec, counts in sorted(tally.per_second.items())
        },
        "keys": {key: list(value) for key, value in tally.keys.items()},
        "streams": {"held": tally.streams, "events": tally.stream_events, "seconds": round(tally.stream_seconds, 1)},
        "people": {
            "tables_opened": tally.tables,
            "queued": tally.queued,
            "seated_from_queue": tally.seated_from_queue,
            "actions": tally.actions,
            "games_over": tally.games_over,
        },
    }


def run_step(host: str, step: dict[str, Any], spawn_rate: float) -> dict[str, Any]:
    """One step: `users` users of `classes` (by their weights) for `seconds`, then every user stopped; with
    `in_turn`, each class alone for its share of the seconds, one after the other (the baseline)."""
    global TALLY, _people, _clients
    TALLY = Tally()
    groups = [[name] for name in step["classes"]] if step.get("in_turn") else [step["classes"]]
    started = time.time()
    for classes in groups:
        _people, _clients = itertools.count(), itertools.count()
        users = [USER_CLASSES[name] for name in classes]
        kept = {user: user.wait_time for user in users}
        if "wait" in step:  # a lone user thinks less, so that its few seconds give enough requests to rank
            for user in users:
                user.wait_time = between(*step["wait"])
        env = Environment(user_classes=users, host=host)  # events of its own: this step's listener only
        env.events.request.add_listener(record)  # type: ignore[no-untyped-call]  # Locust leaves it unannotated
        runner = env.create_local_runner()
        runner.start(step["users"], spawn_rate=spawn_rate)
        gevent.sleep(step["seconds"] / len(groups))
        runner.stop()
        runner.quit()
        for user, wait in kept.items():
            user.wait_time = wait
    ended = time.time()
    return {"label": step["label"], "users": step["users"], "started": started, "ended": ended, **summary(TALLY)}


def generate(plan: dict[str, Any]) -> None:
    """Run the plan's steps in order, one JSON line per step on stdout; with `stop_p99`, stop after the first
    step whose p99 reaches it or that has any error (the ramp)."""
    SEED.update(plan["seed"])
    for step in plan["steps"]:
        print(json.dumps({"starting": step["label"]}), flush=True)
        done = run_step(plan["host"], step, plan["spawn_rate"])
        print(json.dumps(done), flush=True)
        limit = plan.get("stop_p99")
        if limit is not None and (done["overall"]["p99"] >= limit or done["errors"] > 0):
            break
