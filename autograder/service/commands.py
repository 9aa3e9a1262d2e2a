"""``python -m autograder serve`` and ``python -m autograder service ...``: the service's
command line. ``serve`` migrates the database, seeds the demo course when asked, and supervises
the web process and the grading workers; ``service`` holds the instructor's actions (sign-in
links from a roster, policies, regrades, adjustments, grades.csv, report, similarity) and the
grading worker itself."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from autograder import extras
from autograder.service.config import SETTINGS, ConfigError, ServiceConfig, use_command_line

DJANGO_SETTINGS = "autograder.service.settings"


def _add_setting_flags(parser: argparse.ArgumentParser) -> None:
    """A flag for every setting but the secret key: each beats the environment and the settings file."""
    parser.add_argument("--config", type=Path, help="a TOML file of settings (see docs/service/settings.md)")
    group = parser.add_argument_group("settings", "each beats its environment variable (KIT_SERVICE_<NAME>) and the"
                                                  " settings file; --show-config / service config show the result")
    for setting in SETTINGS:
        if setting.has_flag:
            group.add_argument(setting.flag, dest=f"setting_{setting.name}", metavar=setting.name.upper(),
                               help=setting.what)


def _use_setting_flags(args: argparse.Namespace) -> None:
    given = {name.removeprefix("setting_"): str(value) for name, value in vars(args).items()
             if name.startswith("setting_") and value is not None}
    if args.config is not None:
        given["config"] = str(args.config)
    use_command_line(given)


def _setup() -> None:
    """Django, on the kit's own settings whatever the shell holds: a ``DJANGO_SETTINGS_MODULE`` left
    there by another Django project would otherwise make every command fail to import it (or, worse,
    run on that project's database). One line says it was set aside."""
    extras.require("service", "python -m autograder serve (and service)")  # before Django is imported
    inherited = os.environ.get("DJANGO_SETTINGS_MODULE", "")
    if inherited and inherited != DJANGO_SETTINGS:
        print(f"service: using the kit's own Django settings ({DJANGO_SETTINGS}), not DJANGO_SETTINGS_MODULE="
              f"{inherited} from the environment", file=sys.stderr)
    os.environ["DJANGO_SETTINGS_MODULE"] = DJANGO_SETTINGS  # the processes serve starts inherit it
    import django

    django.setup()


def _migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autograder service",
                                     description="The submission service's instructor commands and grading worker.")
    _add_setting_flags(parser)
    commands = parser.add_subparsers(dest="action", required=True)
    commands.add_parser("config", help="each setting's effective value and where it comes from (secrets masked)")
    commands.add_parser("migrate", help="create or update the database")
    commands.add_parser("worker", help="run one grading worker (serve starts them)")
    links = commands.add_parser("links", help="a personal sign-in link for every student of a roster CSV")
    links.add_argument("roster", type=Path, help="a CSV with a student_id column (name, email optional)")
    links.add_argument("--days", type=float, help="how long the links stay valid (default: the setting, 30)")
    links.add_argument("--out", type=Path, help="write student_id,name,email,link here (default: print)")
    instructor = commands.add_parser("instructor", help="make (or reuse) an instructor and print a sign-in link")
    instructor.add_argument("user_id")
    instructor.add_argument("--name", default="")
    revoke = commands.add_parser("revoke", help="end a person's access: sign-in links, API tokens and every session")
    revoke.add_argument("user_id")
    token = commands.add_parser("token", help="make an API token for a student (printed once)")
    token.add_argument("user_id")
    token.add_argument("--create", action="store_true", help="make the student first when there is none of that id"
                       " (else the command refuses: a typo would make a stranger)")
    token.add_argument("--name", default="", help="the name a student made by --create is greeted with")
    accounts = commands.add_parser("accounts", help="join two accounts of one person (a roster's and an LMS's)")
    accounts_actions = accounts.add_subparsers(dest="accounts_action", required=True)
    merge = accounts_actions.add_parser("merge", help="move FROM's submissions, adjustments, sign-in links, API tokens"
                                        " and LTI identities to INTO, then delete FROM (one transaction)")
    merge.add_argument("source", metavar="FROM", help="the account to merge, e.g. ana@moodle")
    merge.add_argument("target", metavar="INTO", help="the account that stays, e.g. ana")
    merge.add_argument("--dry-run", action="store_true", help="say what would move, change nothing")
    accounts_actions.add_parser("duplicates", help="accounts of an LMS named <id>@<platform> because <id> was taken:"
                                " most often one person")
    policy = commands.add_parser("policy", help="show or change an assignment's policy")
    policy.add_argument("assignment")
    policy.add_argument("--due", help="2026-03-01T23:59 (the course's time zone) or with an offset"
                        " (2026-03-01T23:59+01:00), or 'none'")
    policy.add_argument("--late-penalty", help="percent of the maximum per started day late")
    policy.add_argument("--closes", help="hard deadline, as --due, or 'none'")
    policy.add_argument("--visibility", choices=["everything", "score", "public"], help="what students see before due")
    policy.add_argument("--counts", choices=["latest", "best"])
    policy.add_argument("--per-hour", type=int, help="submissions per hour (0: no limit)")
    policy.add_argument("--total", type=int, help="submissions in all (0: no limit)")
    policy.add_argument("--accepting", choices=["yes", "no"])
    policy.add_argument("--hint-charges", help="points per hint tier: '0, 0.5, 1' for every stage, 'split_heads: 0, 1,"
                        " 2' for one, rows apart with ';'; 'none' for no charge, '' for the rubric's")
    regrade = commands.add_parser("regrade", help="queue a regrade of one submission, an assignment, or all")
    group = regrade.add_mutually_exclusive_group(required=True)
    group.add_argument("--submission", type=int)
    group.add_argument("--assignment")
    group.add_argument("--all", action="store_true")
    adjust = commands.add_parser("adjust", help="add points (negative: take) to a student's assignment, with a reason")
    adjust.add_argument("user_id")
    adjust.add_argument("assignment")
    adjust.add_argument("points", type=float)
    adjust.add_argument("reason")
    for name, what in (("grades", "grades.csv, as `grade` writes it"), ("report", "the class report (HTML)"),
                       ("similarity", "the similarity page (HTML)")):
        command = commands.add_parser(name, help=f"write {what}")
        command.add_argument("--out", type=Path, required=True)
    commands.add_parser("status", help="the grading workers and the queue")
    backup = commands.add_parser("backup", help="copy the database to a file, while the service runs (SQLite's"
                                 " online backup; pg_dump on PostgreSQL)")
    backup.add_argument("out", type=Path, help="the backup file to write (0600: it holds the tool's keys)")
    restore = commands.add_parser("restore", help="put a backup in place of the database (stop serve first)")
    restore.add_argument("backup", type=Path, help="a file that `service backup` wrote")
    restore.add_argument("--replace", action="store_true", help="replace a database that already holds a service")
    restore.add_argument("--secret-key", type=Path, metavar="OLD_KEY_FILE",
                         help="the backed-up service's <data>/secret_key, put in place with the database so that its"
                         " sign-in links and sessions still work")
    commands.add_parser("passback", help="deliver scores to LMS gradebooks (serve starts one)")
    lti = commands.add_parser("lti", help="LTI 1.3: register learning platforms, rotate the tool's key")
    lti_actions = lti.add_subparsers(dest="lti_action", required=True)
    lti_actions.add_parser("show", help="the tool's addresses for an LMS, the platforms, the keys")
    register = lti_actions.add_parser("register", help="register (or update) a learning platform")
    register.add_argument("name", help="a short label of yours, e.g. moodle")
    register.add_argument("--issuer", required=True, help="the platform's issuer (iss), as it gave it")
    register.add_argument("--client-id", required=True, help="the client id the platform gave the tool")
    register.add_argument("--login-url", required=True, help="the platform's OIDC authorization endpoint")
    register.add_argument("--token-url", required=True, help="the platform's OAuth 2 access token endpoint")
    register.add_argument("--jwks-url", required=True, help="the platform's public key set (JWKS) URL")
    register.add_argument("--audience", default="", help="the token endpoint's audience, when not its URL")
    register.add_argument("--deployment", action="append", default=[], help="a deployment id (repeat for more)")
    register.add_argument("--service-host", action="append", help="a host (host or host:port) that serves the LMS's"
                          " grades and class lists, when its launches name one besides its own addresses (repeat for"
                          " more; given, it replaces the list)")
    lti_actions.add_parser("rotate-key", help="make a new signing key (the old one stays published for a day)")
    lti_actions.add_parser("roster", help="fetch each LMS course's class list (Names and Role Provisioning)")
    demo = lti_actions.add_parser("demo", help="try LTI on this machine: the kit's stand-in LMS beside the service,"
                                  " with a course of an instructor and two learners (make lti-demo); Ctrl-C stops both")
    demo.add_argument("--folder", type=Path, help="keep the demo's data here, and reuse it (default: a new temporary"
                      " folder)")
    demo.add_argument("--service-port", type=int, default=8000, help="the service's port (default 8000)")
    demo.add_argument("--platform-port", type=int, default=8001, help="the stand-in LMS's port (default 8001)")
    return parser


