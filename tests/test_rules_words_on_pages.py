"""The formats' own words on the pages, in the reader's language (issue #29, :mod:`rules.speech`).

What the kernel writes for people to read (an option's label, help and value names, Podium's choice in an
interpretation, the end-of-round procedure, the overlays' counters, the judge console's vocabulary: an entry's
description, a field's label and help, a one-tap button) is a phrase: English for every caller, said in the reader's
language by the pages.  The rulebook's quotes stay as written (they quote the English rulebook), and so do the
option's codes and the format's name.

The tests stand in a dict for the catalogues (:func:`rules.speech.speak_with`), so they do not depend on what the
translators have done yet; it answers only when the request speaks Spanish, so they also prove that the page is said
in the language of the request.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.forms import _GROUP_HELP, form_help
from games.models import Game
from rules import FORMATS
from rules.deck_masters import FORMAT as DECK_MASTERS
from rules.engine import COMMON_VOCABULARY, Kind
from rules.master_trainer import FORMAT as MASTER_TRAINER
from rules.master_trainer.engine import GAME_END, LAST_STANDING, QUICK_ENTRIES, VOCABULARY
from rules.speech import Phrase
from tests.factories import EventFactory, PlayerFactory, RegistrationFactory
from tests.support.speech import speaking
from tournaments import services
from tournaments.forms import FormatOptionsForm

assert DECK_MASTERS.time_called is not None
INTERPRETATION = MASTER_TRAINER.interpretations[0]
PLAY_CREATURE = VOCABULARY["play_creature"]

#: The kernel's English -> what the Spanish catalogue would say.
SPANISH = {
    GAME_END.label: "Fin de la partida con 3 o 4 jugadores",
    GAME_END.value_names[LAST_STANDING]: "ese jugador queda fuera y los demás siguen hasta el último en pie",
    INTERPRETATION.choice: "Por defecto, la primera de estas condiciones termina la partida.",
    DECK_MASTERS.time_called.procedure: "Tiempo: quien tiene el turno lo termina y se juegan 3 turnos más.",
    COMMON_VOCABULARY["concede"].description: "El jugador concede: queda fuera, por debajo de los que siguen.",
    VOCABULARY["start_turn"].fields["new_active"].label: "nuevo Activo",
    PLAY_CREATURE.fields["by_effect"].description: "cuando un efecto de carta lo pone en juego",
    QUICK_ENTRIES[0].label: "Empezar turno",
}


@pytest.fixture
def spanish():
    """The rules' phrases said from :data:`SPANISH` when the request speaks Spanish; Django's again after."""
    with speaking(SPANISH, language="es"):
        yield


def _spanish(client, url: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200 and response["Content-Language"] == "es"
    return response.content.decode()


# --- the kernel: what people read is a phrase ----------------------------------------------------------------------


def test_every_word_of_the_formats_that_a_page_shows_is_a_phrase():
    """Options, interpretations, counters, the procedure, and the console's vocabulary and one-tap buttons (a
    field's description only where the console shows it as help: a list of a dropdown's choices, a kind's own help
    or "the player" is not shown, and stays plain text for the API and the docs)."""
    unphrased = []
    for fmt in FORMATS.values():
        texts = [(o.name, t) for o in fmt.options for t in (o.label, *o.value_names.values())]
        texts += [(o.name, t) for o in fmt.options for t in (o.help, o.unit) if t]
        texts += [(i.rule, i.choice) for i in fmt.interpretations]
        texts += [(c.name, c.label) for c in fmt.counters]
        texts += [("time_called", fmt.time_called.procedure)] if fmt.time_called else []
        texts += [(q.key, q.label) for q in fmt.quick_entries]
        for spec in fmt.vocabulary.values():
            texts.append((spec.type, spec.description))
            fields = [*spec.fields.items(), *((n, f) for _, g in spec.fields.items() for n, f in g.item)]
            texts += [(f"{spec.type}.{name}", f.label) for name, f in fields if f.label]
            texts += [
                (f"{spec.type}.{name}", f.description)
                for name, f in fields
                if f.kind not in _GROUP_HELP and not (f.kind == Kind.ENTRIES and f.repeats) and form_help(f)
            ]
        unphrased += [f"{fmt.slug}: {where}: {text!r}" for where, text in texts if not isinstance(text, Phrase)]
    assert not unphrased, "Words of the formats that are no phrase (rules.speech):\n" + "\n".join(unphrased)


# --- the pages -----------------------------------------------------------------------------------------------------


def test_the_format_page_says_the_options_and_podiums_choices_in_the_readers_language(client, spanish):
    page = _spanish(client, "/formats/master-trainer/")
    assert SPANISH[GAME_END.label] in page and GAME_END.label not in page
    assert SPANISH[GAME_END.value_names[LAST_STANDING]] in page
    assert SPANISH[INTERPRETATION.choice] in page and INTERPRETATION.choice not in page
    # The rulebook's words and the option's code stay as written.
    assert GAME_END.quote in page and "<code>game_end</code>" in page
    english = client.get("/formats/master-trainer/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert GAME_END.label in english and INTERPRETATION.choice in english


def test_the_event_pages_and_the_settings_form_say_the_events_house_rule(client, organiser, spanish):
    event = EventFactory(format="master-trainer", organiser=organiser, options={"game_end": LAST_STANDING})
    page = _spanish(client, f"/events/{event.pk}/")
    said = f"{SPANISH[GAME_END.label]}: {SPANISH[GAME_END.value_names[LAST_STANDING]]}"
    assert said in page  # the house rules' note of every page of the event
    assert f"<dt>{SPANISH[GAME_END.label]}</dt>" in page  # "Rules at this event"
    with translation.override("es"):
        field = FormatOptionsForm(options=MASTER_TRAINER.options, stored={}).fields["game_end"]
    assert field.label == SPANISH[GAME_END.label]
    assert any(label.startswith(SPANISH[GAME_END.value_names[LAST_STANDING]]) for _, label in field.choices)


def test_the_venue_display_says_the_end_of_round_procedure_in_the_readers_language(client, organiser, spanish):
    event = services.event_create(
        organiser=organiser, name="Duel Night", format="deck-masters", planned_rounds=3, date=datetime.date(2026, 12, 4)
    )
    for name in ("Yugi", "Joey", "Kaiba", "Mai"):
        RegistrationFactory(event=event, player=PlayerFactory(display_name=name))
    services.round_start(event=event, by=organiser, seed=3)
    page = _spanish(client, f"/live/events/{event.pk}/display/")
    procedure = re.search(r'<p class="clock-procedure" hidden>(.*?)</p>', page, re.S)
    assert procedure is not None and procedure.group(1) == SPANISH[DECK_MASTERS.time_called.procedure]


def test_the_judge_console_says_the_vocabulary_and_the_games_rules_in_the_readers_language(
    client, organiser, site_staff, spanish
):
    event = EventFactory(format="master-trainer", organiser=organiser, options={"game_end": LAST_STANDING})
    for name in ("Ryo Bakura", "Yugi Muto", "Mai Kujaku", "Joey Wheeler"):
        RegistrationFactory(event=event, player__display_name=name)
    services.round_start(event=event, by=organiser, seed=1)
    client.force_login(site_staff)
    client.post(reverse("games:console-create", args=[event.pk, 1, 1]))
    game = Game.objects.get(pod__round__event=event, pod__table_number=1)
    page = _spanish(client, reverse("games:console", args=[game.pk]))
    assert SPANISH[COMMON_VOCABULARY["concede"].description] in page  # an entry's description
    assert SPANISH[VOCABULARY["start_turn"].fields["new_active"].label] in page  # a field's label
    assert "Cuando un efecto de carta lo pone en juego" in page  # a field's help, as a sentence
    assert f"</span>{SPANISH[QUICK_ENTRIES[0].label]}</button>" in page  # a one-tap button
    assert f"{SPANISH[GAME_END.label]}: {SPANISH[GAME_END.value_names[LAST_STANDING]]}" in page  # the game's rules
