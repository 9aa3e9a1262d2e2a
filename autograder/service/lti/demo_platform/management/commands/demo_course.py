"""``demo_course``: the LTI demo's course on the stand-in LMS (``../../../demo.py`` runs it): its
people and its links, each link with its gradebook column, as deep linking would have placed them.
Run again, it changes nothing that is there already."""

from django.core.management.base import BaseCommand
from django.db import transaction

from autograder.service.lti.demo_platform.models import Course, LineItem, Member, ResourceLink
from autograder.service.lti.demo_platform.views import ROLES


class Command(BaseCommand):
    help = "make the demo's course, people and links (idempotent)"

    def add_arguments(self, parser):
        parser.add_argument("course")
        parser.add_argument("title")
        parser.add_argument("--person", action="append", default=[], metavar="ID:NAME:ROLE",
                            help=f"a member (ROLE: one of {', '.join(ROLES)})")
        parser.add_argument("--link", action="append", default=[], metavar="ASSIGNMENT:TITLE",
                            help="a link to one of the tool's assignments, with a column of 100 points")

    def handle(self, *args, course, title, person, link, **options):
        with transaction.atomic():
            course, _ = Course.objects.get_or_create(course_id=course, defaults={"title": title})
            for entry in person:
                user, name, role = entry.split(":", 2)
                Member.objects.update_or_create(course=course, user_id=f"lms-{user}",
                                                defaults={"name": name, "role": ROLES[role]})
            for entry in link:
                assignment, label = entry.split(":", 1)
                if ResourceLink.objects.filter(course=course, custom__assignment=assignment).exists():
                    continue
                placed = ResourceLink.objects.create(course=course, title=label, url="",
                                                     custom={"assignment": assignment})
                placed.line_item = LineItem.objects.create(
                    course=course, label=label, score_maximum=100.0, resource_id=assignment,
                    resource_link_id=str(placed.id), made_by="deep linking")
                placed.save()
