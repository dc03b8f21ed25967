"""``manage.py venue_setup``: the organiser account of a venue's server, made once, and the address with its QR code."""

from __future__ import annotations

import io
import re

import pytest
import segno
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournaments import policy

pytestmark = pytest.mark.django_db


def venue_setup(*args: str) -> str:
    out = io.StringIO()
    call_command("venue_setup", *args, stdout=out)
    return out.getvalue()


def test_the_first_start_makes_the_organiser_and_prints_its_password_once():
    first = venue_setup("--url", "http://192.168.1.20:8000/")
    password = re.search(r"username organiser, password (\S+)", first).group(1)
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.check_password(password)
    assert policy.manages_every_event(organiser) and policy.can_create_event(organiser)

    second = venue_setup("--url", "http://192.168.1.20:8000/")
    assert password not in second and "was shown at the first start" in second
    organiser.refresh_from_db()
    assert organiser.check_password(password)  # a later start changes nothing


def test_the_organiser_may_have_a_username_of_its_own():
    assert "username alice, password" in venue_setup("--username", "alice")
    assert not get_user_model().objects.filter(username="organiser").exists()


def test_it_prints_the_addresses_and_a_qr_code_of_the_first_on_the_network():
    printed = venue_setup("--url", "http://127.0.0.1:8000/", "--url", "http://192.168.1.20:8000/")
    assert "  http://127.0.0.1:8000/\n  http://192.168.1.20:8000/\n" in printed
    drawn = io.StringIO()
    segno.make_qr("http://192.168.1.20:8000/", error="m").terminal(out=drawn, compact=True, border=2)
    assert "scan this code for http://192.168.1.20:8000/:\n" + drawn.getvalue() in printed


@pytest.mark.parametrize("username", ["", "   ", "tom smith", "x" * 151])
def test_a_username_django_would_refuse_stops_the_start_with_a_sentence(username):
    with pytest.raises(CommandError, match="username"):
        venue_setup("--username", username)
    assert not get_user_model().objects.exists()


def test_it_says_where_to_sign_in():
    assert "Sign in at http://192.168.1.20:8000/accounts/login/" in venue_setup("--url", "http://192.168.1.20:8000/")
