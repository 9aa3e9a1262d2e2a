from django.apps import AppConfig


class DemoPlatformConfig(AppConfig):
    """The stand-in LMS, under the label its tables have always had (``lti_platform_*``)."""

    name = "autograder.service.lti.demo_platform"
    label = "lti_platform"
    default_auto_field = "django.db.models.BigAutoField"
