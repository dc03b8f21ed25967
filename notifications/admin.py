from django.contrib import admin

from notifications.models import Delivery, Preference, PushSubscription


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["kind", "key", "user", "channel", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status", "kind", "channel"]
    raw_id_fields = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "endpoint", "created_at"]
    raw_id_fields = ["user"]


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "email", "push"]
    raw_id_fields = ["user"]
