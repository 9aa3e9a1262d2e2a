"""LTI 1.3 Advantage: the service as a tool inside Moodle, Canvas and other learning platforms.

Built on pylti1p3next (the maintained successor of pylti1p3), whose Django adapter does the
protocol: the OpenID Connect login, the id_token's checks, deep linking responses, the OAuth 2
client assertions and Assignment and Grade Services. What is the service's own lives here:

- ``tool.py``: the registered platforms and deployments, read from the database (a ToolConf);
- ``keys.py``: the tool's own key pairs, rotated and published (JWKS);
- ``launch.py``: a launch's checks in the order that lets nothing be spent on a forged token (the
  nonce is used once, only after the signature held), roles, and who and what a launch is;
- ``deep_linking.py``: the content items an instructor adds to a course;
- ``passback.py``: the scores owed to a platform's gradebook, as rows (the truth);
- ``sender.py``: the process that delivers them, in order, with backoff.

The web pages are ``autograder/service/web/lti.py``.
"""
