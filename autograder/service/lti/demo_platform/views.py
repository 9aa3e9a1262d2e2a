"""The stand-in LMS's pages and services, each a thin host of lti1p3platform's classes."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from lti1p3platform.exceptions import LineItemNotFoundException, LtiServiceException
from lti1p3platform.framework.django.request import DjangoRequest
from lti1p3platform.framework.django.response import wrap_json_resp
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService

from autograder.service.lti.demo_platform.models import (
    Course,
    LineItem,
    Member,
    PendingLaunch,
    ResourceLink,
    Score,
    ScoreReceipt,
)

LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
ROLES = {"Learner": LIS + "membership#Learner", "Instructor": LIS + "membership#Instructor",
         "TeachingAssistant": LIS + "membership/Instructor#TeachingAssistant", "Mentor": LIS + "membership#Mentor",
         "ContentDeveloper": LIS + "membership#ContentDeveloper"}
SYSTEM_USER = LIS + "system/person#User"


def _url(path: str) -> str:
    return settings.PLATFORM_URL + path


class Platform(LTI1P3PlatformConfAbstract):
    """The platform's one registration: the attention kit's tool."""

    def init_platform_config(self, **kwargs) -> None:
        tool = settings.TOOL_URL
        self._registration = (
            Registration().set_iss(settings.PLATFORM_URL).set_client_id(settings.CLIENT_ID)
            .set_deployment_id(settings.DEPLOYMENT_ID).set_launch_url(tool + "/lti/launch")
            .set_deeplink_launch_url(tool + "/lti/launch").set_oidc_login_url(tool + "/lti/login")
            .set_tool_key_set_url(tool + "/lti/jwks")
            .set_platform_public_key((settings.DATA / "platform_public.pem").read_text())
            .set_platform_private_key((settings.DATA / "platform_private.pem").read_text()))

    def get_registration_by_params(self, **kwargs) -> Registration:
        return self._registration


class Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, hint: str) -> None:
        self._lti_message_hint = hint

    def get_redirect(self, url: str) -> HttpResponseRedirect:
        return HttpResponseRedirect(url)


class Launch(LTIAdvantageMessageLaunchAbstract):
    """A launch message, with the knobs of a misconfigured platform applied once the tool's
    authentication request has been checked."""

    def __init__(self, request, platform, pending: PendingLaunch):
        super().__init__(request, platform)
        self.pending = pending

    def prepare_launch(self, preflight_response) -> None:
        if self.pending.audience:
            self._registration.set_client_id(self.pending.audience)
        if self.pending.deployment:
            self._registration.set_deployment_id(self.pending.deployment)

    def render_launch_form(self, launch_data, **kwargs) -> HttpResponse:
        return HttpResponse(render_to_string("launch.html", launch_data))


# -- what a person clicks ----------------------------------------------------------------------------
def signin(request):
    """Sign in as a person of a course (the test's stand-in for the LMS's own sign-in)."""
    course, _ = Course.objects.get_or_create(course_id=request.GET["course"],
                                             defaults={"title": request.GET.get("title", "A course")})
    user = request.GET["user"]
    request.session.update({"user": user, "name": request.GET.get("name", user.title()), "course": course.course_id,
                            "roles": [ROLES[role] for role in request.GET.get("role", "Learner").split(",")]})
    Member.objects.update_or_create(course=course, user_id=f"lms-{user}", defaults={
        "name": request.session["name"], "role": " ".join(request.session["roles"])})
    return redirect(f"/course/{course.course_id}/")


def _role_names(member: Member) -> str:
    return ", ".join(name for name, uri in ROLES.items() if uri in member.role.split()) or "no role"


def home(request):
    """Every course, with a button per link and person: it signs that person in and launches the link."""
    courses = []
    for course in Course.objects.order_by("course_id"):
        people = [(member, _role_names(member)) for member in Member.objects.filter(course=course).order_by("id")]
        links = [(link, [member for member, _ in people]) for link in ResourceLink.objects.filter(course=course)
                 .order_by("id")]
        teachers = [member for member, roles in people if ROLES["Instructor"] in member.role.split()]
        courses.append({"course": course, "people": people, "links": links, "teachers": teachers})
    return render(request, "home.html", {"courses": courses, "tool_url": settings.TOOL_URL})


def enter(request, course_id: str, user: str):
    """Sign in as a member of a course (the stand-in's sign-in: anyone may be anyone), then go on to
    ``next``: one of the platform's own pages, else the course's."""
    member = get_object_or_404(Member, course_id=course_id, user_id=f"lms-{user}")
    request.session.update({"user": member.login, "name": member.name,
                            "course": member.course_id, "roles": member.role.split()})
    wanted = request.GET.get("next", "")
    own_page = wanted.startswith(("/launch/", "/course/", "/gradebook/")) and "//" not in wanted
    return redirect(wanted if own_page else f"/course/{member.course_id}/")


def _teaches(request) -> bool:
    return ROLES["Instructor"] in request.session.get("roles", [])


def course_page(request, course_id: str):
    """The course as its signed-in person sees it: a launch link per assignment; a teacher also
    adds tools."""
    course = get_object_or_404(Course, course_id=course_id)
    return render(request, "course.html", {"course": course, "links": ResourceLink.objects.filter(course=course),
                                           "user": request.session.get("user"), "name": request.session.get("name"),
                                           "teacher": _teaches(request)})


def _start(request, course: Course, link: ResourceLink | None):
    """The platform's side of a launch: remember it, then send the browser to the tool's login."""
    knobs = request.GET
    pending = PendingLaunch.objects.create(
        hint=secrets.token_urlsafe(16), course=course, link=link, user_id=f"lms-{request.session['user']}",
        name=request.session["name"], roles=[*request.session["roles"], SYSTEM_USER],
        lifetime=int(knobs.get("lifetime", 300)), audience=knobs.get("audience", ""),
        deployment=knobs.get("deployment", ""), lineitems=knobs.get("lineitems", ""),
        memberships=knobs.get("memberships", ""))
    login = Login(DjangoRequest(request), Platform())
    login.set_lti_message_hint(pending.hint)
    if link is None:
        login.set_deeplinking_launch_url()
    return login.initiate_login(pending.user_id)


def launch_link(request, link_id: int):
    link = get_object_or_404(ResourceLink, id=link_id)
    return _start(request, link.course, link)


def add_tool(request, course_id: str):
    """"Add external tool": a deep linking launch."""
    return _start(request, get_object_or_404(Course, course_id=course_id), None)


def authorize(request):
    """The OpenID Connect authorization endpoint the tool's login sends the browser to."""
    asked = request.GET.dict() or request.POST.dict()
    pending = PendingLaunch.objects.filter(hint=asked.get("lti_message_hint", "")).first()
    if pending is None or asked.get("login_hint") != pending.user_id:
        return HttpResponse("Unknown launch, or another person's.", status=403)
    if asked.get("redirect_uri") != settings.TOOL_URL + "/lti/launch":
        return HttpResponse("That redirect URI is not the tool's.", status=400)
    course = pending.course
    launch = Launch(DjangoRequest(request), Platform(), pending)
    launch.set_id_token_expiration(pending.lifetime)
    user = pending.user_id.removeprefix("lms-")
    launch.set_user_data(pending.user_id, pending.roles, full_name=pending.name, email_address=f"{user}@example.edu")
    launch.set_extra_claims({"https://purl.imsglobal.org/spec/lti/claim/lis": {"person_sourcedid": user}})
    launch.set_launch_context_claim(course.course_id, context_title=course.title, context_label=course.course_id)
    lineitems = pending.lineitems or _url(f"/ags/{course.course_id}/lineitems")
    link = pending.link
    line_item = None
    if link and link.line_item_id:
        line_item = f"{lineitems}/{link.line_item_id}"
    elif link and pending.lineitems:
        line_item = f"{lineitems}/1"  # a column on the other host
    launch.set_ags(lineitems, line_item, True, True, True)
    launch.set_nrps(pending.memberships or _url(f"/nrps/{course.course_id}"))
    if link is None:
        launch.set_dl(_url(f"/deep-link-return/{pending.hint}"), title="Add a tool", accept_types={"ltiResourceLink"})
    else:
        launch.set_resource_link_claim(str(link.id), title=link.title)
        launch.set_custom_parameters_claim(link.custom)
    return launch.lti_launch()


def deep_link_return(request, hint: str):
    """The tool's deep linking response: each resource link it sends is placed in the course, with
    its gradebook column when it asks for one (as Moodle and Canvas do)."""
    pending = get_object_or_404(PendingLaunch, hint=hint)
    try:
        items = Platform().validate_deeplinking_resp(request.POST.dict())
    except Exception as error:  # noqa: BLE001 - the page says why the tool's response was refused
        return HttpResponse(f"The tool's response was refused: {error}", status=400)
    for item in items:
        link = ResourceLink.objects.create(course=pending.course, title=item.get("title", ""), url=item.get("url", ""),
                                           custom=item.get("custom", {}))
        if item.get("lineItem"):
            wanted = item["lineItem"]
            link.line_item = LineItem.objects.create(
                course=pending.course, label=wanted.get("label", link.title), score_maximum=wanted["scoreMaximum"],
                resource_id=wanted.get("resourceId", ""), tag=wanted.get("tag", ""), resource_link_id=str(link.id),
                made_by="deep linking")
            link.save()
    return redirect(f"/course/{pending.course.course_id}/")


def gradebook(request, course_id: str):
    """The scores the tool sent back, by person's name: all of them for a teacher (or someone not
    signed in, as the demo's printed address opens it), a learner's own for a learner."""
    course = get_object_or_404(Course, course_id=course_id)
    scores = Score.objects.filter(line_item__course=course).select_related("line_item")
    signed_in = request.session.get("course") == course.course_id and request.session.get("user")
    if signed_in and not _teaches(request):
        scores = scores.filter(user_id=f"lms-{request.session['user']}")
    names = dict(Member.objects.filter(course=course).values_list("user_id", "name"))
    rows = [(score, names.get(score.user_id, score.user_id)) for score in scores.order_by("line_item_id", "user_id")]
    return render(request, "gradebook.html", {"course": course, "rows": rows, "zone": settings.TIME_ZONE})


# -- what the tool calls ------------------------------------------------------------------------------
def jwks(request):
    platform = Platform()
    return JsonResponse(platform.get_jwks())


def token(request):
    try:
        return JsonResponse(Platform().get_access_token(request.POST.dict()))
    except Exception as error:  # noqa: BLE001 - an OAuth 2 error answer
        return JsonResponse({"error": "invalid_client", "error_description": str(error)}, status=400)


class Gradebook(AssignmentsGradesService):
    """Assignment and Grade Services over the platform's gradebook tables."""

    def __init__(self, request, course: Course):
        self.course = course
        super().__init__(DjangoRequest(request), Platform(), _url(f"/ags/{course.course_id}/lineitems"))

    def _item(self, line_item_id) -> LineItem:
        item = LineItem.objects.filter(course=self.course, id=int(line_item_id)).first()
        if item is None:
            raise LineItemNotFoundException
        return item

    def _json(self, item: LineItem) -> dict:
        return {"id": f"{self.ags.lineitems_url}/{item.id}", "label": item.label, "scoreMaximum": item.score_maximum,
                "resourceId": item.resource_id, "tag": item.tag, "resourceLinkId": item.resource_link_id}

    def find_lineitems(self, page=1, limit=None, line_item_id=None, resource_link_id=None, resource_id=None, tag=None,
                       **others):
        items = LineItem.objects.filter(course=self.course).order_by("id")
        for field, value in (("resource_link_id", resource_link_id), ("resource_id", resource_id), ("tag", tag)):
            if value:
                items = items.filter(**{field: value})
        return {"content": [self._json(item) for item in items], "has_next": False}

    def find_lineitem(self, line_item_id):
        return self._json(self._item(line_item_id))

    def create_lineitem(self, creation_data):
        return self._json(LineItem.objects.create(
            course=self.course, label=creation_data.get("label", ""), score_maximum=creation_data["scoreMaximum"],
            resource_id=creation_data.get("resourceId", ""), tag=creation_data.get("tag", ""),
            resource_link_id=creation_data.get("resourceLinkId", ""), made_by="tool"))

    def update_lineitem(self, update_data):
        item = self._item(update_data["id"])
        item.label = update_data.get("label", item.label)
        item.score_maximum = update_data.get("scoreMaximum", item.score_maximum)
        item.save()
        return self._json(item)

    def delete_lineitem(self, line_item_id) -> None:
        self._item(line_item_id).delete()

    def update_score(self, line_item_id, score) -> UpdateScoreStatus:
        item = self._item(line_item_id)
        if not Member.objects.filter(course=self.course, user_id=score["userId"]).exists():
            # As Canvas answers for a person who left the course: refused, for good.
            raise LtiServiceException("User not found in course or is not a student", 422)
        timestamp = datetime.fromisoformat(score["timestamp"])
        held = Score.objects.filter(line_item=item, user_id=score["userId"]).first()
        receipt = {"line_item_id": item.id, "user_id": score["userId"], "score_given": score.get("scoreGiven"),
                   "timestamp": score["timestamp"], "comment": score.get("comment", ""),
                   "submitted_at": (score.get("submission") or {}).get("submittedAt", "")}
        if held is not None and timestamp < held.timestamp:  # the AGS rule: never an older score over a newer
            ScoreReceipt.objects.create(**receipt, outcome=UpdateScoreStatus.OLD_TIMESTAMP.value)
            return UpdateScoreStatus.OLD_TIMESTAMP
        Score.objects.update_or_create(line_item=item, user_id=score["userId"], defaults={
            "score_given": score["scoreGiven"], "score_maximum": score["scoreMaximum"],
            "comment": score.get("comment", ""), "timestamp": timestamp, "submitted_at": receipt["submitted_at"]})
        outcome = UpdateScoreStatus.SUCCESS if held is not None else UpdateScoreStatus.CREATED
        ScoreReceipt.objects.create(**receipt, outcome=outcome.value)
        return outcome

    def get_results(self, line_item_id, page=1, limit=None, user_id=None, **others):
        item = self._item(line_item_id)
        scores = Score.objects.filter(line_item=item)
        return {"content": [{"id": f"{self.ags.lineitems_url}/{item.id}/results/{s.user_id}", "userId": s.user_id,
                             "resultScore": s.score_given, "resultMaximum": s.score_maximum,
                             "scoreOf": f"{self.ags.lineitems_url}/{item.id}"} for s in scores], "has_next": False}


def ags_lineitems(request, course_id: str):
    service = Gradebook(request, get_object_or_404(Course, course_id=course_id))
    handler = service.handle_create_lineitem if request.method == "POST" else service.handle_get_lineitems
    return wrap_json_resp(service.handle_resp(handler))


def ags_lineitem(request, course_id: str, item_id: int):
    service = Gradebook(request, get_object_or_404(Course, course_id=course_id))
    handler = {"PUT": service.handle_update_lineitem, "DELETE": service.handle_delete_lineitem}.get(
        request.method, service.handle_get_lineitem)
    return wrap_json_resp(service.handle_resp(handler, line_item_id=str(item_id)))


def ags_scores(request, course_id: str, item_id: int):
    service = Gradebook(request, get_object_or_404(Course, course_id=course_id))
    return wrap_json_resp(service.handle_resp(service.handle_update_score, line_item_id=str(item_id)))


def ags_results(request, course_id: str, item_id: int):
    service = Gradebook(request, get_object_or_404(Course, course_id=course_id))
    return wrap_json_resp(service.handle_resp(service.handle_get_results, line_item_id=str(item_id)))


class Roster(NamesRoleProvisioningService):
    """Names and Role Provisioning over the course's members."""

    def __init__(self, request, course: Course):
        self.course = course
        super().__init__(DjangoRequest(request), Platform(), _url(f"/nrps/{course.course_id}"))

    def get_member_data_page(self, page=1, limit=None, role=None, since=None, **others):
        return {"content": [{"user_id": m.user_id, "name": m.name, "roles": m.role.split(),
                             "lis_person_sourcedid": m.user_id.removeprefix("lms-")}
                            for m in Member.objects.filter(course=self.course).order_by("id")], "has_next": False}

    def get_context_by_id(self) -> Context:
        return Context(id=self.course.course_id, label=self.course.course_id, title=self.course.title)


def nrps(request, course_id: str):
    service = Roster(request, get_object_or_404(Course, course_id=course_id))
    return wrap_json_resp(service.handle_resp(service.handle_get_members))
