"""The penalties page in a real browser: a judge gives a warning and a disqualification, rescinds the warning
(a missing reason said at the reason), and a caster reads the list; axe-core and no sideways scrolling at
desktop size and on a 390 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import PlayerFactory, RegistrationFactory
from tests.support.browser import assert_fits, axe_check
from tournaments.models import Penalty, Registration
from tournaments.services import staff

pytestmark = pytest.mark.browser


@pytest.fixture
def crew(django_user_model, organiser, running_event):
    """A judge (jo) and a caster (cass) at the running event, which has two players called Ash."""
    people = {}
    for username, role in (("jo", "judge"), ("cass", "caster")):
        people[role] = django_user_model.objects.create_user(username=username, password="pw")
        staff.staff_add(event=running_event, username=username, role=role, by=organiser)
    for _ in "ab":
        RegistrationFactory(event=running_event, player=PlayerFactory(display_name="Ash"))
    return people


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_judge_gives_and_rescinds_penalties_and_the_page_fits_and_passes_axe(new_page, crew, running_event, viewport):
    event = running_event
    page = new_page(viewport=viewport, user=crew["judge"])
    response = page.goto(f"/dashboard/events/{event.pk}/penalties/")
    assert response.status == 200
    assert_fits(page)
    axe_check(page)

    form = page.locator("form[aria-labelledby=give-heading]")
    form.get_by_label("Player", exact=True).select_option(label="Joey")
    form.get_by_label("Penalty", exact=True).select_option(label="Warning")
    form.get_by_role("button", name="Give the penalty").click()  # no infraction: said at its field
    infraction = page.get_by_label("Infraction")
    expect(infraction.locator("xpath=..")).to_contain_text("Say what the infraction was.")
    assert_fits(page)
    axe_check(page)
    infraction.fill("Drawing extra cards")
    page.get_by_label("Note").fill("Drew two off a one-card effect.")
    page.get_by_role("button", name="Give the penalty").click()
    expect(page.get_by_text("Warning for Joey: Drawing extra cards.")).to_be_visible()

    ash = Registration.objects.filter(event=event, player__display_name="Ash").order_by("id").first()
    page.get_by_label("Player", exact=True).select_option(label=f"Ash (#{ash.player_id})")
    page.get_by_label("Penalty", exact=True).select_option(label="Disqualification")
    page.get_by_label("Infraction").fill("Marked cards")
    page.get_by_role("button", name="Give the penalty").click()
    expect(page.get_by_text("They are dropped from the event.")).to_be_visible()
    ash.refresh_from_db()
    assert ash.dropped

    warning = Penalty.objects.get(event=event, penalty="warning")
    row = page.locator(f"#penalty-{warning.pk}")
    row.locator("summary").click()
    row.get_by_role("button", name="Rescind the warning of Joey").click()
    row = page.locator(f"#penalty-{warning.pk}")
    expect(row.get_by_label("Reason")).to_have_attribute("aria-invalid", "true")
    expect(row).to_contain_text("Say why the penalty is rescinded.")
    assert_fits(page)
    axe_check(page)
    row.get_by_label("Reason").fill("It was the opponent's card effect.")
    row.get_by_role("button", name="Rescind the warning of Joey").click()
    expect(page.locator(f"#penalty-{warning.pk}")).to_contain_text("Rescinded")
    assert Penalty.objects.get(pk=warning.pk).rescinded
    assert_fits(page)
    axe_check(page)

    caster = new_page(viewport=viewport, user=crew["caster"])
    caster.goto(f"/dashboard/events/{event.pk}/penalties/")
    expect(caster.get_by_text("Marked cards")).to_be_visible()
    expect(caster.get_by_role("button", name="Give the penalty")).to_have_count(0)
    assert_fits(caster)
    axe_check(caster)
