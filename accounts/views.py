"""Account and player pages: sign-up, claims, ``/me/``, the check-in page and the self-service buttons.

Sign-in, sign-out and passwords are Django's own views (``accounts/urls.py``);
sign-in throttling is django-axes (``accounts/security.py``).

Every self-service button posts to one view here, which calls one service and
answers with the player's *panel* of that event (:mod:`accounts.panels`): to
htmx the panel itself (HTTP 422 with the refusal written on it), without
JavaScript a redirect back to the page the form was on, with the outcome as a
message.  A refusal is never a 500.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from django.views.i18n import set_language

from accounts import panels, selectors, services
from accounts.forms import ClaimForm, LanguageForm, SignUpForm
from core.doorway import enter
from core.exceptions import ApplicationError
from core.exceptions import PermissionDenied as ServicePermissionDenied
from core.htmx import HtmxHttpRequest
from core.language import SESSION_KEY as LANGUAGE_SESSION_KEY
from core.language import remember_account_language, supported
from core.throttling import SignUpThrottle
from leagues import views as league_views
from tournaments import doors
from tournaments import selectors as tournament_selectors
from tournaments.models import Event, Registration
from tournaments.selectors import people as people_selectors
from tournaments.selectors.people import player_penalties
from tournaments.services import registrations, results

#: A form with errors: htmx swaps it like a success (see base.html).
UNPROCESSABLE = 422


def _next_url(request: HttpRequest, default: str) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return default


# --- accounts -------------------------------------------------------------------------------------


def signup(request: HttpRequest) -> HttpResponse:
    """A new account with its player profile; signed in at once, then on to ``next`` or ``/me/``.

    Each address sends so many sign-ups per period (``PODIUM_SIGNUP_RATE``), counted with the API's sign-ups
    (:class:`core.throttling.SignUpThrottle`); past it, 429 with the page saying when to try again."""
    target = _next_url(request, reverse("accounts:me"))
    if request.user.is_authenticated:
        return redirect(target)
    if request.method == "POST":
        throttle = SignUpThrottle()
        if not throttle.allow_request(request, None):
            return _signup_throttled(request, target, throttle.wait() or 1.0)
    form = SignUpForm(request.POST or None, initial={"language": translation.get_language()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = services.account_sign_up(
            username=data["username"],
            password=data["password1"],
            email=data["email"],
            display_name=data["display_name"],
            language=data.get("language", ""),
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(player)s: your account is ready.") % {"player": user.player.display_name}
        )
        return redirect(target)
    status = UNPROCESSABLE if form.errors else 200
    return render(request, "registration/signup.html", {"form": form, "next": target}, status=status)


def _signup_throttled(request: HttpRequest, target: str, wait: float) -> HttpResponse:
    """HTTP 429: the sign-up page again, filled in as it was sent (not the passwords), saying when to try again."""
    minutes = max(1, math.ceil(wait / 60))
    form = SignUpForm(initial={name: request.POST.get(name, "") for name in ("username", "display_name", "email")})
    throttled = ngettext(
        "Too many accounts were made from your address: try again in %(minutes)s minute.",
        "Too many accounts were made from your address: try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}
    context = {"form": form, "next": target, "throttled": throttled}
    response = render(request, "registration/signup.html", context, status=429)
    response["Retry-After"] = str(math.ceil(wait))
    return response


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """The language switcher of every page: Django's ``set_language`` (the language cookie, then back to ``next``),
    and for a signed-in account its language setting too (which comes before the cookie: :mod:`core.language`)."""
    response = set_language(request)
    chosen = supported(request.POST.get("language", ""))
    if request.user.is_authenticated and chosen:
        services.account_language_set(user=request.user, language=chosen)
        remember_account_language(request, chosen)
    return response


@login_required
@require_POST
def language_setting(request: HttpRequest) -> HttpResponse:
    """The account's language, from ``/me/`` (blank: follow the browser)."""
    form = LanguageForm(request.POST)
    if form.is_valid():
        language = services.account_language_set(user=request.user, language=form.cleaned_data["language"])
        remember_account_language(request, language)
        translation.activate(language or translation.get_language())
        messages.success(request, _("Your language setting is saved."))
    else:  # only a hand-made request names a language the form doesn't offer
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect("accounts:me")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, and a new password also lifts a sign-in lockout of the account (the owner proved who they are)."""

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        from axes.utils import reset

        reset(username=form.user.get_username())
        return response


def claim(request: HttpRequest, code: str = "") -> HttpResponse:
    """Link a walk-in's player record (by the organiser's code) to the signed-in account.

    ``/claim/`` asks for the code; ``/claim/<code>/`` (the link) shows whose record it is and asks to
    confirm.  A visitor is asked to sign in or create an account first, and comes back here.
    """
    record = selectors.claim_record(code=code) if code else None
    if not request.user.is_authenticated:
        if request.method == "POST" or not code:
            return redirect_to_login(request.get_full_path())
        return render(request, "accounts/claim_sign_in.html", {"code": code, "record": record})
    form = ClaimForm(request.POST or None, initial={"code": code})
    if request.method == "POST" and form.is_valid():
        try:
            claimed = registrations.player_claim(user=request.user, code=form.cleaned_data["code"])
        except (ApplicationError, ServicePermissionDenied) as exc:
            form.add_error("code" if exc.field in (None, "code") else None, exc.message)
        else:
            messages.success(
                request,
                _("The player record %(player)s (#%(id)s) is now yours.")
                % {"player": claimed.display_name, "id": claimed.pk},
            )
            return redirect("accounts:me")
    status = UNPROCESSABLE if form.errors else 200
    player = tournament_selectors.player_of(request.user)
    context = {
        "form": form,
        "code": code,
        "record": record,
        "has_history": player is not None and selectors.player_has_history(player=player),
    }
    return render(request, "accounts/claim.html", context, status=status)


# --- the player's page ------------------------------------------------------------------------------


@login_required
def me(request: HttpRequest) -> HttpResponse:
    """``/me/``: the player's running, upcoming and past events, each with its panel."""
    player = tournament_selectors.player_of(request.user)
    running: list[panels.Panel] = []
    upcoming: list[panels.Panel] = []
    past: list[dict[str, Any]] = []
    invitations: list[Registration] = []
    if player is not None:
        regs = selectors.player_registrations(player=player)
        aside = (Registration.Status.WITHDRAWN, Registration.Status.INVITED)
        shown = [r for r in regs if r.status not in aside]
        invitations = [
            r for r in regs if r.status == Registration.Status.INVITED and r.event.status != Event.Status.FINISHED
        ]
        started = [r.event_id for r in shown if r.event.status != Event.Status.REGISTRATION]
        found = selectors.matches(player=player, event_ids=started)
        standings = selectors.standings_of(player=player, event_ids=started)
        penalties = player_penalties(player=player, event_ids=[r.event_id for r in shown])
        for registration in shown:
            event = registration.event
            if event.status == Event.Status.FINISHED:
                rows = panels.history_rows(found.get(event.pk, []), player.pk, one_vs_one=event.is_one_vs_one)
                past.append({
                    "registration": registration, "history": rows, "standing": standings.get(event.pk),
                    "penalties": penalties.get(event.pk, []),
                })  # fmt: skip
                continue
            panel = panels.build(
                event=event, user=request.user, player=player, registration=registration,
                match_list=found.get(event.pk, []), standings=standings, penalties=penalties,
            )  # fmt: skip
            (running if event.status == Event.Status.RUNNING else upcoming).append(panel)
    context = {
        "player": player,
        "invitations": invitations,
        "running": running,
        "upcoming": upcoming,
        "past": past,
        "has_dashboard": selectors.has_dashboard(request.user),
        "staffed": selectors.staffed_events(request.user),
        # Seasons and ratings: the leagues app reads and draws them.
        "leagues": league_views.player_league_context(player) if player is not None else None,
        # The account's language as its session keeps it (core.language): no query.
        "language_form": LanguageForm(initial={"language": request.session.get(LANGUAGE_SESSION_KEY, "")}),
    }
    return render(request, "accounts/me.html", context)


