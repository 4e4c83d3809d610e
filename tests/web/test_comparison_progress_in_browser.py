"""The bot owners' page follows a running comparison by itself: deals done, the running estimate, the verdict."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import Player
from games.part_du_chef.comparison import DealScores
from submissions import comparison_deals
from submissions.comparison_deals import DEAL_LEASE, record_deal
from submissions.models import BotComparison, BotVersion, ComparisonDeal, SubmittedBot
from tests.web.browsing import shot, sign_up


def test_the_page_shows_each_deal_of_a_running_comparison_as_it_comes_in_then_its_verdict(
    browser: Any, site: str, settings: Any
) -> None:
    settings.ARENA_COMPARE_PARALLEL_DEALS = 3
    page = sign_up(browser, site, "carla")
    player = Player.objects.create(name="carla-chef", kind=Player.Kind.BOT, owner=User.objects.get(username="carla"))
    bot = SubmittedBot.objects.create(player=player, game="part-du-chef")
    v1, v2 = (
        BotVersion.objects.create(
            bot=bot,
            number=number,
            source="endpoint",
            endpoint="https://bots.example.org/",
            status=status,
            validated_at=timezone.now(),
        )
        for number, status in ((1, "retired"), (2, "active"))
    )
    row = BotComparison.objects.create(
        bot=bot, version=v2, against=v1, deals=3, opponents=["greedy"], seed=20, games_total=12, fixed=True
    )
    comparison_deals.run_compare(row.pk)
    page.goto(f"{site}/my-bots/")
    page.wait_for_selector("tr.comparison >> text=0 of at most 3 deals", timeout=15000)

    # The deals come in as a worker would record them; the page sees each one by itself.
    diffs = {20: 2.0, 21: 1.0, 22: 3.0}
    for number in range(3):
        deal = ComparisonDeal.objects.get(comparison=row, number=number)
        attempt, _ = DEAL_LEASE.claim(deal.pk)
        assert attempt == 1
        record_deal(deal.pk, attempt, DealScores(deal.seed, 8.0 + diffs[deal.seed], 8.0, 1.5, 1.5, 0, 0))
        if number == 1:
            page.wait_for_selector("tr.comparison >> text=2 of at most 3 deals", timeout=15000)
            estimate = page.locator("tr.comparison .comparison-estimate").inner_text()
            assert estimate.startswith("so far: 1.50 ± ") and "points per game" in estimate
            shot(page, "comparison-running")
    page.wait_for_selector("tr.comparison >> text=carla-chef v2 is better than carla-chef v1", timeout=15000)
    assert page.locator("tr.comparison[data-comparing]").count() == 0  # finished: no longer watched
