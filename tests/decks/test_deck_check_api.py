"""POST /api/v1/deck-checks/: a stateless check of a decklist against a format, on the real card pool."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.support.data import data_dir
from tests.support.throttles import fresh_address, throttle_rates

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("card_catalogue")]

URL = "/api/v1/deck-checks/"


def check(client, **body):
    response = client.post(URL, body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def codes(result) -> set[str]:
    return {v["code"] for v in result["violations"]}


def test_a_real_ydk_deck_gets_a_verdict_naming_each_problem(anon_api):
    ydk = Path(data_dir("ygo", "decks")).rglob("*.ydk")
    text = next(iter(sorted(ydk))).read_text(encoding="utf-8", errors="replace")
    result = check(anon_api, format="deck-masters", decklist=text, roles={})
    assert result["legal"] is False
    assert result["card_count"] > 0
    assert "role_missing" in codes(result)
    for violation in result["violations"]:
        assert set(violation) == {"code", "rule", "message", "cards"}


def test_an_unknown_card_line_reports_its_line_number_and_a_suggestion(anon_api):
    decklist = "Pokémon: 1\n1 Charizrd ex OBF 999\n"
    result = check(anon_api, format="format3-trinity", decklist=decklist, roles={"signature": "Charizard ex OBF 125"})
    unknown = next(v for v in result["violations"] if v["code"] == "unknown_card")
    assert unknown["message"].startswith("Line 2:")
    assert "Did you mean" in unknown["message"]


def test_a_mintayn_list_is_checked_against_the_imported_csv(anon_api):
    result = check(anon_api, format="mintayn-master", decklist="3 Ember Whelp\n2 Pyre Sovereign\n")
    assert result["card_count"] == 5
    assert {"deck_size", "prime_singleton"} <= codes(result)


def test_a_50_kb_list_of_unknown_cards_lists_20_of_a_kind_and_counts_them_all(anon_api):
    lines = [f"1 Nobody Known {n}" for n in range(2_500)]  # about 50 KB
    decklist = "\n".join(lines)
    assert 45_000 < len(decklist) <= 50_000
    response = anon_api.post(URL, {"format": "mintayn-master", "decklist": decklist}, format="json")
    result = response.json()
    assert result["violation_count"] == sum(result["violations_by_code"].values())
    assert result["violations_by_code"]["unknown_card"] == 2_500
    assert [v["code"] for v in result["violations"]].count("unknown_card") == 20
    assert len(response.content) < 20_000  # was 570-720 KB


def test_a_role_that_matches_no_card_is_an_unknown_card(anon_api):
    result = check(anon_api, format="mt-silver", decklist="", roles={"trainer": "Professor Nobody XYZ 1"})
    assert "unknown_card" in codes(result)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"decklist": "1 x"}, "format"),
        ({"format": "standard", "decklist": "1 x"}, "format"),
        ({"format": "mt-silver"}, "decklist"),
        ({"format": "mt-silver", "decklist": "", "roles": {"captain": "x"}}, "roles"),
        ({"format": "mt-silver", "decklist": "", "roles": ["x"]}, "roles"),
        ({"format": "mintayn-master", "decklist": "", "options": {"deck_size": 55}}, "options"),
        ({"format": "deck-masters", "decklist": "", "options": {"banlist": "No Such List"}}, "options"),
    ],
)
def test_bad_requests_get_a_400_with_field_errors(anon_api, body, field):
    response = anon_api.post(URL, body, format="json")
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


def test_a_body_that_is_not_json_gets_a_400(anon_api):
    response = anon_api.post(URL, "{oops", content_type="application/json")
    assert response.status_code == 400
    assert "body" in response.json()["error"]["fields"]


def test_anonymous_callers_are_rate_limited():
    client = APIClient(REMOTE_ADDR=fresh_address())
    body = {"format": "mintayn-master", "decklist": "1 Ember Whelp"}
    with throttle_rates(deck_checks_anon="2/min"):
        assert [client.post(URL, body, format="json").status_code for _ in range(3)] == [200, 200, 429]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fmt=st.sampled_from(["master-trainer", "format3-trinity", "mt-silver", "deck-masters", "mintayn-master"]),
    decklist=st.text(max_size=300),
    roles=st.dictionaries(
        st.sampled_from(["master", "apex", "paragon", "signature", "trainer", "deck_master"]),
        st.text(max_size=40),
        max_size=3,
    ),
)
def test_no_input_gives_a_500(anon_api, fmt, decklist, roles):
    from django.core.cache import cache

    cache.clear()
    response = anon_api.post(URL, {"format": fmt, "decklist": decklist, "roles": roles}, format="json")
    assert response.status_code in (200, 400), response.content
