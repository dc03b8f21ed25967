"""The events page (/events/) in Chromium: its filters at desktop and phone widths, and the error state that names the
filter it could not use."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE
from tests.factories import EventFactory
from tests.support.browser import assert_fits, axe_check

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_events_page_filters_and_says_which_filter_it_could_not_use(new_page, organiser, viewport):
    EventFactory(name="Silver Saturday", format="mt-silver", status="running", organiser=organiser)
    EventFactory(name="Silver Sunday", format="mt-silver", status="finished", organiser=organiser)
    page = new_page(viewport=viewport)
    page.goto("/events/")
    page.get_by_label("Name contains").fill("silver")
    page.get_by_label("Running").check()
    page.get_by_role("button", name="Show events").click()
    page.get_by_role("status").filter(has_text="1 event").wait_for()
    assert page.get_by_role("link", name="Silver Saturday").is_visible()
    assert page.get_by_role("link", name="Silver Sunday").count() == 0
    axe_check(page)
    assert_fits(page)
    page.goto("/events/?date_from=04/12/2026")
    page.get_by_role("alert").filter(has_text="These filters could not be used").wait_for()
    axe_check(page)
    assert_fits(page)
