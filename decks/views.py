"""Deck pages: the player's deck page and the organiser's deck overview with re-checks and judges' rulings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.doorway import enter, refuse
from core.exceptions import ApplicationError
from core.language import in_sentence
from decks import selectors, services
from decks.forms import DeckForm, DeckRulingClearForm, DeckRulingForm
from decks.models import DeckVerdictOverride, DeckVersion
from rules.options import Use
from tournaments import doors, policy
from tournaments.forms import FormatOptionsForm
from tournaments.models import Event, Registration
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors


def _registration_for(request: HttpRequest, event: Event) -> Registration:
    """The registration whose deck this page shows: ?registration= for staff, else the user's own."""
    wanted = request.GET.get("registration") or request.POST.get("registration")
    if wanted and wanted.isdigit():
        return enter(request, doors.DECK, event.pk, int(wanted))
    registration = (
        people_selectors.registration_of_user(event=event, user=request.user) if request.user.is_authenticated else None
    )
    if registration is None:
        raise refuse(request, _(policy.NOT_REGISTERED))
    return registration


@login_required
def player_deck(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    registration = _registration_for(request, event)
    latest = selectors.deck_version_latest(registration=registration)
    initial = {"decklist": latest.decklist} if latest else {}
    if latest:
        initial.update({f"role_{k}": v for k, v in latest.roles.items()})
    form = DeckForm(request.POST or None, fmt=event.format_spec, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.deck_submit(
                registration=registration,
                decklist=form.cleaned_data["decklist"],
                roles=form.role_values(),
                by=request.user,
            )
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Deck received: checking it now."))
            suffix = f"?registration={registration.pk}" if registration.player.user_id != request.user.pk else ""
            return redirect(request.path + suffix)
    versions = selectors.deck_versions_recent(registration=registration, limit=10)
    context = {"event": event, "registration": registration, "form": form, "latest": latest, "versions": versions}
    return render(request, "decks/player_deck.html", context, status=400 if form.errors else 200)


@login_required
def deck_status_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    registration = _registration_for(request, event)
    latest = selectors.deck_version_latest(registration=registration)
    return render(request, "decks/_verdict.html", {"event": event, "registration": registration, "latest": latest})


def _deck_options_form(event: Event, data: QueryDict | None = None) -> FormatOptionsForm:
    """The options of the event's format that its deck rules read (the banlist's choices: the imported lists)."""
    options = event.format_spec.options_for(Use.DECK)
    names = {o.name: selectors.banlist_names() for o in options if o.named}
    return FormatOptionsForm(data, options=options, stored=event.options, names=names)


@login_required
@require_POST
def deck_options(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_DECKS), event_id)
    form = _deck_options_form(event, request.POST)
    try:
        if not form.is_valid():
            raise ApplicationError(" ".join(str(e) for errors in form.errors.values() for e in errors))
        services.event_deck_options_set(event=event, by=request.user, options=form.values())
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Deck options saved; re-check all decks to apply them."))
    return redirect("decks:organiser", event_id=event.pk)


@dataclass
class DeckRow:
    """One entry of the decks page: the player's latest deck (``None``: none yet) and its ruling forms."""

    registration: Registration
    version: DeckVersion | None
    rule_form: DeckRulingForm | None = None
    clear_form: DeckRulingClearForm | None = None
    #: The ruling tools start open (their form came back with an error).
    open: bool = False


def _rule_form(registration_id: int, version: DeckVersion, data: QueryDict | None = None) -> DeckRulingForm:
    return DeckRulingForm(data, prefix=f"rule-{registration_id}", initial={"version": version.number})


def _clear_form(registration_id: int, version: DeckVersion, data: QueryDict | None = None) -> DeckRulingClearForm:
    return DeckRulingClearForm(data, prefix=f"clear-{registration_id}", initial={"version": version.number})


def _overview_context(request: HttpRequest, event: Event, *, bound: dict | None = None) -> dict:
    """The decks page; ``bound``: ``{registration id: form}``, a ruling form that came back with errors."""
    may = policy.may(request.user, event)
    versions = selectors.latest_versions_by_registration(event=event)
    rows = [DeckRow(r, versions.get(r.pk)) for r in selectors.registrations_by_name(event=event)]
    bound = bound or {}
    for row in rows:
        if row.version is None or not may[Action.OVERRIDE_DECK_VERDICTS]:
            continue
        form = bound.get(row.registration.pk)
        row.open = form is not None
        row.rule_form = form if isinstance(form, DeckRulingForm) else _rule_form(row.registration.pk, row.version)
        if row.version.ruling_id or isinstance(form, DeckRulingClearForm):
            clear = form if isinstance(form, DeckRulingClearForm) else None
            row.clear_form = clear or _clear_form(row.registration.pk, row.version)
    run = selectors.deck_recheck_latest(event_id=event.pk)
    counts = {"legal": 0, "illegal": 0, "pending": 0, "missing": 0, "ruled": 0}
    for row in rows:
        counts[row.version.effective_status if row.version else "missing"] += 1
        counts["ruled"] += bool(row.version and row.version.ruling_id)
    options_form = _deck_options_form(event) if event.format_spec.options_for(Use.DECK) else None
    return {"event": event, "rows": rows, "run": run, "counts": counts, "options_form": options_form, "may": may}


@login_required
def organiser_decks(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_DECKS, Action.SEE_HIDDEN_DECKLISTS), event_id)
    return render(request, "decks/organiser_decks.html", _overview_context(request, event))


