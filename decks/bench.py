"""Deck benchmarks: validation speed, the Celery path on 2 workers, and the full Pokémon import.

Needs the card data (``PODIUM_CARD_DATA_DIR``).  The Celery row needs
``REDIS_URL`` and starts its own 2-process worker on a private queue.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from config.celery import app as celery_app
from decks import catalogue, services
from decks.checking import deck_check, deck_rules
from decks.models import DeckVersion, PokemonCard
from games.formats.deckrules import Deck
from tournaments.models import Event, Player, Registration


def _mt_decklist() -> tuple[str, dict[str, str]]:
    """A 75-card Master Trainer list of real cards: 1 Master, 1 Apex, singleton Pokémon and Trainers, basic energy."""
    master = (
        PokemonCard.objects.filter(key="sv3-125").first() or PokemonCard.objects.filter(supertype="Pokémon").first()
    )
    pokemon = list(
        PokemonCard.objects.filter(supertype="Pokémon", rule_box="").exclude(national_dex=[]).order_by("key")[:400]
    )
    seen, lines = set(), []
    for card in pokemon:
        dex = tuple(card.national_dex)
        if dex in seen or len(lines) >= 30:
            continue
        seen.add(dex)
        lines.append(f"1 {card.name} {card.set_code or card.card_set.set_id} {card.number}")
    trainers = list(PokemonCard.objects.filter(supertype="Trainer").order_by("-key")[:300])
    names = set()
    for card in trainers:
        if card.name in names or len(lines) >= 60:
            continue
        names.add(card.name)
        lines.append(f"1 {card.name} {card.set_code or card.card_set.set_id} {card.number}")
    lines.append(f"{74 - len(lines)} Fire Energy")
    lines.append(f"1 {master.name} {master.set_code} {master.number}")
    return "\n".join(lines), {"master": f"{master.name} {master.set_code} {master.number}"}


def _timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def _import(quick: bool, out) -> float | None:
    root = Path(settings.PODIUM_CARD_DATA_DIR) / "pokemon-tcg-data"
    if not root.exists():
        raise RuntimeError(f"card data not found at {root}: set PODIUM_CARD_DATA_DIR")
    out.write("importing the full Pokémon data ...")
    t = time.perf_counter()
    services.cards_import_pokemon(root=root)
    return time.perf_counter() - t


def _celery_path(n: int, out) -> dict:
    if not settings.REDIS_URL:
        return {"skipped": "REDIS_URL is not set"}
    if connection.vendor == "sqlite":
        return {"skipped": "the Celery path needs a server database (DATABASE_URL=postgres://...)"}
    User = get_user_model()
    organiser, _ = User.objects.get_or_create(username="bench-organiser")
    event = Event.objects.create(
        name=f"bench {uuid.uuid4().hex[:6]}",
        format="master-trainer",
        planned_rounds=1,
        date=timezone.localdate(),
        organiser=organiser,
    )
    decklist, roles = _mt_decklist()
    players = Player.objects.bulk_create(Player(display_name=f"bench {i}") for i in range(n))
    regs = Registration.objects.bulk_create(Registration(event=event, player=p) for p in players)
    versions = DeckVersion.objects.bulk_create(
        DeckVersion(registration=r, number=1, decklist=decklist, roles=roles) for r in regs
    )
    queue = f"podium-bench-{uuid.uuid4().hex[:8]}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue, "-n", f"{queue}@localhost",
         "--concurrency", "2", "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings.base")},
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not celery_app.control.ping(destination=[f"{queue}@localhost"], timeout=1.0):
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError("the bench worker did not start")
        from decks.tasks import validate_deck_version

        out.write(f"validating {n} decks through Celery on 2 worker processes ...")
        started = time.perf_counter()
        for v in versions:
            validate_deck_version.apply_async(args=[v.pk], queue=queue)
        pending = DeckVersion.objects.filter(registration__event=event, status=DeckVersion.Status.PENDING)
        while pending.exists():
            if time.perf_counter() - started > 600:
                raise RuntimeError("decks still pending after 600 s")
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        legal = DeckVersion.objects.filter(registration__event=event, status=DeckVersion.Status.LEGAL).count()
        return {"seconds": round(elapsed, 2), "decks": n, "legal": legal}
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        event.delete()
        Player.objects.filter(pk__in=[p.pk for p in players]).delete()


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    import_seconds = _import(quick, out)
    catalogue.clear()
    decklist, roles = _mt_decklist()
    t = time.perf_counter()
    first = deck_check(format="master-trainer", decklist=decklist, roles=roles)
    first_ms = (time.perf_counter() - t) * 1000
    full = _timed(lambda: deck_check(format="master-trainer", decklist=decklist, roles=roles), 20 if quick else 200)
    # The rules alone, on the resolved deck (what "validated once the catalogue is loaded" measures).
    index = catalogue.pokemon_index()
    from decks.parsers.pokemon import parse_pokemon_decklist
    from decks.resolve import resolve_pokemon_decklist

    entries, problems = resolve_pokemon_decklist(parse_pokemon_decklist(decklist), index)
    deck = Deck(
        entries=tuple(entries),
        roles={k: index.resolve_reference(v) for k, v in roles.items()},
        problems=tuple(problems),
    )
    rules = deck_rules("master-trainer")
    rules_only = _timed(lambda: rules.check(deck, None), 50 if quick else 1000)
    celery = _celery_path(100 if quick else 1000, out)
    figures = {
        "pokemon_import_s": round(import_seconds, 2),
        "mt75_card_count": first.card_count,
        "mt75_first_check_ms": round(first_ms, 1),
        "mt75_check_median_ms": round(statistics.median(full), 3),
        "mt75_rules_median_ms": round(statistics.median(rules_only), 3),
        "celery_path": celery,
    }
    rows = [
        ("full Pokémon import (20,202 cards)", f"{import_seconds:.1f} s (target ≤ 60 s)"),
        ("75-card Master Trainer deck: cards counted", str(first.card_count)),
        ("first check (builds the card pool)", f"{first_ms:.0f} ms"),
        ("parse + resolve + rules, median", f"{statistics.median(full):.2f} ms (target ≤ 5 ms)"),
        ("rules only, median", f"{statistics.median(rules_only):.3f} ms"),
        (
            "decks through Celery on 2 workers",
            f"{celery['decks']} in {celery['seconds']} s (target 1,000 in ≤ 20 s)"
            if "seconds" in celery
            else celery["skipped"],
        ),
    ]
    return rows, figures
