"""Real, legal decks get ``"legal": true`` from POST /api/v1/deck-checks/, for every format.

The Pokémon decks are the real-card reference decks of the deck-rule tests,
written out as a PTCGL export from the imported catalogue; Deck Masters uses a
real .ydk from the shared data; Mintayn the organiser CSV of the test suite.
"""

from __future__ import annotations

import pytest

from decks.models import PokemonCard
from decks.samples import ptcgl_export
from tests.support.data import data_dir
from tests.support.decks import format3_trinity as trinity
from tests.support.decks import master_trainer, mt_silver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("card_catalogue")]

URL = "/api/v1/deck-checks/"


def ptcgl(entries: dict[str, int], roles: dict[str, str]) -> tuple[str, dict[str, str]]:
    cards = {c.key: c for c in PokemonCard.objects.filter(key__in=[*entries, *roles.values()])}
    return ptcgl_export(entries, roles, cards)


@pytest.mark.parametrize(
    ("fmt", "module"),
    [("master-trainer", master_trainer), ("format3-trinity", trinity), ("mt-silver", mt_silver)],
)
def test_a_real_legal_pokemon_deck_is_legal_through_the_endpoint(anon_api, fmt, module):
    decklist, roles = ptcgl(module.REAL_ENTRIES, module.REAL_ROLES)
    result = anon_api.post(URL, {"format": fmt, "decklist": decklist, "roles": roles}, format="json").json()
    assert result["violations"] == [] and result["legal"] is True
    assert result["card_count"] == sum(module.REAL_ENTRIES.values())


def test_the_same_deck_breaking_a_rule_names_the_code(anon_api):
    entries = {**trinity.REAL_ENTRIES, "sve-2": 16}  # 61 cards
    decklist, roles = ptcgl(entries, trinity.REAL_ROLES)
    result = anon_api.post(
        URL, {"format": "format3-trinity", "decklist": decklist, "roles": roles}, format="json"
    ).json()
    assert [v["code"] for v in result["violations"]] == ["deck_size"]


def test_a_real_ydk_deck_is_legal_for_deck_masters(anon_api):
    path = data_dir("ygo", "decks", "ProjectIgnis-Distribution", "TacticalTry_Decisive_Strike_Cyber_Dragon.ydk")
    ydk = path.read_text()
    first_main = next(line for line in ydk.split("#main", 1)[1].splitlines() if line.strip().isdigit())
    result = anon_api.post(
        URL, {"format": "deck-masters", "decklist": ydk, "roles": {"deck_master": first_main.strip()}}, format="json"
    ).json()
    assert result["legal"] is True, result["violations"]


def test_a_legal_mintayn_deck_is_legal(anon_api):
    from tests.support.decks import CARDS

    monsters = [c.name for c in CARDS.values() if c.card_type == "monster" and not c.stage.startswith("prime")]
    others = [c.name for c in CARDS.values() if c.card_type != "monster"]
    lines, total = [], 0
    for name in monsters + others:
        if total >= 60:
            break
        n = min(3, 60 - total)
        lines.append(f"{n} {name}")
        total += n
    result = anon_api.post(URL, {"format": "mintayn-master", "decklist": "\n".join(lines)}, format="json").json()
    assert total == 60 and result["legal"] is True, result["violations"]
