"""Archetype names, the meta report's figures and the SVG charts (no database)."""

from __future__ import annotations

from xml.etree import ElementTree

from leagues.charts import Bar, Point, bar_chart, line_chart
from leagues.meta import HIDDEN, Entry, archetype_name, card_name, meta_report


def test_a_deck_is_named_by_its_formats_identity_cards():
    assert archetype_name({"master": "Charmander MEW 4", "apex": "Charizard ex OBF 125"}, "",
                          format_roles=("master", "apex", "paragon")) == "Charmander"  # fmt: skip
    assert archetype_name({"signature": "Charizard ex OBF 125"}, "", format_roles=("signature",)) == "Charizard ex"
    assert archetype_name({"trainer": "Red PR-SV 12", "starting_pokemon": "Pikachu SVI 63"}, "",
                          format_roles=("trainer", "starting_pokemon", "starting_energy")) == "Red / Pikachu"  # fmt: skip
    assert archetype_name({"deck_master": "89631139"}, "", format_roles=("deck_master",),
                          names={"89631139": "Blue-Eyes White Dragon"}) == "Blue-Eyes White Dragon"  # fmt: skip


def test_without_an_identity_card_the_most_played_key_card_names_the_deck():
    decklist = "4 Ember Sprite\n4 Tide Caller\n3 Stone Warden\n20 Fire Energy\n"
    assert archetype_name({}, decklist, format_roles=()) == "Ember Sprite"
    assert archetype_name({}, "Pokémon: 2\n2 Pikachu SVI 63\n3 Iono PAL 185\n", format_roles=()) == "Iono"
    assert archetype_name({}, "", format_roles=()) is None
    assert card_name("Charizard ex   OBF 125") == "Charizard ex"


def test_the_report_counts_shares_win_rates_and_conversion_and_never_names_hidden_decks():
    entries = [
        Entry(1, 1, "Charizard ex", wins=3, losses=1, made_cut=True, event_had_cut=True),
        Entry(1, 2, "Charizard ex", wins=1, draws=1, losses=2, event_had_cut=True),
        Entry(1, 3, "Gardevoir", wins=2, losses=2, made_cut=True, event_had_cut=True),
        Entry(2, 4, None, wins=4),
    ]
    report = meta_report(entries)
    assert report.players == 4 and report.events == 2
    charizard, gardevoir, hidden = report.rows
    assert (charizard.archetype, charizard.players, charizard.share) == ("Charizard ex", 2, 0.5)
    assert charizard.win_rate == round(4.5 / 8, 4) and charizard.conversion == 0.5
    assert gardevoir.win_rate == 0.5 and gardevoir.conversion == 1.0
    assert hidden.archetype == HIDDEN and hidden.hidden and hidden.players == 1
    assert hidden.win_rate is None and hidden.wins == 0 and hidden.conversion is None


def test_charts_are_svg_with_a_title_a_description_and_escaped_text():
    svg = bar_chart("m", "Meta <share>", "Two decks", [Bar("A & B", 2, "2 players", 0.5, "50 %"), Bar("C", 1, "1")],
                    second_label="match win rate")  # fmt: skip
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img" and root.get("aria-labelledby") == "m-title m-desc"
    assert root.find(f"{ns}title").text == "Meta <share>" and root.find(f"{ns}desc").text == "Two decks"
    assert "A &amp; B" in svg
    line = ElementTree.fromstring(
        line_chart("r", "Rating", "From 0 to 12", [Point("Night 1", 0), Point("Night 2", 12)])
    )
    assert line.find(f"{ns}path") is not None
    assert "No rated games" in line_chart("e", "Rating", "None yet", [])
