"""The forms a notebook asks for in words, read off the torch functions a call makes: the grader
charges or notes them and the public check says the same (``selfcheck/forms.py``), each from the
same names, so the two never disagree.

Notebook 3 asks for its running mean through a softmax of masked scores (the stage exists to find
the -inf score, and is graded on it; its matmul twin computes the same values), for the running
mean of ``causal_average_matmul`` as one matrix product (noted for no points: running sums give
the same values, and the next stage builds on the matrix), and for a masked
softmax in one pass (noted for no points), with no second normalisation after a softmax. A
softmax written from exp and a sum is one pass, and is not told as a renormalisation. On the
grader's side a consulted stand-in answers on the trusted side, and shows as "stage:<name>" among
the names (``worker/stand_ins.ANSWERED``).
"""

from __future__ import annotations

from collections.abc import Collection

SOFTMAXES = frozenset({"softmax", "_softmax", "log_softmax", "_log_softmax", "exp", "exp_", "logsumexp",
                       "scaled_dot_product_attention", "stage:softmax_naive", "stage:softmax_stable",
                       "stage:masked_softmax",
                       "stage:causal_average_softmax"})
LIBRARY_SOFTMAXES = frozenset({"softmax", "_softmax", "stage:softmax_naive", "stage:softmax_stable"})
SUMS = frozenset({"sum", "nansum", "stage:mask_and_renormalize"})
# A matrix product in any of its spellings (``@`` records as "matmul").
MATRIX_PRODUCTS = frozenset({"matmul", "mm", "bmm", "einsum", "tensordot", "linear", "addmm", "baddbmm",
                             "addbmm", "chain_matmul", "multi_dot", "inner", "vecdot"})
FORMS = ("softmax", "one_pass", "matrix_product")
# The numbers of tokens a Python loop over them is told by: its torch calls grow from the first to
# the second (the grader's note and the check's alike).
LOOP_TOKENS = (3, 9)


def missing_form(form: str, called: Collection[str]) -> str | None:
    """The key of the form ``form`` (one of ``FORMS``) that the torch functions ``called`` miss:
    "no_softmax" (no softmax of any kind), "renormalised" (one of torch's softmaxes, then a sum),
    "no_matrix_product" (none in any spelling); None when the call has the form."""
    made = set(called)
    if form == "softmax" and not made & SOFTMAXES:
        return "no_softmax"
    if form == "one_pass" and made & LIBRARY_SOFTMAXES and made & SUMS:
        return "renormalised"
    if form == "matrix_product" and not made & MATRIX_PRODUCTS:
        return "no_matrix_product"
    return None
