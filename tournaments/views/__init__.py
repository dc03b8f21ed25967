"""Server-rendered pages: the event dashboard (organisers and their staff) and the public pairings and standings.

Views translate a request into one service call or selector and render the
answer; a service refusal becomes a form error or a message, never a 500.
htmx requests get the fragment they swap instead of the whole page; a form
with errors comes back with HTTP 422, which ``base.html`` tells htmx to swap
like a success, so the error shows where the organiser is working (a whole
page whose form has errors is a 400).

The dashboard adapts to the viewer's role.  Each view asks
:mod:`tournaments.policy` for the action it needs and answers the 403 page
otherwise; templates get ``may``, one flag per
:class:`~tournaments.policy.Action` (``may.pair_rounds``), and show only the
controls it allows.  Players who share a name at an event are shown with
their player ID (``namesakes``).

One module per concern, as in :mod:`tournaments.services`; ``dashboard_urls`` and ``public_urls`` import each
page from its module:

* :mod:`.events` - the event list, a new event, the dashboard, its standings card, settings, check-in window, finish;
* :mod:`.registrations` - the players card: adding, check-in, drops, withdrawals, claim codes, fixed tables, byes;
* :mod:`.rounds` - pairing, re-pairing and swapping rounds, the top cut, an earlier round's page;
* :mod:`.results` - a table's result entered, a player's report accepted, a result corrected;
* :mod:`.staff` - the event's staff and its penalties;
* :mod:`.audit` - the audit trail in words;
* :mod:`.public` - the home page, a format's rules, an event's public page, pairings and standings;
* :mod:`._common` - the guards (who may do what), the status of a form with errors, results in words;
* :mod:`._tables` - the table cards of a round and the standings card, which several pages show.
"""
