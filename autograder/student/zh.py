"""The helpers of a notebook in Chinese, as its setup cell imports them:

    from attention_kit_student.zh import check, hint, predict, reveal, needs, tr
"""

from .notebook import notebook_helpers

check, hint, predict, reveal, needs, tr = notebook_helpers("zh")
