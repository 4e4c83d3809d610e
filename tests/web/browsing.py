"""What the browser test modules share: Debian's Chromium, screenshots, signing up."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "pizza-and-olives-42"


@contextmanager
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests drive Debian's chromium at {CHROMIUM}: apt-get install -y chromium")
    # The test drives the browser and reads the database from one thread; Playwright's sync API
    # keeps an event loop there, which Django would otherwise take for async code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield browser
            browser.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def sign_up(browser: Any, base: str, name: str, locale: str = "en-GB", width: int = 1280, height: int = 800) -> Any:
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{base}/signup/")
    page.locator("#id_username").fill(name)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/play/")
    return page


def sign_in(
    browser: Any,
    base: str,
    name: str,
    locale: str = "en-GB",
    width: int = 1280,
    height: int = 800,
    password: str = PASSWORD,
) -> Any:
    """A browser of its own for the existing account `name`, signed in."""
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{base}/login/")
    page.locator("#id_username").fill(name)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state("load")
    return page


def people(*names: str) -> list[Any]:
    """Accounts with their players, for tables set up by the test (password PASSWORD)."""
    from django.contrib.auth.models import User

    from arena.people import person_of

    return [person_of(User.objects.create_user(name, password=PASSWORD)) for name in names]
