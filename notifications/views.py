"""The notifications pages: ``/me/notifications/`` (the player's choices, and push on this device) and the
e-mails' unsubscribe link (one click, no sign-in: the link's signed token names the user and the kind)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core.exceptions import ApplicationError
from notifications import push, selectors, services
from notifications.forms import PreferencesForm
from notifications.kinds import Kind


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """The player's choice per kind and channel; a button to receive pushes on this browser."""
    choices = selectors.choices_of(user=request.user)
    form = PreferencesForm(request.POST or None, choices=choices)
    if request.method == "POST" and form.is_valid():
        services.preferences_set(user=request.user, choices=form.chosen())
        messages.success(request, _("Your notification choices are saved."))
        return redirect("notifications:settings")
    context = {
        "form": form,
        "vapid_public_key": push.public_key(),
        "push_subscriptions": selectors.push_subscription_count(user=request.user),
        "has_email": bool(getattr(request.user, "email", "")),
    }
    return render(request, "notifications/settings.html", context)


# A mail client's one-click unsubscribe (RFC 8058) posts without a session or a CSRF token: the signed token in the
# URL is the proof, and all it can do is turn one kind of e-mail off or back on for the user it names.  Opening the
# link (GET, HEAD) changes nothing: it asks, with one button, since mail scanners and link previews open links
# nobody clicked.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    again = request.method == "POST" and request.POST.get("again") == "1"
    try:
        if request.method == "POST":
            _user_id, kind = services.unsubscribe(token=token, again=again)
        else:
            _user_id, kind = services.unsubscribe_link_read(token=token)
    except ApplicationError as exc:
        return render(request, "notifications/unsubscribe.html", {"error": exc.message}, status=400)
    state = ("subscribed" if again else "unsubscribed") if request.method == "POST" else "asking"
    context = {"kind_label": Kind(kind).label, "state": state, "token": token}
    return render(request, "notifications/unsubscribe.html", context)
