"""The helpers of a notebook in Portuguese, as its setup cell imports them:

    from attention_kit_student.pt import check, hint, predict, reveal, needs, tr
"""

from .notebook import notebook_helpers

check, hint, predict, reveal, needs, tr = notebook_helpers("pt")
