"""The helpers of a notebook in Portuguese, as its setup cell imports them:

    from attention_kit_student.pt import check, hint, predict, reveal, needs, tr, submit
"""

from .notebook import notebook_helpers

check, hint, predict, reveal, needs, tr, submit = notebook_helpers("pt")