def service_main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        _use_setting_flags(args)
        if args.action == "config":
            print(ServiceConfig.load().report())
            return 0
        if args.action == "lti" and args.lti_action == "demo":  # two Django projects, each in its own processes
            extras.require("service", "python -m autograder service lti demo")
            from autograder.service.lti.demo import run

            return run(args.folder, args.service_port, args.platform_port)
        _setup()
        return _service_action(args)
    except ConfigError as error:
        print(f"service: {error}", file=sys.stderr)
        return 2


def _service_action(args: argparse.Namespace) -> int:
    if args.action == "migrate":
        _migrate()
        return 0
    if args.action == "worker":
        return _worker()
    if args.action == "passback":
        return _passback()
    if args.action == "lti":
        from autograder.service.lti.admin import lti_command

        return lti_command(args)
    if args.action == "accounts":
        from autograder.service.merging import accounts_command

        return accounts_command(args)
    if args.action in ("backup", "restore"):
        from autograder.service import backup

        try:
            if args.action == "backup":
                print(backup.backup(args.out))
            else:
                print(backup.restore(args.backup, args.replace, args.secret_key))
        except backup.BackupError as error:
            print(error, file=sys.stderr)
            return 1
        return 0
    from django.conf import settings

    from autograder.service import accounts, gradebook, queue
    from autograder.service.addresses import link_base_url
    from autograder.service.models import Adjustment, Grading, GradingWorker, Submission
    from autograder.student.curriculum import ASSIGNMENTS

    config = settings.CONFIG
    if args.action == "links":
        try:
            entries = accounts.read_roster(args.roster)
        except accounts.RosterError as error:
            print(error, file=sys.stderr)
            return 2
        made = accounts.links_for_roster(entries, link_base_url(config), args.days or config.signin_link_days)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["student_id", "name", "email", "link"])
        writer.writerows([entry.student_id, entry.name, entry.email, link] for entry, link in made)
        if args.out:
            descriptor = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the links are secrets
            with os.fdopen(descriptor, "w") as handle:
                handle.write(buffer.getvalue())
            print(f"{len(made)} sign-in links written to {args.out} (older links of these students still work until"
                  " they expire or you revoke them)")
        else:
            print(buffer.getvalue(), end="")
        return 0
    if args.action == "instructor":
        base_url = link_base_url(config)  # before anyone is made
        user = accounts.person(args.user_id, instructor=True, name=args.name)
        print(accounts.make_signin_link(user, base_url, config.signin_link_days))
        return 0
    from django.contrib.auth import get_user_model

    def user_named(name: str):
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise SystemExit(f"there is no user {name!r} (make links from a roster first)")
        return user

    if args.action == "revoke":
        links, tokens = accounts.revoke_access(user_named(args.user_id))
        print(f"revoked {links} sign-in links and {tokens} API tokens, and ended every session of {args.user_id}")
        return 0
    if args.action == "token":
        return _token(args)
    if args.action in ("policy", "adjust") and args.assignment not in ASSIGNMENTS:
        print(f"unknown assignment {args.assignment!r}; the assignments are {', '.join(ASSIGNMENTS)}", file=sys.stderr)
        return 2
    if args.action == "policy":
        return _policy(args)
    if args.action == "regrade":
        chosen = Submission.objects.all()
        if args.submission is not None:
            chosen = chosen.filter(id=args.submission)
        elif args.assignment:
            chosen = chosen.filter(assignment_id=args.assignment)
        print(f"queued {queue.regrade(list(chosen))} regrades")
        return 0
    if args.action == "adjust":
        if not args.reason.strip():
            raise SystemExit("an adjustment needs a reason")
        from django.db import transaction

        from autograder.service.lti.passback import queue_scores

        with transaction.atomic():
            user = user_named(args.user_id)
            Adjustment.objects.create(user=user, assignment_id=args.assignment, points=args.points,
                                      reason=args.reason.strip()[:500], created_by="command line")
            queue_scores(user, args.assignment, "adjusted")
        print(f"{args.user_id}, {args.assignment}: {args.points:+g} points ({args.reason.strip()})")
        return 0
    if args.action == "grades":
        from autograder.records.files import write_atomically

        write_atomically(args.out, gradebook.grades_csv(gradebook.class_rows()))
        print(f"wrote {args.out}")
        return 0
    if args.action in ("report", "similarity"):
        from autograder.records.files import write_atomically

        html = gradebook.report_page() if args.action == "report" else gradebook.similarity_page()
        write_atomically(args.out, html)
        print(f"wrote {args.out}")
        return 0
    if args.action == "status":
        for worker in GradingWorker.objects.all()[:20]:
            print(f"worker {worker.worker_id}: {worker.state} {worker.message[:200]}")
        counts = {state: Grading.objects.filter(state=state).count() for state in ("queued", "running", "done")}
        print(f"queue: {counts}")
        return 0
    return 2


