"""Accounts: sign-up with the player's profile, sign-in to /me/, passwords by email, claims, the top bar."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.accounts.conftest import signed_in
from tests.factories import PlayerFactory, RegistrationFactory
from tournaments import services
from tournaments.models import EventStaff, Player
from tournaments.services import registrations

pytestmark = pytest.mark.django_db

SIGN_UP = {
    "username": "misty",
    "display_name": "Misty of Cerulean",
    "email": "misty@example.org",
    "password1": "Starmie-and-Psyduck-42",
    "password2": "Starmie-and-Psyduck-42",
}


# --- sign-up ----------------------------------------------------------------------------------------


def test_sign_up_creates_the_account_and_its_player_profile_and_signs_in(client):
    response = client.post(reverse("signup"), SIGN_UP)
    assert response.status_code == 302 and response["Location"] == reverse("accounts:me")
    user = get_user_model().objects.get(username="misty")
    assert user.email == "misty@example.org"
    assert Player.objects.get(user=user).display_name == "Misty of Cerulean"
    page = client.get(reverse("accounts:me"))
    assert page.status_code == 200 and "Misty of Cerulean" in page.content.decode()


def test_sign_up_names_the_profile_after_the_username_when_no_name_is_given(client):
    client.post(reverse("signup"), {**SIGN_UP, "display_name": "", "email": ""})
    assert Player.objects.get(user__username="misty").display_name == "misty"


def test_sign_up_goes_on_to_a_page_of_this_site_but_never_elsewhere(client):
    ours = client.post(reverse("signup"), {**SIGN_UP, "next": "/claim/ABC/"})
    assert ours["Location"] == "/claim/ABC/"
    client.logout()
    theirs = client.post(reverse("signup"), {**SIGN_UP, "username": "brock", "email": "", "next": "https://evil.test/"})
    assert theirs["Location"] == reverse("accounts:me")


def test_a_bad_sign_up_shows_its_errors_with_422_and_creates_nothing(client, django_user_model):
    django_user_model.objects.create_user(username="taken", email="misty@example.org")
    response = client.post(reverse("signup"), {**SIGN_UP, "password2": "something-else"})
    body = response.content.decode()
    assert response.status_code == 422
    assert "An account already uses this address" in body
    assert "password fields didn" in body.replace("’", "'")
    assert not django_user_model.objects.filter(username="misty").exists()
    assert not Player.objects.filter(user__username="misty").exists()


def test_every_account_form_carries_a_csrf_token(client, users):
    pages = [reverse("signup"), reverse("login"), reverse("password_reset")]
    for url in pages:
        assert 'name="csrfmiddlewaretoken"' in client.get(url).content.decode(), url
    signed_in(client, users("ash"))
    for url in (reverse("password_change"), reverse("accounts:claim")):
        assert 'name="csrfmiddlewaretoken"' in client.get(url).content.decode(), url


def test_a_post_without_a_csrf_token_is_refused(users):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(users("ash"))
    assert strict.post(reverse("accounts:claim"), {"code": "X"}).status_code == 403
    assert Client(enforce_csrf_checks=True).post(reverse("signup"), SIGN_UP).status_code == 403


# --- sign-in, sign-out, passwords ---------------------------------------------------------------------


def test_after_signing_in_a_player_lands_on_their_own_page(client, users):
    users("ash")
    response = client.post(reverse("login"), {"username": "ash", "password": "pw"})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:me")


def test_signing_out_is_a_post_and_leads_home(client, users):
    signed_in(client, users("ash"))
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response["Location"] == reverse("public:home")
    assert client.get(reverse("accounts:me")).status_code == 302


def test_a_forgotten_password_is_reset_through_the_link_in_the_email(client, users):
    users("ash")
    response = client.post(reverse("password_reset"), {"email": "ash@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ash@example.org"] and "Reset your Podium password" in message.subject
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "Pikachu-Thunder-77", "new_password2": "Pikachu-Thunder-77"}
    )
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert client.login(username="ash", password="Pikachu-Thunder-77")


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert "Check your email" in response.content.decode()
    assert mail.outbox == []


def test_a_signed_in_player_changes_their_password(client, users):
    signed_in(client, users("ash"))
    response = client.post(
        reverse("password_change"),
        {"old_password": "pw", "new_password1": "Pikachu-Thunder-77", "new_password2": "Pikachu-Thunder-77"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    assert get_user_model().objects.get(username="ash").check_password("Pikachu-Thunder-77")


# --- claims ---------------------------------------------------------------------------------------------


@pytest.fixture
def walk_in(organiser):
    event = services.event_create(organiser=organiser, name="Walk-in night", format="deck-masters", planned_rounds=3,
                                  date="2026-12-01")  # fmt: skip
    registration = RegistrationFactory(event=event, player=PlayerFactory(display_name="Brock"))
    code = registrations.player_claim_code_create(registration=registration, by=organiser)
    return registration.player, code


def test_a_player_claims_a_walk_in_record_with_the_organisers_code(client, django_user_model, walk_in):
    record, code = walk_in
    user = django_user_model.objects.create_user(username="brock", password="pw")
    registrations.player_for_user(user)  # the empty profile sign-up made
    signed_in(client, user)
    response = client.post(reverse("accounts:claim"), {"code": code.lower()})
    assert response.status_code == 302 and response["Location"] == reverse("accounts:me")
    record.refresh_from_db()
    assert record.user == user and record.claim_code is None
    assert "Walk-in night" in client.get(reverse("accounts:me")).content.decode()


def test_a_wrong_claim_code_is_a_form_error_not_a_500(client, users):
    signed_in(client, users("ash"))
    response = client.post(reverse("accounts:claim"), {"code": "NOPE"})
    assert response.status_code == 422
    assert "No player record has this code" in response.content.decode()
    empty = client.post(reverse("accounts:claim"), {"code": ""})
    assert empty.status_code == 422 and "This field is required." in empty.content.decode()


def test_a_claim_refused_because_the_account_has_a_history_says_why(client, users, walk_in, organiser):
    _, code = walk_in
    ash = users("ash")
    other = services.event_create(organiser=organiser, name="Other", format="deck-masters", planned_rounds=3,
                                  date="2026-12-02")  # fmt: skip
    RegistrationFactory(event=other, player=ash.player)
    signed_in(client, ash)
    response = client.post(reverse("accounts:claim"), {"code": code})
    assert response.status_code == 422 and "already has a player history" in response.content.decode()


def test_the_claim_link_asks_to_sign_in_first_then_shows_whose_record_it_is(client, django_user_model, walk_in):
    record, code = walk_in
    link = reverse("accounts:claim-link", args=[code])
    anonymous = client.get(link).content.decode()
    assert "Brock" in anonymous
    assert f"{reverse('login')}?next={link}" in anonymous and f"{reverse('signup')}?next={link}" in anonymous
    assert client.post(link, {"code": code})["Location"] == f"{reverse('login')}?next={link}"
    assert client.get(reverse("accounts:claim"))["Location"].startswith(reverse("login"))
    user = django_user_model.objects.create_user(username="brock", password="pw")
    signed_in(client, user)
    page = client.get(link).content.decode()
    assert "Brock" in page and f"#{record.pk}" in page and code in page
    record.refresh_from_db()
    assert record.user is None  # opening the link changes nothing: the button does
    client.post(link, {"code": code})
    record.refresh_from_db()
    assert record.user == user


def test_sign_up_from_a_claim_link_comes_back_to_it(client, walk_in):
    _, code = walk_in
    link = reverse("accounts:claim-link", args=[code])
    response = client.post(reverse("signup"), {**SIGN_UP, "next": link})
    assert response["Location"] == link
    client.post(link, {"code": code})
    assert Player.objects.get(user__username="misty").display_name == "Brock"


# --- the top bar ---------------------------------------------------------------------------------------


def _nav(response) -> str:
    body = response.content.decode()
    return body[body.index('<nav aria-label="Site">') : body.index("</nav>")]


def test_the_top_bar_offers_sign_up_and_sign_in_to_visitors(client):
    nav = _nav(client.get(reverse("public:home")))
    assert "Sign up" in nav and "Sign in" in nav and "My events" not in nav and "Dashboard" not in nav


def test_a_plain_player_sees_my_events_but_no_dashboard(client, users):
    signed_in(client, users("ash"))
    nav = _nav(client.get(reverse("public:home")))
    assert "My events" in nav and "Dashboard" not in nav
    assert "Create an event" in client.get(reverse("accounts:me")).content.decode()


def test_organisers_and_event_staff_see_the_dashboard_in_the_top_bar(client, organiser, users):
    event = services.event_create(organiser=organiser, name="Cup", format="deck-masters", planned_rounds=3,
                                  date="2026-12-01")  # fmt: skip
    signed_in(client, organiser)
    assert "Dashboard" in _nav(client.get(reverse("public:home")))
    judge = users("judy")
    EventStaff.objects.create(event=event, user=judge, role=EventStaff.Role.JUDGE)
    signed_in(client, judge)
    assert "Dashboard" in _nav(client.get(reverse("accounts:me")))


def test_every_form_of_the_player_pages_posts_with_a_csrf_token():
    """A form template of ours that posts without ``{% csrf_token %}`` would be refused at once; none may."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    templates = [*(root / "accounts").glob("*.html"), *(root / "registration").glob("*.html"), root / "base.html"]
    templates.append(root / "public" / "check_in.html")
    forms = 0
    for path in templates:
        for form in re.findall(r"<form\b[^>]*>.*?</form>", path.read_text(), flags=re.S):
            if re.search(r'method="post"', form, flags=re.I):
                forms += 1
                assert "{% csrf_token %}" in form, f"{path.name}: {form[:120]}"
    assert forms >= 14  # sign-up, sign-in, sign-out, passwords, claims and the panel's buttons
