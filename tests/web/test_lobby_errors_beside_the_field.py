"""In Chromium, on a French page: a friendly table that cannot be opened is answered beside the guests'
field, in French, with the names typed kept and the closest name proposed for a mistyped one."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browsing import shot, sign_up

pytestmark = pytest.mark.system


def test_a_lobby_error_in_french_appears_beside_the_field_and_keeps_the_guest_list(browser: Any, site: str) -> None:
    page = sign_up(browser, site, "zoé", locale="fr-FR")
    guests = page.locator("#guests")
    guests.fill("greedy, random, search, greedy-2, gredy")
    page.locator("button[name=open]").click()
    error = page.locator("#guests-error")
    error.wait_for()
    assert error.inner_text() == (
        "Une table accueille de 2 à 5 joueurs : invitez de 1 à 4 invités (vous en avez nommé 5)."
    )
    assert guests.input_value() == "greedy, random, search, greedy-2, gredy"
    # Beside the field: just under it, not at the top of the page.
    field, box = guests.bounding_box(), error.bounding_box()
    assert field is not None and box is not None and 0 <= box["y"] - (field["y"] + field["height"]) < 40
    assert page.locator(".messages li").count() == 0
    shot(page, "55-lobby-error-fr")

    guests.fill("gredy")
    page.locator("button[name=open]").click()
    error.wait_for()
    assert error.inner_text() == "Aucun joueur nommé gredy. Vouliez-vous dire greedy ?"
    assert guests.input_value() == "gredy"
    shot(page, "56-lobby-did-you-mean-fr")
    page.context.close()
