from django.urls import path

from tournaments.views import audit, events, keep_apart, phases, registrations, results, rounds, staff

urlpatterns = [
    path("", events.event_list, name="event-list"),
    path("events/new/", events.event_create, name="event-create"),
    path("events/<int:event_id>/", events.event_detail, name="event-detail"),
    path("events/<int:event_id>/registrations/", registrations.registration_add, name="registration-add"),
    path("events/<int:event_id>/registrations/import/", registrations.roster_import, name="roster-import"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/check-in/",
        registrations.registration_check_in,
        name="registration-check-in",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/drop/",
        registrations.registration_drop,
        name="registration-drop",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/undrop/",
        registrations.registration_undrop,
        name="registration-undrop",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/withdraw/",
        registrations.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/claim-code/",
        registrations.registration_claim_code,
        name="registration-claim-code",
    ),
    path("events/<int:event_id>/settings/", events.event_settings, name="event-settings"),
    path("events/<int:event_id>/check-in-window/", events.event_check_in_window, name="event-check-in-window"),
    path("events/<int:event_id>/standings/", events.event_standings, name="event-standings"),
    path("events/<int:event_id>/staff/", staff.event_staff, name="event-staff"),
    path("events/<int:event_id>/staff/remove/", staff.event_staff_remove, name="event-staff-remove"),
    path("events/<int:event_id>/audit/", audit.event_audit, name="event-audit"),
    path("events/<int:event_id>/penalties/", staff.event_penalties, name="event-penalties"),
    path("events/<int:event_id>/penalties/<int:penalty_id>/rescind/", staff.penalty_rescind, name="penalty-rescind"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/payment/",
        registrations.registration_payment,
        name="registration-payment",
    ),
    path("events/<int:event_id>/lottery/draw/", registrations.lottery_draw, name="lottery-draw"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/fixed-table/",
        registrations.registration_fixed_table,
        name="registration-fixed-table",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/stream-consent/",
        registrations.registration_stream_consent,
        name="registration-stream-consent",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/bye/",
        registrations.registration_bye,
        name="registration-bye",
    ),
    path("events/<int:event_id>/rounds/start/", rounds.round_start, name="round-start"),
    path("events/<int:event_id>/rounds/<int:number>/", rounds.round_detail, name="round-detail"),
    path("events/<int:event_id>/rounds/<int:number>/repair/", rounds.round_repair, name="round-repair"),
    path("events/<int:event_id>/rounds/<int:number>/swap/", rounds.round_swap, name="round-swap"),
    path("events/<int:event_id>/rounds/<int:number>/publish/", rounds.round_publish, name="round-publish"),
    path("events/<int:event_id>/rounds/<int:number>/undo/", rounds.round_undo, name="round-undo"),
    path("events/<int:event_id>/top-cut/", rounds.top_cut_start, name="top-cut-start"),
    path("events/<int:event_id>/phases/", phases.event_phases, name="event-phases"),
    path("events/<int:event_id>/keep-apart/", keep_apart.keep_apart, name="keep-apart"),
    path(
        "events/<int:event_id>/keep-apart/<int:pair_id>/remove/", keep_apart.keep_apart_remove, name="keep-apart-remove"
    ),
    path("events/<int:event_id>/phases/<int:number>/advance/", phases.phase_advance, name="phase-advance"),
    path(
        "events/<int:event_id>/phases/<int:number>/advance/undo/", phases.phase_advance_undo, name="phase-advance-undo"
    ),
    path("events/<int:event_id>/finish/", events.event_finish, name="event-finish"),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/result/",
        results.result_report,
        name="result-report",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/report/accept/",
        results.result_report_accept,
        name="result-report-accept",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/correct/",
        results.result_correct,
        name="result-correct",
    ),
]
