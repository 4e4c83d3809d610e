"""A deliberately naive La Part du Chef engine: the yardstick that `bench` measures the engine against.

It plays complete random games (deal, cuts, takes with eating and finisher steals, final scoring with the
chili assignment) the plain way: dicts of slices, lists rebuilt at every step, every chili combination
scored from scratch. It is written for clarity, not speed, and it does not change (only its type
annotations were added, which cost nothing at run time), so a benchmark that runs it in the same process
invocation as the project's engine gives a ratio that holds on any machine. It shares nothing with the
engine and is never compiled.

    python -m games.part_du_chef.naive_engine [GAMES] [PLAYERS]   -> games per second (CPU time)
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from typing import TypedDict


class NaiveSlice(TypedDict):
    sort: str
    olives: int
    finisher: bool


SORTS = ["margherita", "reine", "quatre_fromages", "vegetarienne", "truffe"]
VALUE = {"margherita": 3, "reine": 5, "quatre_fromages": 7, "vegetarienne": 9, "truffe": 11}
DECK = [
    ("margherita", 2, 8),
    ("margherita", 3, 8),
    ("reine", 2, 14),
    ("quatre_fromages", 1, 6),
    ("quatre_fromages", 2, 5),
    ("vegetarienne", 1, 9),
    ("truffe", 1, 7),
    ("chili", 0, 3),
]
FINISHER_OLIVES = {"margherita": 2, "reine": 2, "quatre_fromages": 1, "vegetarienne": 1, "truffe": 1}


def deal(rng: random.Random) -> list[list[NaiveSlice]]:
    rest: list[NaiveSlice] = []
    for sort, olives, count in DECK:
        for _ in range(count):
            rest.append({"sort": sort, "olives": olives, "finisher": False})
    for sort in SORTS:
        for sl in rest:
            if sl["sort"] == sort and sl["olives"] == FINISHER_OLIVES[sort]:
                sl["finisher"] = True
                break
    rng.shuffle(rest)
    pizzas = []
    for p in range(5):
        burnt: NaiveSlice = {"sort": "burnt", "olives": 0, "finisher": False}
        ring = rest[12 * p : 12 * p + 12] + [burnt]
        rng.shuffle(ring)
        pizzas.append(ring)
    return pizzas


def portions(cuts: list[int]) -> list[list[int]]:
    out = []
    for i, c in enumerate(cuts):
        end = cuts[(i + 1) % len(cuts)]
        span = (end - c) % 13 or 13
        out.append([(c + k) % 13 for k in range(span)])
    return out


def totals(
    kept: list[list[NaiveSlice]],
    eaten: list[int],
    slice_points: list[int],
    chili: dict[int, tuple[str, ...]],
    n: int,
) -> list[int]:
    counts = []
    for s in range(n):
        c = {x: 0 for x in SORTS}
        for sl in kept[s]:
            if sl["sort"] in c:
                c[sl["sort"]] += 1
        for x in chili.get(s, ()):
            c[x] += 1
        counts.append(c)
    result = []
    for s in range(n):
        majority = sum(
            VALUE[x]
            for x in SORTS
            if max(counts[t][x] for t in range(n)) >= 1 and counts[s][x] == max(counts[t][x] for t in range(n))
        )
        variety = 5 * min(counts[s][x] for x in SORTS)
        burnt = -3 * sum(1 for sl in kept[s] if sl["sort"] == "burnt")
        result.append(majority + eaten[s] + slice_points[s] + variety + burnt)
    return result


def score(kept: list[list[NaiveSlice]], eaten: list[int], slice_points: list[int], n: int) -> list[int]:
    chili: dict[int, tuple[str, ...]] = {}
    for s in range(n):
        k = sum(1 for sl in kept[s] if sl["sort"] == "chili")
        if not k:
            continue
        best: tuple[str, ...] = ()
        best_total: int | None = None
        for combo in itertools.combinations_with_replacement(SORTS, k):
            trial = dict(chili)
            trial[s] = combo
            t = totals(kept, eaten, slice_points, trial, n)[s]
            if best_total is None or t > best_total:
                best, best_total = combo, t
        chili[s] = best
    return totals(kept, eaten, slice_points, chili, n)


def random_game(n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    pizzas = deal(rng)
    kept: list[list[NaiveSlice]] = [[] for _ in range(n)]
    eaten = [0] * n
    slice_points = [0] * n
    for p in range(5):
        chef = p % n
        cuts = sorted(rng.sample(range(13), n))
        free = list(range(n))
        parts = portions(cuts)
        for k in range(1, n + 1):
            seat = (chef + k) % n
            i = rng.choice(free) if seat != chef else free[0]
            free.remove(i)
            for pos in parts[i]:
                sl = pizzas[p][pos]
                if sl["sort"] != "burnt":
                    slice_points[seat] += 1
                if sl["sort"] not in ("chili", "burnt") and rng.random() < 0.4:
                    eaten[seat] += sl["olives"]
                    continue
                kept[seat].append(sl)
                if sl["finisher"]:
                    victims = [(o, x) for o in range(n) if o != seat for x in kept[o] if x["sort"] == sl["sort"]]
                    if victims and rng.random() < 0.8:
                        o, x = rng.choice(victims)
                        kept[o].remove(x)
                        kept[seat].append(x)
    return score(kept, eaten, slice_points, n)


def bench(games: int = 300, players: int = 4) -> float:
    start = time.process_time()
    for g in range(games):
        random_game(players, g)
    return games / max(time.process_time() - start, 1e-9)


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    print(f"{bench(games, players):.1f}")
