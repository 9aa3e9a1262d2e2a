"""The service pages' own words, in English; ``autograder/locales/<lang>/service.json``
translates them key for key. A page's language is the one its reader chose (the links at the top),
else that of their latest notebook; the feedback page itself is always in the notebook's language."""

from __future__ import annotations

from collections.abc import Mapping

from autograder.paths import LOCALES_DIR
from autograder.student import language as languages

SERVICE_TEXT: dict[str, str] = {
    "title": "Attention kit: submissions",
    "sign_out": "Sign out",
    "sign_out_everywhere": "Sign out everywhere",
    "sign_out_everywhere_help": "Ends every session of yours, in every browser, and revokes your API tokens.",
    "welcome": "Sign in with the personal link your instructor sent you. Each link is yours alone: do not share it.",
    "signin.confirm": "Sign in as {name}?",
    "signin.button": "Sign in",
    "signin.bad": "This sign-in link is not valid: it may have expired or been replaced by a newer one. Ask your"
                  " instructor for a new link.",
    "signin.revoked": "This sign-in link was revoked: it signs no one in any more. Ask your instructor for a new link"
                      " if you still need one.",
    "signin.expired": "This sign-in link has expired. Ask your instructor for a new link.",
    "assignments": "Your assignments",
    "column.assignment": "Assignment",
    "column.due": "Due",
    "column.counted": "Score that counts",
    "column.submissions": "Submissions",
    "column.received": "Received",
    "column.score": "Score",
    "column.state": "State",
    "no_due": "no due date",
    "closes": "no submissions after {time}",
    "open_assignment": "Submit or see your history",
    "upload.heading": "Submit your notebook",
    "upload.help": "Upload your {assignment}.ipynb (or the zip from otter's grader.export()). Up to {limit_mb} MB.",
    "upload.button": "Submit",
    "history": "Your submissions",
    "history.none": "You have not submitted this assignment yet.",
    "history.counts": "counts",
    "counting.latest": "Your latest graded submission counts.",
    "counting.best": "Your best graded submission counts.",
    "limits": "Limits: {per_hour} per hour, {total} in all.",
    "limit.none": "none",
    "state.queued": "waiting to be graded",
    "state.running": "being graded",
    "state.done": "graded",
    "queue.position": "Your notebook was received at {time}. It is number {position} in the queue; this page"
                      " refreshes itself.",
    "queue.running": "Your notebook was received at {time} and is being graded now; this page refreshes itself.",
    "result.score": "Score: {score} of {max_score}",
    "result.feedback": "Open the feedback page",
    "result.score_only": "Your instructor shows only the score until the due date ({due}); the feedback page opens"
                         " then.",
    "result.public_only": "Until the due date ({due}) your instructor shows only the public checks: run"
                          " check(\"<stage>\") in your notebook. The hidden tests' score and feedback open then.",
    "result.received": "Received {time} (the server's clock).",
    "result.late": "Late by {days} day(s): {penalty} points off.",
    "result.counts_now": "This submission now counts for {assignment} (before: {before}).",
    "result.best_counts": "Your best submission ({score}) still counts.",
    "result.gradebook_sent": "Your score was sent to your course's gradebook.",
    "result.gradebook_pending": "Your score will be sent to your course's gradebook.",
    "back": "Back to the assignment",
    "home": "Home",
    "token.heading": "API token for CI",
    "token.help": "Paste this token when submit() asks for it in your notebook (it is kept in your user's config"
                  " folder on that computer, never in the notebook), or put it in a CI secret named KIT_TOKEN so"
                  " that a CI job in your repository submits for you. Anyone with the token can submit as you:"
                  " do not share it.",
    "token.new": "Make a new token",
    "token.revoke": "Revoke all my tokens",
    "token.shown_once": "Your new token (shown only now; copy it: paste it when submit() asks, or into the secret"
                        " KIT_TOKEN):",
    "token.active": "Active tokens: {count}",
    "refused": "Your upload was not accepted, and nothing was stored.",
    "refusal.too_large": "The file is larger than {limit_mb} MB. Upload the .ipynb itself (outputs cleared:"
                         " Edit > Clear outputs of all cells), not a folder or an archive of other files.",
    "refusal.empty_file": "The file is empty. Save your notebook (File > Save) and upload the .ipynb file.",
    "refusal.no_file": "No file was chosen. Choose your .ipynb file, then press Submit.",
    "refusal.not_a_notebook": "{filename} is not a Jupyter notebook. Upload the .ipynb file you worked in (or the zip"
                              " that otter's grader.export() made).",
    "refusal.not_a_notebook_image": "{filename} is an image, not a notebook: the grader runs your code, so it needs"
                                    " the notebook itself. In Jupyter, File > Download saves your .ipynb file;"
                                    " upload that.",
    "refusal.not_a_notebook_pdf": "{filename} is a PDF document, not a notebook: a PDF keeps no code the grader can"
                                  " run. In Jupyter, File > Download saves your .ipynb file; upload that.",
    "refusal.not_a_notebook_html": "{filename} is a web page (HTML), not a notebook: an exported page keeps no code"
                                   " the grader can run. In Jupyter, File > Download saves your .ipynb file; upload"
                                   " that.",
    "refusal.not_a_notebook_python": "{filename} is a Python file, not a notebook: the grader reads your answers from"
                                     " the notebook's cells. Upload the .ipynb file you worked in (in Jupyter, File >"
                                     " Download).",
    "refusal.not_a_notebook_text": "{filename} is plain text, not a notebook. Upload the .ipynb file you worked in (in"
                                   " Jupyter, File > Download).",
    "refusal.not_a_notebook_archive": "{filename} is a compressed archive other than a zip, not a notebook. Upload the"
                                      " .ipynb file itself, or the zip that otter's grader.export() made.",
    "refusal.not_a_notebook_damaged": "{filename} starts like a notebook but is damaged: it ends too early, or was"
                                      " changed outside Jupyter, and cannot be read. Download your notebook again from"
                                      " Jupyter (File > Download) and upload that.",
    "refusal.not_a_notebook_json": "{filename} is a JSON file, but not a notebook (it has no cells). Upload the .ipynb"
                                   " file you worked in (in Jupyter, File > Download).",
    "refusal.not_a_notebook_detail": "{filename} cannot be graded: {detail}.",
    "refusal.empty_notebook": "{filename} is a notebook without a line of code. Save the notebook you worked in (File"
                              " > Save), download it (File > Download) and upload that.",
    "refusal.wrong_assignment": "{filename} looks like the notebook of {other}, not of {expected}: its answer cells are"
                                " {other}'s. Submit it to {other}, and the notebook of {expected} here.",
    "refusal.damaged_zip": "{filename} is a damaged zip file: it cannot be opened. Make the zip again with otter's"
                           " grader.export(), or upload the .ipynb itself.",
    "refusal.zip_bomb": "{filename} unpacks to far more than a notebook: upload the .ipynb itself.",
    "refusal.zip_without_notebook": "The zip {filename} holds no notebook named {expected}: upload the .ipynb itself.",
    "refusal.duplicate": "You uploaded this same file a moment ago; it is already in the queue.",
    "refusal.per_hour": "You have used this hour's submissions. The next one is allowed at {next_allowed}.",
    "refusal.total": "You have used all the submissions this assignment allows.",
    "refusal.closed": "This assignment no longer takes submissions (it closed at {closes_at}).",
    "refusal.not_accepting": "This assignment does not take submissions now.",
    "refusal.unknown_assignment": "There is no assignment {assignment} here.",
    "language": "Language",
    "lti.refused": "The launch from your course was refused, and nothing was stored:",
    "lti.why.unknown_platform": "this learning platform ({issuer}) is not registered with the service. Ask the"
                                " service's administrator to register it.",
    "lti.why.wrong_audience": "it was meant for another tool (client id {audience}), not this one. The learning"
                              " platform and the service must be registered with the same client id.",
    "lti.why.bad_signature": "its signature does not match the learning platform's keys: it was changed on the way,"
                             " or not signed by the platform.",
    "lti.why.expired": "it had expired when it arrived (or a clock is far off). Open the link in your course again.",
    "lti.why.replayed": "it was used already: a launch works once. Open the link in your course again.",
    "lti.why.state": "it did not come back to the browser that started it. Open the link in your course again, and"
                     " allow cookies for this site.",
    "lti.why.unknown_deployment": "this deployment of the tool ({deployment}) is not registered with the service. Ask"
                                  " the service's administrator to add it.",
    "lti.why.platform_keys": "the service could not fetch the learning platform's keys ({url}). Try again in a"
                             " moment; if it lasts, tell the service's administrator.",
    "lti.why.unknown_role": "your role in this course is not one the service knows. Students need the Learner role;"
                            " teachers Instructor, Administrator or Teaching Assistant.",
    "lti.why.not_instructor": "only a teacher of the course can add assignments.",
    "lti.why.no_assignment": "this link names none of the kit's assignments. Your teacher adds them with the course's"
                             " \"add external tool\" dialog.",
    "lti.why.malformed": "it is not an LTI 1.3 launch the service can read ({detail}).",
    "lti.deep_link.heading": "Add an assignment to your course",
    "lti.deep_link.help": "Each assignment becomes a link in your course that opens in a window of its own, with a"
                          " gradebook column that its scores are sent to.",
    "lti.deep_link.add": "Add to the course",
    "lti.deep_link.already": "Already in this course",
    "lti.deep_link.add_again": "Add a second link",
    "lti.deep_link.again_help": "Assignments marked \"Already in this course\" have a link there that someone has"
                                " launched. Adding one again makes a second link, with a second gradebook column.",
    "lti.deep_link.cancel": "Cancel: back to the course, nothing added",
    "policy.zone": "without an offset: the course's time, {zone} (now {offset})",
    "policy.saved": "Policy of {assignment} saved: due {due}.",
    "policy.saved_no_due": "Policy of {assignment} saved: no due date.",
    "policy.back": "Back to the instructor page",
    "policy.not_saved": "Not saved: the fields marked below need another value.",
    "policy.not_a_time": "{typed} is not a date and time. Write it as 2026-03-01 23:59 (the course's time, {zone}),"
                         " or with its offset from UTC, as 2026-03-01T23:59+01:00.",
    "policy.no_such_time": "{typed} does not exist in {zone}: the clocks jump from {start} to {end} that night."
                           " Type {end}, or give the time with its offset from UTC.",
    "policy.twice_time": "{typed} happens twice in {zone}: the clocks go back an hour that night. Give its offset"
                         " from UTC: {first} (the first time) or {second} (the second).",
    "policy.penalty_not_a_number": "{typed} is not a number: the late penalty is a percent of the maximum, from 0 to"
                                   " 100.",
    "policy.penalty_out_of_range": "The late penalty is a percent of the maximum, from 0 to 100, not {typed}.",
    "policy.limit_not_a_number": "{typed} is not a whole number: a limit counts submissions (leave it empty for"
                                 " none).",
    "policy.limit_below_one": "A limit is at least 1, not {typed} (leave it empty for none).",
    "policy.not_a_choice": "{typed} is not one of the options: {choices}.",
    # The hint charges' field (web/policy_form.py): {line} is the row as it was typed.
    "policy.hint_charges.not_three": "{line}: give {tiers} prices, one per hint tier, as 0, 0.5, 1.",
    "policy.hint_charges.not_a_number": "{line}: {typed} is not a number of points (write a half as 0.5).",
    "policy.hint_charges.negative": "{line}: a price is 0 points or more, not {typed}.",
    "policy.hint_charges.decreasing": "{line}: a higher tier never costs less than a lower one.",
    "policy.hint_charges.unknown_stage": "{stage} is no stage of {assignment}; its stages are {stages}.",
    "policy.hint_charges.twice": "{line}: that stage has a row already; keep one row per stage (and one without a"
                                 " stage, for every stage).",
    "class.heading": "Class",
    "class.download": "Download grades.csv",
    "class.download_help": "the same file python -m autograder grade writes",
    "class.filter": "Find a student (name or id)",
    "class.filter_button": "Find",
    "class.caption": "Each student's counted score per assignment (the link opens that submission), and the total."
                     " Press a column's heading to sort by it.",
    "class.student": "Student",
    "class.total": "Total",
    "class.late": "late",
    "class.adjusted": "adjusted",
    "class.none": "No student matches. Clear the search to see the whole class.",
    "class.count": "Students in the class: {students}.",
    "class.found": "{found} of {students} students match “{search}”.",
    "class.page": "Page {page} of {pages}.",
    "class.clear": "Clear search",
    "class.pages": "Pages of the class",
    "class.previous": "Previous page",
    "class.next": "Next page",
    "class.charts": "Scores and stages per assignment",
    "class.histogram": "Scores in {assignment}",
    "class.histogram_help": "Students per score band (percent of the maximum), of the {graded} whose counted"
                            " submission was graded; students without a graded submission are left out.",
    "class.stages": "Stages failed in {assignment}",
    "class.stages_help": "Students failing each stage (a hidden test of it failed), most first, of the {graded}"
                         " graded.",
    "class.no_stage_failed": "No graded student failed a stage.",
    "student.back": "Back to the class",
    "student.submissions": "Submissions",
    "student.counts": "counts",
    "student.counts_help": "The submission that counts for each assignment is marked counts.",
    "student.waiting": "not graded yet",
}


def page_text(language: str) -> Mapping[str, str]:
    return languages.messages(language, "service", SERVICE_TEXT, LOCALES_DIR)
