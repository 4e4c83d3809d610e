"""The bot owners' page in a browser: upload a bot, watch its validation end live, read a failed build's log,
enter the arena and leave it, all with the site's own session."""

from __future__ import annotations

from typing import Any

from arena.models import ArenaEntry, Player
from submissions import actions
from submissions.models import BotVersion
from tests.submitted_bots import STARTER_KITS
from tests.web.browsing import shot, sign_up


def _validate_when_uploaded(name: str, number: int) -> BotVersion:
    version = BotVersion.objects.get(bot__player__name=name, number=number)
    # No worker in this test: validation runs here, as a worker would, while the page watches.
    actions.run_validation(version.id)
    version.refresh_from_db()
    return version


def test_an_owner_uploads_a_bot_on_the_page_and_sees_it_become_active(
    browser: Any, site: str, bot_settings: Any, tmp_path: Any
) -> None:
    page = sign_up(browser, site, "carla")
    page.goto(f"{site}/my-bots/")
    form = page.locator("#new-bot")
    form.locator("input[name=name]").fill("carla-c")
    form.locator("input[name=file]").set_input_files(str(STARTER_KITS / "c" / "main.c"))
    form.locator("button[type=submit]").click()
    page.wait_for_selector("section.bot h2 >> text=carla-c", timeout=15000)
    row = page.locator("tr.version").first
    assert row.locator(".version-status").inner_text() in ("pending", "validating")

    assert _validate_when_uploaded("carla-c", 1).status == "active"
    page.wait_for_selector("section.bot .badge >> text=active", timeout=15000)  # the page saw it by itself
    assert page.locator("tr.version .version-status").first.inner_text() == "active"
    shot(page, "bot-upload-active")

    broken = tmp_path / "broken.c"
    broken.write_text("int main(void) {\n    return 0\n}\n")
    page.locator("form.new-version input[name=file]").set_input_files(str(broken))
    page.locator("form.new-version button[type=submit]").click()
    page.wait_for_selector("tr.version >> text=broken.c", timeout=15000)
    assert _validate_when_uploaded("carla-c", 2).status == "rejected"
    # The Validation cell says it in one line; the compiler's output waits behind "Build log".
    page.wait_for_selector("tr.version td.validation details.build-log", timeout=15000)
    cell = page.locator("tr.version td.validation").first
    summary = cell.locator(".validation-summary").text_content()
    assert summary is not None and "\n" not in summary and len(summary) <= 160, summary
    assert summary.startswith("the C build failed") and "main.c:3" not in summary, summary
    assert not cell.locator("details.build-log pre").is_visible()
    cell.locator("details.build-log summary").click()
    log = cell.locator("details.build-log pre").inner_text()
    assert "main.c:2:13: error: expected" in log
    shot(page, "bot-upload-build-log")

    page.locator("form.enter button[type=submit]").click()
    page.wait_for_selector("form[data-method=DELETE] button", timeout=15000)
    player = Player.objects.get(name="carla-c")
    assert ArenaEntry.objects.filter(player=player, active=True, table_size=2).count() == 1
    page.locator("form[data-method=DELETE] button").click()
    page.wait_for_selector("form[data-method=DELETE]", state="detached", timeout=15000)
    assert not ArenaEntry.objects.filter(player=player, active=True).exists()

    page.locator("#new-bot input[name=name]").fill("carla-c")
    page.locator("#new-bot input[name=file]").set_input_files(str(STARTER_KITS / "c" / "main.c"))
    page.locator("#new-bot button[type=submit]").click()
    page.wait_for_selector("#new-bot .form-error >> text=already exists", timeout=15000)
