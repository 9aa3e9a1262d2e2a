from django.apps import AppConfig


class ServiceConfig(AppConfig):
    name = "autograder.service"
    label = "service"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "attention kit submission service"
