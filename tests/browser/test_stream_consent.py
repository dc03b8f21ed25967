"""Stream consent in a real browser: a player opts out of being streamed on their page (htmx swaps the panel) and
back in, on a phone, checked by axe-core; the caster's page then offers the player's table as off stream."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.support.browser import assert_fits, axe_check, wait_for_htmx
from tournaments.models import Registration

pytestmark = pytest.mark.browser


def test_a_player_opts_out_of_being_streamed_on_their_page_and_the_caster_sees_the_table_off_stream(
    new_page, running_event, organiser, django_user_model, tmp_path
):
    registration = Registration.objects.select_related("player").get(event=running_event, player__display_name="Yugi")
    user = django_user_model.objects.create_user(username="yugi", password="pw")
    registration.player.user = user
    registration.player.save(update_fields=["user"])
    shots = Path(os.environ.get("PODIUM_SCREENSHOTS", tmp_path))
    page = new_page(viewport=PHONE, user=user)
    page.goto("/me/")
    wait_for_htmx(page)
    panel = page.locator(f"#player-panel-{running_event.pk}")
    expect(panel).to_contain_text("May be streamed")
    page.get_by_role("button", name="Don't stream my table").click()
    expect(panel).to_contain_text("You opted out: no stream shows your table.")
    expect(panel).to_contain_text("Not streamed")
    axe_check(page)
    assert_fits(page)
    page.screenshot(path=shots / "stream-consent-phone.png", full_page=True)
    registration.refresh_from_db()
    assert registration.stream_opt_out

    caster = new_page(user=organiser)
    caster.goto(f"/live/events/{running_event.pk}/caster/")
    caster.get_by_role("button", name="Add station").click()
    expect(caster.get_by_label("Table")).to_contain_text("(off stream: a player opted out)")
    axe_check(caster)

    page.get_by_role("button", name="Allow streaming my table").click()
    expect(panel).to_contain_text("Your table may be streamed again.")
    expect(panel).to_contain_text("May be streamed")
    registration.refresh_from_db()
    assert not registration.stream_opt_out
