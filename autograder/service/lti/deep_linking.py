"""Deep linking: the kit's assignments, offered to an instructor in the LMS's "add external tool"
dialog, each as a signed content item the LMS turns into a link (and a gradebook column).

Each assignment's response is signed when the page is drawn, so that one button posts it straight
back to the LMS: the pages carry no script. A link opens the tool in a window of its own (the
service's pages refuse frames), names its assignment in a custom parameter, and asks for a line
item of the assignment's maximum.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from autograder.service.lti.launch import ASSIGNMENT_PARAMETER, ServiceLaunch
from autograder.service.lti.titles import assignment_title
from autograder.service.models import LtiContext, LtiResourceLink
from autograder.service.policy import max_score
from autograder.student.curriculum import ASSIGNMENTS

LINE_ITEM_TAG = "attention-kit"


class WindowLink(DeepLinkResource):
    """A resource link the LMS opens in a window of its own."""

    def to_dict(self) -> dict:
        return {**super().to_dict(), "window": {"targetName": "attention-kit"}}


@dataclass(frozen=True)
class Offer:
    assignment_id: str
    title: str
    response_jwt: str  # the signed deep linking response that adds this assignment
    links_already: int  # how many links to it the course holds (the service has seen launched)


@dataclass(frozen=True)
class Offers:
    return_url: str  # where the LMS takes a response back
    items: list[Offer]
    cancel_jwt: str  # a response with no content items (LTI Deep Linking allows it): the LMS adds nothing

    @property
    def any_linked(self) -> bool:
        return any(offer.links_already for offer in self.items)


def offers(launch: ServiceLaunch, launch_url: str, context: LtiContext) -> Offers:
    """One signed offer per assignment, with the links the course already has to it, and a signed
    way back that adds nothing."""
    deep_link = launch.get_deep_link()
    settings = launch.get_launch_data()["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]
    linked = Counter(LtiResourceLink.objects.filter(context=context).values_list("assignment_id", flat=True))
    made = []
    for assignment in ASSIGNMENTS:
        title = assignment_title(assignment)
        line_item = (LineItem().set_score_maximum(max_score(assignment)).set_label(title)
                     .set_resource_id(assignment).set_tag(LINE_ITEM_TAG))
        link = (WindowLink().set_url(launch_url).set_title(title).set_custom_params({ASSIGNMENT_PARAMETER: assignment})
                .set_lineitem(line_item))
        made.append(Offer(assignment, title, deep_link.get_response_jwt([link]), linked[assignment]))
    return Offers(settings["deep_link_return_url"], made, deep_link.get_response_jwt([]))
