"""The helpers of a notebook in Chinese, as its setup cell imports them:

    from attention_kit_student.zh import check, hint, predict, reveal, submit

(``needs`` and ``tr`` too, for notebooks released before demos waited and were translated by themselves.)
"""

from .notebook import notebook_helpers

check, hint, predict, reveal, needs, tr, submit = notebook_helpers("zh")
