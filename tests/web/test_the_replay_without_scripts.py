"""In Chromium without JavaScript: the replay's steps are links that work, and its Play button, which
needs a script, is not shown."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import shot

pytestmark = pytest.mark.system


def test_the_replay_s_play_button_is_hidden_without_scripts(browser: Any, site: str, finished_match: Any) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{site}/matches/{finished_match.id}/")
    assert not page.locator('[data-role="autoplay"]').is_visible()
    assert not page.locator('[data-role="speed-box"]').is_visible()
    page.locator('button[data-step="first"]').click()
    assert page.locator('[data-role="step"]').inner_text() == "0"
    shot(page, "64-replay-without-scripts")
    context.close()
