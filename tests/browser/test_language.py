"""The language switcher in Chromium, at phone width: a visitor picks Español in the footer and the page's chrome
(its language, the top bar, the footer) comes back in Spanish, and stays so on the next page (the cookie)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.support.browser import assert_fits, axe_check

pytestmark = pytest.mark.browser


def test_a_visitor_switches_to_spanish_in_the_footer(new_page):
    page = new_page(viewport=PHONE)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_label("Language").select_option(label="Español")
    page.get_by_role("button", name="Change language").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    site = page.get_by_role("navigation", name="Sitio")
    expect(site.get_by_role("link", name="Eventos")).to_be_visible()
    expect(site.get_by_role("link", name="Iniciar sesión")).to_be_visible()
    expect(page.get_by_label("Idioma")).to_have_value("es")
    axe_check(page)
    assert_fits(page)
    site.get_by_role("link", name="Iniciar sesión").click()
    expect(page.get_by_role("heading", name="Iniciar sesión")).to_be_visible()
    expect(page.get_by_role("button", name="Cambiar idioma")).to_be_visible()
    axe_check(page)
    assert_fits(page)
