"""The helpers of a notebook in English, as its setup cell imports them:

    from attention_kit_student.en import check, hint, predict, reveal, needs, tr, submit
"""

from .notebook import notebook_helpers

check, hint, predict, reveal, needs, tr, submit = notebook_helpers("en")