def _policy(args: argparse.Namespace) -> int:
    """``service policy ASSIGNMENT [--due ...]``: the options given, over the stored policy, checked
    by the policy page's own form (``web/policy_form.py``), so that a value means the same and is
    refused in the same words in both; nothing is saved unless every value holds."""
    from django.conf import settings

    from autograder.feedback.moments import shown_moment
    from autograder.service.policy import policy_for
    from autograder.service.web.policy_form import OPTIONS, PolicyForm

    zone = settings.CONFIG.time_zone  # a typed time without an offset is the course's
    policy = policy_for(args.assignment)
    given = {"due_at": args.due, "closes_at": args.closes, "late_penalty_percent": args.late_penalty,
             "visibility_before_due": args.visibility, "counts": args.counts,
             # on the command line 0 means no limit, as an empty field does on the page
             "per_hour_limit": None if args.per_hour is None else str(args.per_hour or ""),
             "total_limit": None if args.total is None else str(args.total or ""),
             "accepting": None if args.accepting is None else args.accepting == "yes",
             "hint_charges": args.hint_charges}
    data = PolicyForm.data_of(policy, zone) | {name: value for name, value in given.items() if value is not None}
    form = PolicyForm(data, language="en", zone=zone, assignment_id=args.assignment)
    if not form.is_valid():
        for name, messages in form.refusals().items():
            for message in messages:
                print(f"{OPTIONS[name]}: {message}", file=sys.stderr)
        print(f"{args.assignment}: nothing was changed", file=sys.stderr)
        return 2
    form.apply(policy)
    policy.save()
    print(f"{policy.assignment_id}: due {shown_moment(policy.due_at, zone) or 'none'}, late penalty"
          f" {policy.late_penalty_percent:g} % per day, closes {shown_moment(policy.closes_at, zone) or 'never'},"
          f" before due students see {policy.visibility_before_due},"
          f" counts the {policy.counts}, limits {policy.per_hour_limit or '-'}/hour {policy.total_limit or '-'} in"
          f" all, {'takes' if policy.accepting else 'does not take'} submissions, hint charges"
          f" {PolicyForm.data_of(policy, zone)['hint_charges'] or 'as the rubric says'}")
    return 0


