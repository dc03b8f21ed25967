"""A player signs in, opens their deck page from the event and registers a real decklist.

The Yu-Gi-Oh! card pool is imported from the shared card data (never committed):
without it the test skips and says why, and on CI it fails (``tests.support.data``).
Deck checks run in-process in the test settings, so the verdict is there when
the page comes back.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tests.support.data import data_dir
from tournaments import services

pytestmark = pytest.mark.browser

YDK = ("ProjectIgnis-Distribution", "TacticalTry_Decisive_Strike_Cyber_Dragon.ydk")


@pytest.fixture
def yugioh_cards():
    from decks import catalogue
    from decks import services as deck_services

    deck_services.cards_import_yugioh(path=data_dir("ygo"))
    catalogue.clear()
    yield
    catalogue.clear()  # the database is flushed after the test: don't keep its cards in memory


@pytest.fixture
def yugi(django_user_model, organiser):
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3,
        date=datetime.date(2026, 12, 4),
    )  # fmt: skip
    user = django_user_model.objects.create_user(username="yugi", password="heart-of-the-cards")
    RegistrationFactory(event=event, player=PlayerFactory(display_name="Yugi Muto", user=user))
    return user, event


def test_a_player_registers_a_real_decklist_and_sees_the_verdict(new_page, yugi, yugioh_cards):
    user, event = yugi
    ydk = data_dir("ygo", "decks", *YDK).read_text()
    main = [
        line.strip() for line in ydk.split("#main", 1)[1].split("#extra", 1)[0].splitlines() if line.strip().isdigit()
    ]

    page = new_page()
    page.goto(f"/accounts/login/?next=/events/{event.pk}/")
    axe_check(page)
    page.get_by_label("Username").fill("yugi")
    page.get_by_label("Password").fill("heart-of-the-cards")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name="My deck").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Yugi Muto's deck")
    expect(page.get_by_text("No deck submitted yet.")).to_be_visible()
    axe_check(page)

    # First the main deck cut to ten cards: every broken rule is listed with its code.
    short = "#main\n" + "\n".join(main[:10]) + "\n#extra\n!side\n"
    page.get_by_label("Decklist").fill(short)
    page.get_by_label("Deck Master").fill(main[0])
    page.get_by_role("button", name="Check and submit").click()
    expect(page.locator(".verdict")).to_contain_text("Version 1 is not legal")
    expect(page.locator(".violations")).to_contain_text("main_size")
    axe_check(page)

    # Then the real list: legal.
    page.get_by_label("Decklist").fill(ydk)
    page.get_by_role("button", name="Check and submit").click()
    expect(page.locator(".verdict")).to_contain_text("Version 2 is legal")
    expect(page.locator(".history")).to_contain_text("v1")
    axe_check(page)

    phone = new_page(viewport=PHONE, user=user)
    phone.goto(f"/events/{event.pk}/deck/")
    assert_fits(phone)
    axe_check(phone)
