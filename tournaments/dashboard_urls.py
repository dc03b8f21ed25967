from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.event_list, name="event-list"),
    path("events/new/", views.event_create, name="event-create"),
    path("events/<int:event_id>/", views.event_detail, name="event-detail"),
    path("events/<int:event_id>/registrations/", views.registration_add, name="registration-add"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/check-in/",
        views.registration_check_in,
        name="registration-check-in",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/drop/",
        views.registration_drop,
        name="registration-drop",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/undrop/",
        views.registration_undrop,
        name="registration-undrop",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/withdraw/",
        views.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/claim-code/",
        views.registration_claim_code,
        name="registration-claim-code",
    ),
    path("events/<int:event_id>/settings/", views.event_settings, name="event-settings"),
    path("events/<int:event_id>/check-in-window/", views.event_check_in_window, name="event-check-in-window"),
    path("events/<int:event_id>/standings/", views.event_standings, name="event-standings"),
    path("events/<int:event_id>/staff/", views.event_staff, name="event-staff"),
    path("events/<int:event_id>/staff/remove/", views.event_staff_remove, name="event-staff-remove"),
    path("events/<int:event_id>/audit/", views.event_audit, name="event-audit"),
    path("events/<int:event_id>/penalties/", views.event_penalties, name="event-penalties"),
    path("events/<int:event_id>/penalties/<int:penalty_id>/rescind/", views.penalty_rescind, name="penalty-rescind"),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/fixed-table/",
        views.registration_fixed_table,
        name="registration-fixed-table",
    ),
    path(
        "events/<int:event_id>/registrations/<int:registration_id>/bye/",
        views.registration_bye,
        name="registration-bye",
    ),
    path("events/<int:event_id>/rounds/start/", views.round_start, name="round-start"),
    path("events/<int:event_id>/rounds/<int:number>/", views.round_detail, name="round-detail"),
    path("events/<int:event_id>/rounds/<int:number>/repair/", views.round_repair, name="round-repair"),
    path("events/<int:event_id>/rounds/<int:number>/swap/", views.round_swap, name="round-swap"),
    path("events/<int:event_id>/top-cut/", views.top_cut_start, name="top-cut-start"),
    path("events/<int:event_id>/finish/", views.event_finish, name="event-finish"),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/result/",
        views.result_report,
        name="result-report",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/report/accept/",
        views.result_report_accept,
        name="result-report-accept",
    ),
    path(
        "events/<int:event_id>/rounds/<int:number>/tables/<int:table>/correct/",
        views.result_correct,
        name="result-correct",
    ),
]