def _token(args: argparse.Namespace) -> int:
    """``service token STUDENT``: a new API token, printed alone on stdout (a script reads it). An
    unknown id is refused, since it is most often a typo, unless ``--create`` asks for the student;
    what was made is said on stderr."""
    from django.contrib.auth import get_user_model

    from autograder.service import accounts

    existing = get_user_model().objects.filter(username=args.user_id).first()
    if existing is None and not args.create:
        print(f"there is no student {args.user_id!r}: make their sign-in link from a roster first (service links"
              f" roster.csv), or make the student now with `service token {args.user_id} --create --name \"...\"`",
              file=sys.stderr)
        return 2
    user = existing or accounts.person(args.user_id, name=args.name)
    if existing is None:
        print(f"made the student {args.user_id} ({user.first_name or 'no name'})", file=sys.stderr)
    print(accounts.make_api_token(user))
    return 0


def _worker() -> int:
    from django.conf import settings

    from autograder.records.jobs import GradeOptions
    from autograder.service.grader.runtime import run

    config = settings.CONFIG
    return run(GradeOptions(jobs=1, timeout=config.test_timeout, device=config.device))


def _passback() -> int:
    """The passback sender, until SIGTERM or Ctrl-C."""
    import threading

    from autograder.service.lti.sender import run

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return run(stop)


