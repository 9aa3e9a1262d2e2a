"""The helpers of a notebook in Chinese, as its setup cell imports them:

    from attention_kit_student.zh import check, hint, predict, reveal, needs, tr, submit
"""

from .notebook import notebook_helpers

check, hint, predict, reveal, needs, tr, submit = notebook_helpers("zh")
