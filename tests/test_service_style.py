"""The service's look: every page in Chromium loads the service's own stylesheets (Pico CSS, vendored,
and the kit's rules) with no Content-Security-Policy violation, and reads on a phone (375 px wide)
and at 200 % zoom (a 1280-pixel window is then 640 CSS pixels wide) without the page scrolling
sideways (a wide table scrolls inside itself). The vendored file is the one its manifest names."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from service_harness import LiveService, notebook_bytes

from autograder.service.web.middleware import POLICY
from autograder.service.web.static import STYLESHEETS
from tools.vendor_css import STATIC_DIR, VENDORED_MANIFEST

A01 = "01_attention_scores"
PHONE = {"width": 375, "height": 800}
ZOOMED = {"width": 640, "height": 800}  # a 1280-pixel-wide window at 200 %
LAPTOP = {"width": 1000, "height": 800}  # the documentation's screenshots' width
DESKTOP = {"width": 1280, "height": 800}
# The kit's self-contained pages (the class report, similar submissions): their own inline style,
# allowed by its hash, and no stylesheet link.
SELF_CONTAINED = ("/instructor/report", "/instructor/similarity")
LOAD_FAILED = "Failed to load resource"  # a resource's failure: its response, below, says which


def test_the_vendored_stylesheet_is_the_one_its_manifest_names():
    manifest = json.loads((STATIC_DIR / VENDORED_MANIFEST).read_text(encoding="utf-8"))
    stylesheet = (STATIC_DIR / manifest["file"]).read_bytes()
    assert hashlib.sha256(stylesheet).hexdigest() == manifest["sha256"], "run `make vendor-css`"
    assert f"Pico CSS \N{SPARKLES} v{manifest['version']} ".encode() in stylesheet[:200]
    assert manifest["license"] == "MIT"
    assert "MIT License" in (STATIC_DIR / manifest["license_file"]).read_text(encoding="utf-8")
    assert manifest["file"] in STYLESHEETS


def test_the_policy_allows_no_inline_style_but_the_kit_pages_own():
    style_sources = re.search(r"style-src ([^;]+);", POLICY).group(1).split()
    assert style_sources[0] == "'self'"
    assert "'unsafe-inline'" not in style_sources
    hashes = style_sources[1:]  # the kit's self-contained pages' inline blocks
    assert hashes
    assert all(source.startswith("'sha256-") for source in hashes)


@pytest.fixture(scope="module")
def service():
    live = LiveService().start()
    yield live
    live.close()


def _signed_in_page(browser, service, user: str, instructor: bool = False):
    """A page in a fresh context, signed in as ``user``; ``page.errors`` collects its console's
    errors (Chromium reports each CSP violation there) and every resource of a page that failed
    (the page itself may be a refusal: its status is checked where it is loaded)."""
    page = browser.new_context().new_page()
    page.errors = []
    page.on("console", lambda message: message.type == "error" and not message.text.startswith(LOAD_FAILED)
            and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("response", lambda answer: answer.status >= 400 and answer.request.resource_type != "document"
            and page.errors.append(f"{answer.status}: {answer.url}"))
    page.goto(service.link_for(user, instructor))
    _check_page(page, "sign-in")
    page.click("#signin")
    page.wait_for_url(re.compile(r"/(instructor/)?$"))
    return page


def _check_page(page, name: str, self_contained: bool = False) -> None:
    """The page as it is now: styled by the service's stylesheets, no console error, and no
    sideways scroll of the page at a phone's width, at 200 % zoom, in a laptop's window and on a desktop."""
    page.wait_for_load_state("load")  # its stylesheets too, after a click
    if not self_contained:
        linked = page.evaluate("[...document.styleSheets].map(sheet => [sheet.href, sheet.cssRules.length])")
        assert [href.rsplit("/", 1)[-1] for href, _ in linked] == list(STYLESHEETS), name
        assert all(rules > 10 for _, rules in linked), name
        # Pico's variables, as the kit's stylesheet sets them: both apply.
        root = "getComputedStyle(document.documentElement)"
        assert page.evaluate(f"{root}.getPropertyValue('--pico-font-size')").strip() == "100%", name
        assert page.evaluate(f"{root}.getPropertyValue('--kit-bad')").strip() == "#a3221b", name
    else:
        assert page.evaluate("document.styleSheets.length") == 1, name  # its inline block, applied
    for viewport in (PHONE, ZOOMED, LAPTOP, DESKTOP):
        page.set_viewport_size(viewport)
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"{name} scrolls sideways at {viewport['width']} px: {widths}"
    assert page.errors == [], name


def _visit(page, url: str, name: str, status: int = 200, self_contained: bool = False) -> None:
    answer = page.goto(url)
    assert answer.status == status, name
    _check_page(page, name, self_contained)


@pytest.mark.live
@pytest.mark.browser
def test_every_page_is_styled_without_csp_violations_and_fits_a_phone_and_200_percent_zoom(service, browser,
                                                                                          tmp_path):
    student = _signed_in_page(browser, service, "mei")
    url = service.url
    _visit(student, f"{url}/", "student home")
    _visit(student, f"{url}/assignments/{A01}", "assignment")
    notebook = tmp_path / f"{A01}.ipynb"
    notebook.write_bytes(notebook_bytes("ben_partial", A01))
    student.set_input_files("#notebook", str(notebook))
    student.click("#submit")
    # The queue's page refreshes itself until graded (the same template as the result's).
    student.wait_for_selector("#score", timeout=60_000)
    _check_page(student, "result")
    submission = student.url
    for language in ("en", "zh", "pt"):
        _visit(student, f"{submission}?lang={language}", f"result ({language})")
    _visit(student, f"{submission}/feedback", "feedback")
    assert "Not yet right" in student.inner_text("main")
    # The service's header, in the notebook's language: home, and back to the submission it came from.
    assert student.locator("header a").all_text_contents() == ["Home", "Back to your submission"]
    student.click("header >> text=Back to your submission")
    student.wait_for_url(submission)
    student.go_back()
    # One-line findings are sentences (prose), not code blocks.
    assert student.locator("main pre").count() == 0
    assert student.locator("p.finding").count() > 0
    assert student.locator("p.finding").first.evaluate("element => getComputedStyle(element).fontFamily") == \
        student.evaluate("getComputedStyle(document.body).fontFamily")
    assert student.locator(".failed").first.evaluate("element => getComputedStyle(element).color") == \
        "rgb(163, 34, 27)"  # the kit's colour for a finding that is not yet right
    _visit(student, f"{url}/assignments/{A01}?lang=zh", "assignment with history (zh)")
    assert student.locator("#history .status-done").count() == 1
    assert student.locator("#history .counts").count() == 1
    _visit(student, f"{url}/token?lang=pt", "token")
    student.click("#new-token")
    _check_page(student, "token shown")
    bad = tmp_path / "notes.txt"
    bad.write_text("not a notebook")
    _visit(student, f"{url}/assignments/{A01}", "assignment")
    student.set_input_files("#notebook", str(bad))
    student.click("#submit")
    _check_page(student, "refusal")
    _visit(student, f"{url}/no-such-page", "not found", status=404)
    _visit(student, f"{url}/instructor/", "not found (a student at the instructor's page)", status=404)
    _visit(student, f"{url}/signin/not-a-link", "sign-in refused", status=404)
    # A form sent without its CSRF token: Django's 403 page, the kit's own.
    _visit(student, f"{url}/token", "token")
    student.evaluate("document.querySelectorAll('input[name=csrfmiddlewaretoken]').forEach(field => field.remove())")
    student.click("#new-token")
    assert student.locator("h1").inner_text() == "Please try again"
    _check_page(student, "CSRF refusal")

    teacher = _signed_in_page(browser, service, "teacher", instructor=True)
    _visit(teacher, f"{url}/instructor/", "instructor dashboard")
    _visit(teacher, f"{url}/instructor/policies/{A01}", "policy")
    teacher.fill("#due_at", "tomorrow")
    teacher.click("#save-policy")
    _check_page(teacher, "policy refused")
    _visit(teacher, f"{url}/instructor/class", "class")
    _visit(teacher, f"{url}/instructor/students/mei", "a student")
    _visit(teacher, f"{submission}/feedback", "feedback, as the instructor")
    for path in SELF_CONTAINED:
        _visit(teacher, url + path, path, self_contained=True)
