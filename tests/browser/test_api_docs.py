"""The API docs page (/api/docs/): drf-spectacular's Swagger UI in a page of Podium's own, checked with axe-core.

Swagger UI's markup and stylesheet come from drf-spectacular-sidecar and are never copied here, so Podium fixes what
it serves around them: the page's language, title and banner (templates/api/docs.html), Swagger UI's colours where its
text falls short of AA contrast (static/css/api-docs.css), and Swagger UI's settings (no deep links: they nest a link
in each operation's button; no syntax colours: some fall short of AA on their dark background).

The page as it opens passes axe with no rule left out.  An operation opened and tried out passes with one rule left
out, whose markup Swagger UI alone writes: ``select-name`` (the drop-down of an enum parameter, such as the events'
``format``, has no label; Swagger UI shows the parameter's name beside it but does not tie the two).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP
from tests.support.browser import FAILING_IMPACTS, axe_check, axe_violations, describe

pytestmark = pytest.mark.browser

#: Rules whose violations are in markup only Swagger UI writes (see the module docstring), left out once an
#: operation is opened.
SWAGGER_UI_MARKUP = {"select-name"}
#: Swagger UI's buttons fade their colours in: axe reads the page once every transition has ended.
SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def test_the_api_docs_pass_axe_as_they_open_and_with_an_operation_tried(new_page):
    page = new_page(viewport=DESKTOP)
    page.goto("/api/docs/")
    expect(page).to_have_title("API docs · Podium")
    assert page.locator("html").get_attribute("lang") == "en"
    operation = page.locator("#operations-events-events_list")
    operation.wait_for()
    expect(page.get_by_role("banner").get_by_role("link", name="Podium")).to_be_visible()
    page.wait_for_function(SETTLED)
    axe_check(page)

    operation.get_by_role("button", name="GET /api/v1/events/").first.click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_role("button", name="Execute").click()
    expect(operation.locator(".live-responses-table")).to_contain_text("200")
    page.wait_for_function(SETTLED)
    failing = [v for v in axe_violations(page) if v["impact"] in FAILING_IMPACTS and v["id"] not in SWAGGER_UI_MARKUP]
    assert not failing, describe(failing)
