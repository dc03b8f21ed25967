"""The player's own penalties on /me/ on a 390 px phone: listed with the event's panel, a rescinded one
marked; axe-core and no sideways scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.support.browser import assert_fits, axe_check
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.browser


def test_a_player_reads_their_penalties_on_their_phone(new_page, organiser, running_event, django_user_model):
    user = django_user_model.objects.create_user(username="yugi", password="pw")
    registration = running_event.registrations.get(player__display_name="Yugi")
    Player.objects.filter(pk=registration.player_id).update(user=user)
    warning = services.penalty_issue(
        event=running_event, registration_id=registration.pk, penalty="warning",
        infraction="Looking at the opponent's hand while they shuffled, twice in one game", by=organiser,
    )  # fmt: skip
    services.penalty_issue(
        event=running_event, registration_id=registration.pk, penalty="game_loss", infraction="Marked sleeves",
        by=organiser,
    )  # fmt: skip
    services.penalty_rescind(penalty=warning, by=organiser, reason="Misheard.")
    page = new_page(viewport=PHONE, user=user)
    page.goto("/me/")
    penalties = page.locator(".my-penalties")
    expect(penalties.get_by_role("heading", name="Your penalties")).to_be_visible()
    expect(penalties.locator("li").nth(0)).to_contain_text("Game loss: Marked sleeves · round 1")
    expect(penalties.locator("li").nth(1)).to_contain_text("rescinded")
    assert_fits(page)
    axe_check(page)