@login_required
def recheck_progress(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_DECKS, Action.SEE_HIDDEN_DECKLISTS), event_id)
    return render(request, "decks/_recheck.html", _overview_context(request, event))


def _ruling_answer(
    request: HttpRequest,
    event: Event,
    registration: Registration,
    form: DeckRulingForm | DeckRulingClearForm,
    change: Callable[[DeckVersion, dict[str, Any]], str],
) -> HttpResponse:
    """Make the change if the form is valid; the page again with the form's errors at their fields otherwise."""
    if form.is_valid():
        version = selectors.deck_version_numbered(registration=registration, number=form.cleaned_data["version"])
        if version is None:
            form.add_error(None, _("That deck version does not exist: reload the page."))
        else:
            try:
                message = change(version, form.cleaned_data)
            except ApplicationError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, message)
                return redirect(reverse("decks:organiser", args=[event.pk]) + f"#deck-{registration.pk}")
    context = _overview_context(request, event, bound={registration.pk: form})
    return render(request, "decks/organiser_decks.html", context, status=400)


@login_required
@require_POST
def ruling(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """A judge's ruling on a player's latest deck: legal or illegal, with a reason."""
    event = enter(request, doors.event(Action.OVERRIDE_DECK_VERDICTS), event_id)
    registration = enter(request, doors.REGISTRATION, event.pk, registration_id)
    form = DeckRulingForm(request.POST, prefix=f"rule-{registration.pk}")

    def change(version: DeckVersion, data: dict) -> str:
        services.deck_verdict_override(version=version, status=data["status"], reason=data["reason"], by=request.user)
        status = in_sentence(DeckVerdictOverride.Status(data["status"]).label)
        return _("Ruling recorded: %(player)s's deck is %(status)s.") % {
            "player": registration.player.display_name,
            "status": status,
        }

    return _ruling_answer(request, event, registration, form, change)


@login_required
@require_POST
def ruling_clear(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    """Clear the ruling on a player's latest deck, with a reason: the checker's verdict stands again."""
    event = enter(request, doors.event(Action.OVERRIDE_DECK_VERDICTS), event_id)
    registration = enter(request, doors.REGISTRATION, event.pk, registration_id)
    form = DeckRulingClearForm(request.POST, prefix=f"clear-{registration.pk}")

    def change(version: DeckVersion, data: dict) -> str:
        services.deck_verdict_clear(version=version, reason=data["reason"], by=request.user)
        return _("Ruling cleared: %(player)s's deck has the checker's verdict again.") % {
            "player": registration.player.display_name
        }

    return _ruling_answer(request, event, registration, form, change)


@login_required
@require_POST
def recheck_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_DECKS), event_id)
    services.deck_recheck_start(event=event, by=request.user)
    messages.success(request, _("Re-checking every deck."))
    return redirect("decks:organiser", event_id=event.pk)


@login_required
@require_POST
def publish(request: HttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.event(Action.MANAGE_DECKS), event_id)
    public = request.POST.get("public") == "true"
    services.event_decklists_publish(event=event, by=request.user, public=public)
    messages.success(request, _("Decklists are public.") if public else _("Decklists are hidden."))
    return redirect("decks:organiser", event_id=event.pk)


def public_decklist(request: HttpRequest, event_id: int, registration_id: int) -> HttpResponse:
    registration = enter(request, doors.DECKLIST, event_id, registration_id)
    latest = selectors.deck_version_latest(registration=registration)
    return render(
        request, "decks/decklist.html", {"event": registration.event, "registration": registration, "latest": latest}
    )
