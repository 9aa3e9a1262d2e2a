"""The submission service (``python -m autograder serve``): trusted code, in two kinds of process.

- ``web/``: the web process (Django under gunicorn). Never root, never runs student code, never
  imports the references, the hidden tests or the rubric's secrets: it stores uploads, shows
  pages rendered from stored results, and enqueues grading jobs.
- ``grader/``: the grading worker process. It starts the sandbox as ``grade`` does (fork
  server, start-up checks, canaries), keeps it warm, and takes jobs from the database.

Both share only the database (``models.py``: the truth) and the rules in ``policy.py`` and
``queue.py``. ``settings.py`` reads the configuration; ``commands.py`` is the command line.
"""
