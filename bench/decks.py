"""Deck benchmarks: validation speed, the Celery path on 2 workers, and the full Pokémon import.

Needs the card data (``PODIUM_CARD_DATA_DIR``).  The Celery row needs
``REDIS_URL`` and starts its own 2-process worker on a private queue.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.utils import timezone

from bench import organiser as bench_organiser
from config.celery import app as celery_app
from decks import catalogue, samples, services
from decks.checking import deck_check, deck_rules
from decks.models import DeckVersion, PokemonCard
from rules.deckrules import Deck
from tournaments.models import Event, Player, Registration


def _mt_decklist(*, legal: bool = True) -> tuple[str, dict[str, str]]:
    """The reference legal 75-card Master Trainer deck of real cards, or the same with a second copy of one card.

    The illegal one breaks two rules (76 cards, a singleton twice), so a check
    must find and describe violations, as it does for a real player's mistake.
    """
    entries = dict(samples.MASTER_TRAINER_ENTRIES)
    if not legal:
        entries[samples.FILLERS[0]] = 2
    keys = [*entries, *samples.MASTER_TRAINER_ROLES.values()]
    cards = {c.key: c for c in PokemonCard.objects.filter(key__in=keys)}
    missing = sorted(set(keys) - set(cards))
    if missing:
        raise RuntimeError(f"the Pokémon card data lacks {', '.join(missing)}: import it with manage.py import_cards")
    return samples.ptcgl_export(entries, samples.MASTER_TRAINER_ROLES, cards)


def _timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def _import(quick: bool, out) -> tuple[float, int]:
    """Import the Pokémon data, timed: all of it, or with ``--quick`` only the sets of the reference deck's cards (the
    same importer on a copy of the data holding those sets: a smoke run proves the path, the full run times it)."""
    root = Path(settings.PODIUM_CARD_DATA_DIR) / "pokemon-tcg-data"
    if not root.exists():
        raise RuntimeError(f"card data not found at {root}: set PODIUM_CARD_DATA_DIR")
    with tempfile.TemporaryDirectory() as scratch:
        if quick:
            root = _reference_sets(root, Path(scratch))
        sets = len(list((root / "cards" / "en").glob("*.json")))
        out.write(f"importing the Pokémon data ({sets} sets) ...")
        t = time.perf_counter()
        report = services.cards_import_pokemon(root=root)
        return time.perf_counter() - t, report.cards


def _reference_sets(root: Path, scratch: Path) -> Path:
    """A copy of the data (``sets/en.json`` and the card files) holding only the sets the reference deck uses."""
    keys = [*samples.MASTER_TRAINER_ENTRIES, *samples.MASTER_TRAINER_ROLES.values(), *samples.FILLERS]
    (scratch / "sets").mkdir()
    (scratch / "cards" / "en").mkdir(parents=True)
    shutil.copy(root / "sets" / "en.json", scratch / "sets" / "en.json")
    for set_id in sorted({key.rsplit("-", 1)[0] for key in keys}):
        shutil.copy(root / "cards" / "en" / f"{set_id}.json", scratch / "cards" / "en" / f"{set_id}.json")
    return scratch


def _celery_path(n: int, out, *, legal: bool) -> dict:
    if not settings.REDIS_URL:
        return {"skipped": "REDIS_URL is not set"}
    if connection.vendor == "sqlite":
        return {"skipped": "the Celery path needs a server database (DATABASE_URL=postgres://...)"}
    organiser = bench_organiser()
    event = Event.objects.create(
        name=f"bench {uuid.uuid4().hex[:6]}",
        format="master-trainer",
        planned_rounds=1,
        date=timezone.localdate(),
        organiser=organiser,
    )
    decklist, roles = _mt_decklist(legal=legal)
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

        out.write(f"validating {n} {'legal' if legal else 'illegal'} decks through Celery on 2 worker processes ...")
        started = time.perf_counter()
        for v in versions:
            validate_deck_version.apply_async(args=[v.pk], queue=queue)
        pending = DeckVersion.objects.filter(registration__event=event, status=DeckVersion.Status.PENDING)
        while pending.exists():
            if time.perf_counter() - started > 600:
                raise RuntimeError("decks still pending after 600 s")
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        found = DeckVersion.objects.filter(registration__event=event, status=DeckVersion.Status.LEGAL).count()
        return {"seconds": round(elapsed, 2), "decks": n, "legal": found}
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        event.delete()
        Player.objects.filter(pk__in=[p.pk for p in players]).delete()


def _checks(quick: bool, *, legal: bool) -> dict:
    """One deck checked end to end (parse, resolve, rules) and by its rules alone, in milliseconds."""
    from decks.parsers.pokemon import parse_pokemon_decklist
    from decks.resolve import resolve_pokemon_decklist

    decklist, roles = _mt_decklist(legal=legal)
    result = deck_check(format="master-trainer", decklist=decklist, roles=roles)
    if result.legal != legal:
        codes = ", ".join(v.code for v in result.violations) or "none"
        raise RuntimeError(f"the {'legal' if legal else 'illegal'} reference deck came out otherwise ({codes})")
    full = _timed(lambda: deck_check(format="master-trainer", decklist=decklist, roles=roles), 20 if quick else 200)
    index = catalogue.pokemon_index()
    entries, problems = resolve_pokemon_decklist(parse_pokemon_decklist(decklist), index)
    deck = Deck(
        entries=tuple(entries),
        roles={k: index.resolve_reference(v) for k, v in roles.items()},
        problems=tuple(problems),
    )
    rules = deck_rules("master-trainer")
    rules_only = _timed(lambda: rules.check(deck, None), 50 if quick else 1000)
    return {
        "card_count": result.card_count,
        "violations": [v.code for v in result.violations],
        "check_median_ms": round(statistics.median(full), 3),
        "rules_median_ms": round(statistics.median(rules_only), 3),
    }


def _celery_row(name: str, celery: dict) -> tuple[str, str]:
    if "seconds" not in celery:
        return (name, celery["skipped"])
    return (name, f"{celery['decks']} in {celery['seconds']} s, {celery['legal']} legal (target 1,000 in ≤ 20 s)")


def run(*, quick: bool, out) -> tuple[list[tuple[str, str]], dict]:
    import_seconds, imported = _import(quick, out)
    catalogue.clear()
    decklist, roles = _mt_decklist()
    t = time.perf_counter()
    deck_check(format="master-trainer", decklist=decklist, roles=roles)
    first_ms = (time.perf_counter() - t) * 1000
    legal = _checks(quick, legal=True)
    illegal = _checks(quick, legal=False)
    n = 20 if quick else 1000
    celery_legal = _celery_path(n, out, legal=True)
    celery_illegal = _celery_path(n, out, legal=False)
    figures = {
        "pokemon_import_s": round(import_seconds, 2),
        "pokemon_import_cards": imported,
        "mt75_card_count": legal["card_count"],
        "mt75_first_check_ms": round(first_ms, 1),
        "mt75_check_median_ms": legal["check_median_ms"],
        "mt75_rules_median_ms": legal["rules_median_ms"],
        "mt76_illegal": illegal,
        "celery_path": celery_legal,
        "celery_path_illegal": celery_illegal,
    }
    rows = [
        (f"Pokémon import ({imported:,} cards{', the reference sets only: --quick' if quick else ''})",
         f"{import_seconds:.1f} s (target ≤ 60 s for all of them)"),
        ("first check (builds the card pool)", f"{first_ms:.0f} ms"),
        ("legal 75-card Master Trainer deck: parse + resolve + rules, median",
         f"{legal['check_median_ms']:.2f} ms (target ≤ 5 ms)"),
        ("legal 75-card Master Trainer deck: rules only, median", f"{legal['rules_median_ms']:.3f} ms"),
        (f"illegal 76-card deck ({', '.join(illegal['violations'])}): parse + resolve + rules, median",
         f"{illegal['check_median_ms']:.2f} ms"),
        ("illegal 76-card deck: rules only, median", f"{illegal['rules_median_ms']:.3f} ms"),
        _celery_row("legal decks through Celery on 2 workers", celery_legal),
        _celery_row("illegal decks through Celery on 2 workers", celery_illegal),
    ]  # fmt: skip
    return rows, figures
