"""``{{ value|course_time }}``: a stored time in a template as every page shows it (the course's
zone, with the offset). Django's own ``date`` filter would name the zone by its abbreviation
(``CET``), which a reader elsewhere cannot place, and would differ from the other pages."""

from django import template

from autograder.service.web.common import moment

register = template.Library()


@register.filter
def course_time(value) -> str:
    return moment(value)