def _seed_demo(base_url: str, days: float) -> list[str]:
    """The demo course: an instructor, the example class's students and their notebooks."""
    from autograder.paths import KIT_ROOT
    from autograder.service import accounts
    from autograder.service.web.submitting import store_upload
    from autograder.service.web.uploads import Refusal

    lines = [f"instructor: {accounts.make_signin_link(accounts.person('instructor', instructor=True), base_url, days)}"]
    example = KIT_ROOT / "source_data" / "example_class"
    for folder in sorted(path for path in example.iterdir() if path.is_dir()):
        user = accounts.person(folder.name)
        for notebook in sorted(folder.glob("*/*.ipynb")):
            # The example class holds broken notebooks on purpose: the service refuses them.
            with contextlib.suppress(Refusal):
                store_upload(user, notebook.parent.name, notebook.name, notebook.read_bytes(), via="web")
        lines.append(f"{folder.name}: {accounts.make_signin_link(user, base_url, days)}")
    return lines


def serve_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder serve",
                                     description="Run the submission service: the web process and grading workers.")
    parser.add_argument("--workers", type=int, default=1, help="grading workers on this machine (default 1)")
    parser.add_argument("--web-processes", type=int, default=4, help="gunicorn worker processes (default 4)")
    parser.add_argument("--demo", action="store_true", help="on a new database, seed the demo course and print its"
                        " sign-in links (make serve does this)")
    parser.add_argument("--show-config", action="store_true", help="print each setting's effective value and where it"
                        " comes from (secrets masked), then stop")
    _add_setting_flags(parser)
    args = parser.parse_args(argv)
    try:
        _use_setting_flags(args)
        config = ServiceConfig.load()
        if args.show_config:
            print(config.report())
            return 0
        # prometheus-client's multiprocess folder (autograder.service.metrics): fresh for each serve,
        # named before any process imports the library, which reads it once.
        metrics_folder = Path(tempfile.mkdtemp(prefix="attention-kit-metrics-"))
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_folder)
        try:
            return _serve(args, config, metrics_folder)
        finally:
            shutil.rmtree(metrics_folder, ignore_errors=True)
    except ConfigError as error:
        print(f"serve: {error}", file=sys.stderr)
        return 2


def _serve(args: argparse.Namespace, config: ServiceConfig, metrics_folder: Path) -> int:
    from autograder.service.addresses import link_base_url, record_listening
    from autograder.service.privileges import ensure_web_user, prepare_data_dir

    # As root, the web's own user and its folder come first: the secret key and the database are
    # made in it, never readable by anyone else.
    owner = ensure_web_user(config.web_user) if os.geteuid() == 0 else None
    prepare_data_dir(config.data_dir, owner)
    record_listening(config)
    print(f"Course time zone: {config.time_zone} (due times typed without an offset are read in it; run the"
          " service commands with the same settings)", flush=True)
    demo_links_base = link_base_url(config) if args.demo else ""
    if config.origins["base_url"].kind == "default" and not config.listens_on_loopback:
        print(f"serve: base_url is the built-in default {config.base_url}, but serve listens on {config.host}: pages"
              f" answer only to {', '.join(config.allowed_hosts)}, and links carry that address. Set base_url to the"
              " address people use (--base-url, KIT_SERVICE_BASE_URL or the settings file).", file=sys.stderr)
    _setup()
    from django.contrib.auth import get_user_model

    _migrate()
    from autograder.service.lti.keys import current_key

    current_key()  # the tool's signing key, before any process may need it
    if args.demo and not get_user_model().objects.exists():
        print("Demo course: sign in with these links (each is a person's own):")
        for line in _seed_demo(demo_links_base, config.signin_link_days):
            print("  " + line)
    elif args.demo:
        print(f"Demo course: already in {config.data_dir}, so no new sign-in links; make one with"
              " `python -m autograder service instructor ID` (or `service links ROSTER.csv` for students)")
    prepare_data_dir(config.data_dir, owner)  # what the migrations made is the web user's too
    if owner is not None:
        os.chown(metrics_folder, *owner)  # the web processes write their counts there
    from django.db import connections

    connections.close_all()  # nothing of this process's connections crosses a fork
    return _supervise(args, config)


