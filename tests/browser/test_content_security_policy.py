"""Every page works under the Content-Security-Policy: no inline script, style or handler, no eval.

The browser fixtures fail any test whose pages the policy blocks something on (``tests/browser/conftest.py``
listens for violations), so every browser test checks its pages; this module adds the pages no other test
opens (the API docs, the admin, signing in and up) and proves the listener sees a violation at all.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_every_page_answers_with_the_policy_and_only_the_api_docs_allow_inline_styles(page, running_event):
    for path in ("/", f"/events/{running_event.pk}/", "/accounts/login/", "/api/docs/", "/api/v1/formats/"):
        response = page.goto(path)
        policy = response.headers["content-security-policy"]
        assert "script-src 'self';" in policy, path
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert ("'unsafe-inline'" in policy) == (path == "/api/docs/"), path


def test_the_api_docs_load_the_schema_and_show_the_operations(page):
    page.goto("/api/docs/")
    page.get_by_text("/api/v1/events/", exact=True).first.wait_for()


def test_signing_in_and_up_and_the_admin_work_under_the_policy(new_page, django_user_model):
    django_user_model.objects.create_superuser(username="site-staff", password="pw")
    page = new_page()
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("newcomer")
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("site-staff")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/me/")
    page.goto("/admin/")
    page.get_by_role("link", name="Game events").click()
    page.wait_for_url("**/admin/games/gameevent/")
    page.goto("/admin/auth/user/add/")  # a form the admin still edits (events are read only there)
    page.get_by_label("Username:").wait_for()


def test_a_blocked_inline_script_is_caught(new_page):
    page = new_page()
    page.goto("/accounts/login/")
    with page.expect_console_message(lambda message: "CSP violation" in message.text):
        page.evaluate(
            "() => { const s = document.createElement('script'); s.textContent = '1'; document.body.append(s); }"
        )
    seen = [error for error in new_page.errors if "script-src" in error]
    assert seen, new_page.errors
    new_page.errors.clear()  # seen on purpose: the fixture would fail the test on it
