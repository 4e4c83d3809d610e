"""`part-du-chef compare`: is my v2 better than v1? With bot programs, paired over duplicate deals."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.part_du_chef.deck import deal

from .conftest import STARTER_KITS

KIT = STARTER_KITS / "python" / "bot.py"
REMEMBERING = Path(__file__).with_name("remembering_bot.py")


def _difference(stdout: str) -> tuple[float, float]:
    """The score difference A - B and its 95% half-width, from the printed table."""
    row = next(line for line in stdout.splitlines() if "A - B" in line)
    mean, half = re.search(r"(-?\d+\.\d+) ± (\d+\.\d+)", row).groups()
    return float(mean), float(half)


def test_a_bot_program_compared_with_itself_has_an_interval_containing_zero(run, tmp_path):
    copy = tmp_path / "v2.py"
    copy.write_text(KIT.read_text())
    status, stdout, stderr = run("compare", str(KIT), str(copy), "--against", "random", "--deals", "4")
    assert status == 0, stderr
    mean, half = _difference(stdout)
    assert mean - half <= 0 <= mean + half
    assert "verdict: no difference between" in " ".join(stdout.split())
    assert "stopped after 3 of at most 4 deals" in " ".join(stdout.split())
    assert "forfeited" not in stderr


def test_a_bot_program_compared_with_random_is_significantly_better(run):
    status, stdout, stderr = run("compare", str(KIT), "random", "--against", "random,random", "--deals", "8")
    assert status == 0, stderr
    mean, half = _difference(stdout)
    assert mean - half > 0, stdout
    assert f"verdict: {KIT} is better than random" in " ".join(stdout.split())


def test_a_forfeiting_version_counts_its_forfeits_and_places_last_in_those_games(run, tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nsys.exit(3)\n")
    status, stdout, stderr = run("compare", str(broken), "greedy", "--against", "random", "--deals", "2")
    assert status == 0, stderr
    assert "4 of 4" in stdout and "forfeited (crash: the bot exited (exit code 3))" in stderr
    assert "verdict:" in stdout


def test_a_bot_that_remembers_is_shown_no_pizza_of_a_deal_before_every_game_of_the_deal_has_reached_it(run):
    # Two deals of three players: the bot plays three games of each (one per seat), greedy three more.
    status, stdout, stderr = run(
        "compare", str(REMEMBERING), "greedy", "--against", "greedy,random", "--deals", "2", "--fixed", "--verbose"
    )
    assert status == 0, stderr
    assert "2 duplicate deals (seeds 0..1), 3 players" in stdout and "forfeited" not in stderr

    # What the bot was shown, in the order it was shown (its --verbose lines), and where each ring comes from.
    where = {ring: (seed, pizza) for seed in (0, 1) for pizza, ring in enumerate(deal(seed))}
    shown: dict[str, tuple[int, int]] = {}  # game -> (its deal, the furthest pizza shown there)
    early = []
    for line in stderr.splitlines():
        if not line.startswith(f"[{REMEMBERING}] saw "):
            continue
        seen = json.loads(line.split(" saw ", 1)[1])
        seed, pizza = where[tuple(seen["ring"])]
        assert pizza == seen["pizza"]
        # A pizza of this deal already shown in another of its games, beyond this game's: the bot would know
        # what this game deals next.
        early += [
            (seed, seen["pizza"], furthest)
            for game, (other, furthest) in shown.items()
            if other == seed and game != seen["game"] and furthest > pizza
        ]
        shown[seen["game"]] = (seed, max(pizza, shown.get(seen["game"], (seed, 0))[1]))
    assert sorted(shown.values()) == [(0, 4)] * 3 + [(1, 4)] * 3  # every pizza, in every game of the bot
    assert early == [], f"(deal, pizza, a pizza of it already shown in another game): {early}"


def test_a_compare_that_needs_more_sandbox_slots_than_there_are_says_how_many_and_plays_nothing(run):
    # Each deal: A's 3 games with 3 programs each, B's 3 with 2 each: 15 programs at once, on 8 slots here.
    status, stdout, stderr = run("compare", str(KIT), "greedy", "--against", f"{KIT},{KIT}", "--deals", "3")
    assert status == 2 and stdout == ""
    assert "compare plays the 6 games of a deal side by side, 15 bot programs at once" in stderr
    assert "the sandbox has 8 slots: set PART_DU_CHEF_SANDBOX_SLOTS to 15 or more" in stderr