def _fork(run, *args) -> int:
    """A child of serve running ``run(*args)``, which exits with it. gunicorn ends its arbiter, and
    each of the web workers it forks from there, with ``sys.exit``: that is their exit status, no
    failure to print."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = run(*args) or 0
        except SystemExit as stop:
            code = _exit_status(stop)
        except BaseException:  # noqa: BLE001 - say why the child could not run, then go
            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):  # os._exit flushes nothing
                with contextlib.suppress(Exception):
                    stream.flush()
            os._exit(code)
    return pid


def _exit_status(stop: SystemExit) -> int:
    """The status ``sys.exit(value)`` gives the interpreter: a number as it is, None as 0, a
    message printed and 1."""
    if stop.code is None or isinstance(stop.code, int):
        return stop.code or 0
    print(stop.code, file=sys.stderr)
    return 1


def _supervise(args, config) -> int:
    """Run the web process, the passback sender and the grading workers until stopped; restart a
    worker or the sender when it dies. Exits 0 only when every child stopped with status 0."""
    from autograder.service.lti.sender import serve_unprivileged
    from autograder.service.webserver import run_web

    web_pid = _fork(run_web, f"{config.host}:{config.port}", args.web_processes, config.web_user)
    sender_pid = _fork(serve_unprivileged, config.web_user)
    worker_command = [sys.executable, "-m", "autograder", "service", "worker"]
    # The workers resolve their settings as serve did: its flags travel as their variables, which
    # beat the same variables and the settings file alike.
    worker_environment = {**os.environ, **config.given_on_command_line()}

    def start_worker() -> subprocess.Popen:
        return subprocess.Popen(worker_command, env=worker_environment)

    workers = [start_worker() for _ in range(max(0, args.workers))]
    stopping = False

    def stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"Serving on {config.base_url} (web pid {web_pid}; grading workers {[w.pid for w in workers]}; passback"
          f" sender pid {sender_pid}); Ctrl-C stops", flush=True)
    try:
        while not stopping:
            time.sleep(0.5)
            finished, _ = os.waitpid(web_pid, os.WNOHANG)
            if finished:
                print("the web process stopped; stopping the service", file=sys.stderr)
                web_pid = 0
                return 1
            if os.waitpid(sender_pid, os.WNOHANG)[0]:
                print("the passback sender stopped; starting another", file=sys.stderr, flush=True)
                sender_pid = _fork(serve_unprivileged, config.web_user)
            for index, worker in enumerate(workers):
                if worker.poll() is not None:
                    print(f"grading worker {worker.pid} stopped (exit {worker.returncode}); starting another",
                          file=sys.stderr, flush=True)
                    workers[index] = start_worker()
    finally:
        unclean = _stop_children({"the web process": web_pid, "the passback sender": sender_pid}, workers)
        for line in unclean:
            print(f"{line} did not stop cleanly", file=sys.stderr, flush=True)
        if not unclean:
            print("serve stopped: every process exited cleanly", flush=True)
    return 1 if unclean else 0


def _stop_children(forked: dict[str, int], workers: list[subprocess.Popen]) -> list[str]:
    """SIGTERM to each child (a grading worker finishes its job first; after 20 s it is killed),
    then what did not exit with status 0, each named with its status."""
    for worker in workers:
        if worker.poll() is None:
            worker.terminate()
    for pid in forked.values():
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
    unclean = []
    for worker in workers:
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        if worker.returncode != 0:
            unclean.append(f"grading worker {worker.pid} (exit status {worker.returncode})")
    for name, pid in forked.items():
        if pid:
            with contextlib.suppress(ChildProcessError):
                status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                if status != 0:
                    unclean.append(f"{name} {pid} (exit status {status})")
    return unclean
