"""A stand-in learning platform, for ``make lti-demo`` (``../demo.py``) and the service's LTI
tests: the platform side of LTI 1.3 Advantage is
lti1p3platform's (OpenID Connect login and id_token signing, the OAuth 2 access tokens, the
Assignment and Grade Services' and Names and Role Provisioning's endpoints, deep linking
responses checked against the tool's keys); this small Django project hosts it, as an LMS hosts
such a library: its courses, people, links, gradebook columns and scores live in its own SQLite
database (so they outlast a restart), and its pages are what a person clicks in an LMS.

Every score it takes is also kept as a receipt, in the order it arrived, for the tests to count.
``../demo.py`` runs it under gunicorn on loopback beside the service, and so does
``tests/lti_harness.py``. It is no LMS to run a course on: it signs anyone in who asks.

A launch may be started with knobs for what a misconfigured or attacked platform sends: a token
``lifetime`` (negative: expired on arrival), another ``audience`` (client id) or ``deployment``.
"""
