"""State changes of the decks app: catalogue imports, registered decks and judges' rulings on them.

Imports are idempotent: cards are upserted by their stable key (pokemon-tcg-data
id, passcode, Mintayn name), so running an import twice changes nothing, and a
newer data file updates cards in place.  Each import bumps the family's
``CatalogueVersion`` so in-memory indexes rebuild.

A deck's **verdict** is the checker's (:func:`deck_version_validate`, run by the
worker: no person's change, so it is not audited); a **ruling** is a judge's
status over it, with a reason (:func:`deck_verdict_override`), until it is
cleared (:func:`deck_verdict_clear`).  Checks never touch a ruling.  Every change
a person makes here (a submitted deck, a re-check, publishing decklists, deck
options, rulings) is written to the audit trail in its own transaction.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from core.domain_actions import DomainAction
from core.events import record
from core.exceptions import ApplicationError, Conflict, PermissionDenied
from decks.checking import DECKLIST_MAX_LENGTH, deck_check
from decks.importers.mintayn import load_mintayn_csv
from decks.importers.pokemon import load_pokemon
from decks.importers.yugioh import banlist_date, load_cardinfo, load_lflists, parse_lflists
from decks.models import (
    CardSet,
    CatalogueVersion,
    DeckRecheck,
    DeckVerdictOverride,
    DeckVersion,
    MintaynCard,
    PokemonCard,
    StoredBanlist,
    YugiohCard,
)
from decks.selectors import banlist_names, latest_version_number, latest_versions
from rules import FORMATS
from rules.deckrules import ROLES
from rules.options import OptionError, Use
from tournaments.audit import player_label
from tournaments.models import Event, Registration
from tournaments.policy import Action, can_submit_deck, ensure

Progress = Callable[[int, int], None]  # (done, total)
BATCH = 2000


@dataclass(frozen=True)
class ImportReport:
    family: str
    cards: int
    sets: int = 0
    banlists: int = 0
    problems: tuple[str, ...] = ()


def _date(value: str) -> datetime.date | None:
    return datetime.date.fromisoformat(value) if value else None


def _upsert(model, rows: Sequence, unique: str, fields: Sequence[str], progress: Progress | None) -> None:
    total = len(rows)
    for start in range(0, total, BATCH):
        model.objects.bulk_create(
            rows[start : start + BATCH], update_conflicts=True, unique_fields=[unique], update_fields=list(fields)
        )
        if progress:
            progress(min(start + BATCH, total), total)


def _bump(family: str, *, count: int, source: str) -> None:
    CatalogueVersion.objects.get_or_create(family=family)
    CatalogueVersion.objects.filter(family=family).update(
        version=F("version") + 1, card_count=count, source=source[:300], imported_at=timezone.now()
    )


def cards_import_pokemon(*, root: Path, progress: Progress | None = None) -> ImportReport:
    try:
        sets, cards = load_pokemon(Path(root))
    except ValueError as exc:
        raise ApplicationError(str(exc), code="bad_card_data") from exc
    with transaction.atomic():
        _upsert(
            CardSet,
            [
                CardSet(
                    set_id=s.id,
                    name=s.name,
                    series=s.series,
                    code=s.ptcgo_code,
                    release_date=_date(s.release_date),
                    total=s.total,
                )
                for s in sets
            ],
            "set_id",
            ["name", "series", "code", "release_date", "total"],
            None,
        )
        set_pks = dict(CardSet.objects.values_list("set_id", "pk"))
        fields = [f for f in PokemonCard.FIELDS if f != "key"] + ["card_set"]
        rows = [
            PokemonCard(
                card_set_id=set_pks[c.set_id],
                **{
                    f: getattr(c, f)
                    for f in PokemonCard.FIELDS
                    if f not in {"release_date", "subtypes", "types", "national_dex"}
                },
                subtypes=list(c.subtypes),
                types=list(c.types),
                national_dex=list(c.national_dex),
                release_date=_date(c.release_date),
            )  # fmt: skip
            for c in cards
        ]
        _upsert(PokemonCard, rows, "key", fields, progress)
        _bump("pokemon", count=len(cards), source=str(root))
    return ImportReport(family="pokemon", cards=len(cards), sets=len(sets))


def cards_import_yugioh(*, path: Path, progress: Progress | None = None) -> ImportReport:
    """``path``: a folder with ``cardinfo.json`` and ``lflists/*.lflist.conf``, or one file of either kind."""
    path = Path(path)
    cardinfo: Path | None = None
    banlists = []
    try:
        if path.is_dir():
            cardinfo = path / "cardinfo.json" if (path / "cardinfo.json").exists() else None
            lflists = path / "lflists"
            if lflists.is_dir():
                banlists = load_lflists(lflists)
        elif path.suffix == ".json":
            cardinfo = path
        elif path.name.endswith(".conf"):
            banlists = parse_lflists(path.read_text(encoding="utf-8"))
        else:
            raise ValueError(f"{path}: expected a folder, cardinfo.json or a .lflist.conf file")
        if cardinfo is None and not banlists:
            raise ValueError(f"{path}: holds neither cardinfo.json nor lflists/*.lflist.conf")
        cards = load_cardinfo(cardinfo) if cardinfo else []
    except (OSError, ValueError) as exc:
        raise ApplicationError(str(exc), code="bad_card_data") from exc
    with transaction.atomic():
        if cards:
            rows = [
                YugiohCard(
                    passcode=c.passcode,
                    name=c.name,
                    card_type=c.card_type.value,
                    monster_kinds=list(c.monster_kinds),
                    extra_deck=c.extra_deck,
                    race=c.race,
                    level=c.level,
                    alternate_passcodes=list(c.alternate_passcodes),
                )  # fmt: skip
                for c in cards
            ]
            _upsert(
                YugiohCard,
                rows,
                "passcode",
                ["name", "card_type", "monster_kinds", "extra_deck", "race", "level", "alternate_passcodes"],
                progress,
            )
        for b in banlists:
            StoredBanlist.objects.update_or_create(
                name=b.name,
                defaults={
                    "date": b.date or banlist_date(b.name) or "",
                    "limits": {str(k): v for k, v in b.limits.items()},
                    "whitelist": b.whitelist,
                    "is_tcg": b.is_tcg,
                },
            )
        _bump("yugioh", count=YugiohCard.objects.count(), source=str(path))
    return ImportReport(family="yugioh", cards=len(cards), banlists=len(banlists))


def cards_import_mintayn(*, path: Path, progress: Progress | None = None) -> ImportReport:
    try:
        cards, problems = load_mintayn_csv(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ApplicationError(
            _("%(path)s: %(problem)s") % {"path": path, "problem": exc}, code="bad_card_data"
        ) from exc
    with transaction.atomic():
        rows = [
            MintaynCard(
                name=c.name,
                card_type=c.card_type.value,
                card_class=c.card_class,
                level=c.level,
                defense=c.defense,
                stage=c.stage,
                mana_cost=c.mana_cost,
            )  # fmt: skip
            for c in cards
        ]
        _upsert(
            MintaynCard, rows, "name", ["card_type", "card_class", "level", "defense", "stage", "mana_cost"], progress
        )
        _bump("mintayn", count=MintaynCard.objects.count(), source=str(path))
    return ImportReport(
        family="mintayn", cards=len(cards), problems=tuple(f"line {p.line}: {p.message}" for p in problems)
    )


# --- registered decks --------------------------------------------------------------------------

#: Tasks of ``decks.tasks``, enqueued by name (tasks import this module, not the other way round).
VALIDATE_TASK = "decks.tasks.validate_deck_version"
RECHECK_TASK = "decks.tasks.recheck_event_decks"


def deck_job_key(version_id: int) -> str:
    """The key of a deck version's check (see :mod:`core.jobs`)."""
    return f"deck:{version_id}"


def recheck_job_key(run_id: int) -> str:
    return f"deck-recheck:{run_id}"


def deck_submit(*, registration: Registration, decklist: str, roles: dict[str, str], by) -> DeckVersion:
    """Store a new deck version (pending) and queue its validation.

    Refused once the event has started (decks are locked) and for anyone but
    the player or the event's staff.
    """
    if not can_submit_deck(by, registration):
        raise PermissionDenied(_("Only the player or the event's organiser may submit this deck."))
    unknown = sorted(set(roles) - set(ROLES))
    if unknown:
        raise ApplicationError(
            _("Unknown role(s): %(unknown)s.") % {"unknown": ", ".join(unknown)}, code="unknown_role", field="roles"
        )
    if len(decklist) > DECKLIST_MAX_LENGTH:
        raise ApplicationError(
            _("A decklist has at most %(most)s characters.") % {"most": f"{DECKLIST_MAX_LENGTH:,}"}, field="decklist"
        )
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=registration.event_id)
        if event.decks_locked:
            raise Conflict(_("Decks are locked: the event has started."), code="deck_locked")
        last = latest_version_number(registration=registration) or 0
        version = DeckVersion.objects.create(
            registration=registration, number=last + 1, decklist=decklist, roles=roles,
            submitted_by=by if by and by.is_authenticated else None,
        )  # fmt: skip
        # The list itself names cards: the trail keeps which version, not what it holds.
        record(
            event=event, by=by, action=DomainAction.DECK_SUBMITTED, subject=_deck_label(registration, version.number),
            before={"version": last} if last else None, after={"version": version.number}, version_id=version.pk,
        )  # fmt: skip
    return version


def deck_version_validate(*, version_id: int) -> DeckVersion | None:
    """Validate one deck version and store the verdict; safe to run twice.

    A version already checked against the current catalogue is left alone, so
    a retried or duplicated task changes nothing.
    """
    version = DeckVersion.objects.select_related("registration__event").filter(pk=version_id).first()
    if version is None:
        return None
    event = version.registration.event
    family = event.format_spec.family.value
    current = CatalogueVersion.objects.filter(family=family).values_list("version", flat=True).first() or 0
    if version.status != DeckVersion.Status.PENDING and version.catalogue_version == current:
        return version
    try:
        result = deck_check(
            format=event.format, decklist=version.decklist, roles=version.roles, options=event.deck_options
        )
        violations, by_code, legal, count = result.kept(), result.by_code(), result.legal, result.card_count
    except ApplicationError as exc:  # e.g. the event names a banlist that is not imported
        violations = [{"code": exc.code, "rule": "event options", "message": exc.message, "cards": []}]
        by_code, legal, count = {exc.code: 1}, False, None
    DeckVersion.objects.filter(pk=version.pk).update(
        status=DeckVersion.Status.LEGAL if legal else DeckVersion.Status.ILLEGAL,
        violations=violations, violation_count=sum(by_code.values()), violations_by_code=by_code, card_count=count,
        checked_at=timezone.now(), catalogue_version=current,
    )  # fmt: skip
    version.refresh_from_db()
    return version


def deck_recheck_start(*, event: Event, by) -> DeckRecheck:
    """Re-validate every registration's current deck, with progress the organiser's page polls.

    The checker's verdicts go back to pending; judges' rulings stay in force.
    """
    ensure(by, Action.MANAGE_DECKS, event)
    with transaction.atomic():
        ids = list(latest_versions(event).values_list("pk", flat=True))
        DeckVersion.objects.filter(pk__in=ids).update(status=DeckVersion.Status.PENDING)
        run = DeckRecheck.objects.create(event=event, total=len(ids))
        record(
            event=event, by=by, action=DomainAction.DECKS_RECHECKED, subject="Every deck", after={"decks": len(ids)},
            run_id=run.pk,
        )  # fmt: skip
    return run


def deck_recheck_run(*, run_id: int) -> DeckRecheck | None:
    run = DeckRecheck.objects.filter(pk=run_id).first()
    if run is None or run.finished_at is not None:
        return run
    ids = list(latest_versions(run.event).values_list("pk", flat=True))
    DeckRecheck.objects.filter(pk=run.pk).update(total=len(ids), done=0)
    for done, version_id in enumerate(ids, start=1):
        deck_version_validate(version_id=version_id)
        DeckRecheck.objects.filter(pk=run.pk).update(done=done)
    DeckRecheck.objects.filter(pk=run.pk).update(finished_at=timezone.now())
    run.refresh_from_db()
    return run


def decks_revalidate_family(*, family: str) -> int:
    """After a catalogue import: queue re-validation of current decks of events still registering."""
    slugs = [slug for slug, fmt in FORMATS.items() if fmt.family.value == family]
    ids = list(
        DeckVersion.objects.filter(
            registration__event__format__in=slugs, registration__event__status=Event.Status.REGISTRATION
        ).values_list("pk", flat=True)
    )
    if ids:
        # Not an entry of any event's audit trail: the catalogue changed, not a deck.
        record(action=DomainAction.DECKS_REVALIDATION_ASKED, event=None, audit=False, family=family, version_ids=ids)
    return len(ids)


def event_decklists_publish(*, event: Event, by, public: bool = True) -> Event:
    """Publish the event's decklists (``public=False``: hide them again)."""
    ensure(by, Action.MANAGE_DECKS, event)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        if locked.decklists_public != public:
            before = {"decklists_public": locked.decklists_public}
            locked.decklists_public = public
            locked.save(update_fields=["decklists_public"])
            record(
                event=locked, by=by, action=DomainAction.DECKS_PUBLISHED, subject="Decklists",
                before=before, after={"decklists_public": public},
            )  # fmt: skip
    event.decklists_public = public
    return event


def event_deck_options_set(*, event: Event, by, options: dict) -> Event:
    """Set the options of an event that its deck rules read (a banlist for Deck Masters, a deck size variant
    for Mintayn): they replace the deck options set before; the event's other options stay."""
    ensure(by, Action.MANAGE_DECKS, event)
    fmt = event.format_spec
    names = {o.name: banlist_names() for o in fmt.options_for(Use.DECK) if o.named}
    try:
        clean = fmt.clean_options(options, use=Use.DECK, names=names)
    except OptionError as exc:
        raise ApplicationError(exc.message, code="invalid_option", field="deck_options") from None
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        before = locked.deck_options
        if locked.decks_locked and clean != before:
            raise Conflict(_("Deck options can't change once the event has started."), code="deck_locked")
        if clean != before:
            locked.options = {**{k: v for k, v in locked.options.items() if k not in before}, **clean}
            locked.save(update_fields=["options"])
            record(
                event=locked, by=by, action=DomainAction.DECKS_OPTIONS_CHANGED, subject="Deck options",
                before={"deck_options": before}, after={"deck_options": clean},
            )  # fmt: skip
        event.options = locked.options
    return event


# --- judges' rulings ---------------------------------------------------------------------------

REASON_MAX = 1000


def _deck_label(registration: Registration, number: int) -> str:
    """A deck as the audit trail names it: its player (told apart from namesakes) and its version."""
    return f"{player_label(registration.player)}: deck v{number}"


def _ruling_state(version: DeckVersion) -> dict[str, str | None]:
    """What the trail keeps of a ruling change: the status shown, and the ruling's (``None``: none)."""
    return {"status": version.effective_status, "ruling": version.ruling.status if version.ruling is not None else None}


def _rule(*, version: DeckVersion, status: str, reason: str, by, action: DomainAction) -> DeckVersion:
    """Write one ruling row (``status`` empty: a clear) on the registration's latest version, audited."""
    registration = Registration.objects.select_related("event", "player").get(pk=version.registration_id)
    event = registration.event
    ensure(by, Action.OVERRIDE_DECK_VERDICTS, event)
    reason = (reason or "").strip()
    if not reason:
        raise ApplicationError(
            _("Say why the ruling is cleared.") if not status else _("Say why the deck is ruled so."), field="reason"
        )
    if len(reason) > REASON_MAX:
        raise ApplicationError(_("Keep the reason under %(most)s characters.") % {"most": REASON_MAX}, field="reason")
    with transaction.atomic():
        # The event's lock orders this with deck_submit, so "latest" cannot change underneath.
        Event.objects.select_for_update().get(pk=event.pk)
        current = DeckVersion.objects.select_related("ruling").get(pk=version.pk)
        newest = latest_version_number(registration=registration)
        if current.number != newest:
            raise Conflict(
                _("Version %(version)s is no longer the player's deck: version %(newest)s is.")
                % {"version": current.number, "newest": newest},
                code="not_latest_version",
            )
        if not status and current.ruling_id is None:
            raise Conflict(
                _("Version %(version)s has no ruling to clear.") % {"version": current.number}, code="no_ruling"
            )
        before = _ruling_state(current)
        row = DeckVerdictOverride.objects.create(
            version=current, status=status, reason=reason, by=by if by is not None and by.is_authenticated else None
        )
        current.ruling = row if status else None
        current.save(update_fields=["ruling"])
        record(
            event=event, by=by, action=action, subject=_deck_label(registration, current.number),
            before=before, after=_ruling_state(current), reason=reason,
        )  # fmt: skip
    return current


def deck_verdict_override(*, version: DeckVersion, status: str, reason: str, by) -> DeckVersion:
    """A judge's ruling: the deck is ``legal`` or ``illegal`` whatever the checker says, for ``reason``.

    The event's organisers and judges, at any time (rulings after the event happen too); on the
    registration's latest version only (``not_latest_version``).  A new ruling replaces the one in force;
    the checker's verdict stays as it is, and re-checks leave the ruling alone.
    """
    if status not in DeckVerdictOverride.Status.values:
        raise ApplicationError(_("A ruling makes the deck legal or illegal."), code="invalid", field="status")
    return _rule(version=version, status=status, reason=reason, by=by, action=DomainAction.DECK_OVERRIDDEN)


def deck_verdict_clear(*, version: DeckVersion, reason: str, by) -> DeckVersion:
    """Clear the ruling in force, with a reason: the checker's verdict stands again (``no_ruling`` without one)."""
    return _rule(version=version, status="", reason=reason, by=by, action=DomainAction.DECK_OVERRIDE_CLEARED)