@never_cache
@require_safe
def panel(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/events/<id>/panel/?place=me``: the player's panel of the event alone, as that page shows it.  A page whose
    panel follows the event's stream fetches it again when a round is paired or a report or a result comes at the
    player's table (``static/js/live-pages.js``), so the panel has one rendering."""
    event = enter(request, doors.EVENT, event_id)
    built = panels.build(event=event, user=request.user, place=_known_place(request.GET.get("place", "me")))
    return render(request, "accounts/_panel.html", {"panel": built})


def check_in(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """``/events/<id>/check-in/``: the page the dashboard's QR code opens; the button posts to :func:`check_in_post`."""
    if request.method == "POST":
        return check_in_post(request, event_id)
    event = enter(request, doors.EVENT, event_id)
    panel = panels.build(event=event, user=request.user, place="check-in")
    return render(request, "public/check_in.html", {"event": event, "panel": panel})


# --- self-service ---------------------------------------------------------------------------------


def _known_place(place: str) -> str:
    """The page a panel is on (``panels.PLACES``); anything else is the player's page."""
    return place if place in panels.PLACES else "me"


def _place(request: HttpRequest) -> str:
    return _known_place(request.POST.get("place", "me"))


def _place_url(place: str, event: Event) -> str:
    if place == "event":
        return reverse("public:event", args=[event.pk])
    if place == "check-in":
        return reverse("accounts:check-in", args=[event.pk])
    return reverse("accounts:me") + f"#event-{event.pk}"


def _answer(
    request: HtmxHttpRequest, event: Event, *, error: str = "", news: str = "", report_data: QueryDict | None = None
) -> HttpResponse:
    """The panel for htmx (422 with the error on it), or back to the page with a message."""
    place = _place(request)
    if request.htmx:
        event = tournament_selectors.event_refreshed(event=event)
        panel = panels.build(event=event, user=request.user, place=place, report_data=report_data if error else None)
        panel.error, panel.news, panel.focus = error, news, True
        return render(request, "accounts/_panel.html", {"panel": panel}, status=UNPROCESSABLE if error else 200)
    if error:
        messages.error(request, error)
    elif news:
        messages.success(request, news)
    return redirect(_place_url(place, event))


def _act[T](
    request: HtmxHttpRequest, event: Event, action: Callable[[], T], news: str | Callable[[T], str]
) -> HttpResponse:
    try:
        outcome = action()
    except (ApplicationError, ServicePermissionDenied) as exc:
        return _answer(request, event, error=exc.message)
    return _answer(request, event, news=news(outcome) if callable(news) else news)


def _own_registration(request: HttpRequest, event: Event) -> Registration | None:
    player = tournament_selectors.player_of(request.user)
    if player is None:
        return None
    return selectors.own_registration(event=event, player=player)


def _registration_action[T](
    request: HtmxHttpRequest, event_id: int, action: Callable[[Registration], T], news: str | Callable[[T], str]
) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)
    registration = _own_registration(request, event)
    if registration is None:
        return _answer(request, event, error=_("You are not registered for this event."))
    return _act(request, event, lambda: action(registration), news)


@login_required
@require_POST
def register(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    event = enter(request, doors.EVENT, event_id)

    def news(registration: Registration) -> str:
        warnings = people_selectors.entry_warnings(event=event, registrations=[registration])
        also = "".join(" " + _("Note: %(warning)s") % {"warning": w.message} for w in warnings.get(registration.pk, []))
        if registration.status == Registration.Status.APPLIED:
            return _("You have applied to the lottery for %(event)s.") % {"event": event.name} + also
        if registration.status == Registration.Status.WAITLISTED:
            place = selectors.waiting_place(registration=registration)
            return _("The event is full: you are number %(place)s on the waiting list.") % {"place": place} + also
        return _("You are registered for %(event)s.") % {"event": event.name} + also

    return _act(request, event, lambda: registrations.registration_self_register(event=event, by=request.user), news)


@login_required
@require_POST
def invitation_accept(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The player accepts staff's invitation to the event: they are registered."""
    return _registration_action(
        request,
        event_id,
        lambda r: registrations.registration_accept(registration=r, by=request.user),
        lambda r: _("You are registered for %(event)s.") % {"event": r.event.name},
    )


@login_required
@require_POST
def invitation_decline(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The player declines staff's invitation to the event."""
    return _registration_action(
        request,
        event_id,
        lambda r: registrations.registration_decline(registration=r, by=request.user),
        lambda r: _("You declined the invitation to %(event)s.") % {"event": r.event.name},
    )


@login_required
@require_POST
def withdraw(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    return _registration_action(
        request,
        event_id,
        lambda r: registrations.registration_withdraw(registration=r, by=request.user),
        _("You have withdrawn from the event."),
    )


@login_required
@require_POST
def check_in_post(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    return _registration_action(
        request,
        event_id,
        lambda r: registrations.registration_check_in(registration=r, by=request.user, checked_in=True),
        _("You are checked in."),
    )


@login_required
@require_POST
def drop(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    return _registration_action(
        request,
        event_id,
        lambda r: registrations.registration_drop(registration=r, by=request.user),
        _("You have dropped: you won't be paired again. Your results stay in the standings."),
    )


@login_required
@require_POST
def stream_consent(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The player opts out of being streamed (``stream_opt_out=yes``) or back in (``no``)."""
    opt_out = request.POST.get("stream_opt_out") == "yes"
    return _registration_action(
        request,
        event_id,
        lambda r: registrations.registration_stream_consent_set(
            registration=r, by=request.user, stream_opt_out=opt_out
        ),
        _("You opted out: no stream shows your table.") if opt_out else _("Your table may be streamed again."),
    )


def _current_table(event: Event, request: HttpRequest) -> tuple[int, int] | None:
    """The round and table numbers of the user's table in the event's current round; ``None``: none, or a bye."""
    player = tournament_selectors.player_of(request.user)
    table = selectors.player_table(event=event, player=player) if player else None
    if table is None or table.table_number is None:
        return None
    return table.round_number, table.table_number


@login_required
@require_POST
def report(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The player reports their table's result in the current round."""
    event = enter(request, doors.EVENT, event_id)
    at = _current_table(event, request)
    if at is None:
        return _answer(request, event, error=_("You have no table to report in the current round."))
    round_number, table_number = at
    panel = panels.build(event=event, user=request.user, place=_place(request), report_data=request.POST)
    form = panel.table.report_form if panel.table else None
    if form is None:
        note = panel.table.note if panel.table else ""
        return _answer(request, event, error=note or _("This table's result can't be reported now."))
    if not form.is_valid():
        errors = [str(e) for errs in form.errors.values() for e in errs]
        return _answer(request, event, error=" ".join(dict.fromkeys(errors)), report_data=request.POST)
    placements, games, intentional_draw = form.outcome()

    def news(answer: results.ReportAnswer) -> str:
        if answer.state == "confirmed":
            return _("Result recorded: it matches your opponent's report.")
        if answer.state == "disputed":
            return _("Your report differs from the other one: a judge will settle the table.")
        if answer.state == "unchanged":
            return _("You reported this result already.")
        return _("Result reported: your opponents confirm it on their phones.")

    return _act(
        request,
        event,
        lambda: results.result_player_report(
            event=event,
            round_number=round_number,
            table_number=table_number,
            placements=placements,
            games=games,
            intentional_draw=intentional_draw,
            by=request.user,
        ),  # fmt: skip
        news,
    )


@login_required
@require_POST
def respond(request: HtmxHttpRequest, event_id: int) -> HttpResponse:
    """The player confirms (``agrees=yes``) or disputes (``agrees=no``) the open report of their table."""
    event = enter(request, doors.EVENT, event_id)
    agrees = request.POST.get("agrees")
    if agrees not in {"yes", "no"}:
        return _answer(request, event, error=_("Confirm or dispute the reported result."))
    at = _current_table(event, request)
    if at is None:
        return _answer(request, event, error=_("You have no table in the current round."))
    round_number, table_number = at

    def news(answer: results.ReportAnswer) -> str:
        if answer.state == "confirmed":
            return _("Confirmed: the result is recorded.")
        if answer.state == "disputed":
            return _("Disputed: a judge will settle the table.")
        return _("Confirmed: waiting for the other players at the table.")

    return _act(
        request,
        event,
        lambda: results.result_respond(
            event=event,
            round_number=round_number,
            table_number=table_number,
            agrees=agrees == "yes",
            by=request.user,
        ),  # fmt: skip
        news,
    )
