"""The named mistakes: what each one is and how to fix it, by id.

One text per mistake, shared by the self-checks' hints and the grader's feedback (which names
a mistake when a failed answer reproduces its output), so each is written and translated once
(``locales/<language>/mistakes.json``).
"""

from __future__ import annotations

MISTAKES: dict[str, str] = {
    "elementwise_product": (
        "you multiplied element by element without adding up: a dot product also sums over the"
        " features (inputs @ query)."
    ),
    "transposed_product": (
        "you computed inputs.T @ inputs, which compares features; attention scores compare"
        " tokens: inputs @ inputs.T gives one row and one column per token."
    ),
    "softmax_wrong_dim": (
        "the softmax normalised over the wrong dimension: normalise along `dim` (for attention"
        " weights the last one, so that each query's weights sum to 1)."
    ),
    "softmax_whole_tensor": (
        "you divided by the sum over the whole tensor; sum along `dim` only, with keepdim=True."
    ),
    "softmax_missing_keepdim": (
        "the sum lost its dimension, so the division broadcast along the wrong axis: use"
        " sum(dim=dim, keepdim=True)."
    ),
    "softmax_overflow": (
        "exp overflowed on large inputs (inf / inf gives NaN): subtract the maximum along `dim`"
        " before taking exp."
    ),
    "softmax_global_max": (
        "you subtracted the maximum of the whole tensor, so rows far below it underflow to 0 / 0:"
        " subtract the maximum along `dim` (keepdim=True)."
    ),
    "missing_softmax": (
        "the scores were used as weights without a softmax: normalise them first, so that each"
        " row sums to 1."
    ),
    "returned_weights": (
        "you returned the attention weights; return the context vectors, weights @ inputs."
    ),
    "no_sqrt_scaling": (
        "the attention scores were not divided by sqrt(d_k), the square root of the key size."
    ),
    "scaled_by_d_k": "the scores were divided by d_k itself instead of its square root.",
    "scaled_by_wrong_size": (
        "the scores were scaled with the wrong size: divide by the square root of the size of one"
        " key vector, keys.shape[-1] (the head size in multi-head attention), not d_in, d_out or"
        " the number of tokens."
    ),
    "keys_T_on_batch": (
        "keys.T on a batch reverses every dimension, (b, T, d) -> (d, T, b); transpose only the"
        " last two: keys.transpose(-2, -1) or keys.mT."
    ),
    "mask_after_softmax": (
        "the future was zeroed after the softmax without renormalising, so rows no longer sum to"
        " 1: mask the scores with -inf before the softmax, or divide by the row sums again."
    ),
    "mask_hides_diagonal": (
        "the mask also hides the diagonal, but a token must see itself: hide only the positions"
        " above the diagonal (torch.triu(..., diagonal=1))."
    ),
    "mask_swapped": (
        "the mask hides the past instead of the future (tril and triu swapped, or the mask"
        " transposed): hide the positions above the diagonal."
    ),
    "mask_inverted": (
        "the mask has the opposite meaning: True must mark the hidden positions, those above the"
        " diagonal."
    ),
    "future_leak": (
        "an output changed when only later tokens changed, so the attention sees the future:"
        " hide the positions above the diagonal before the softmax."
    ),
    "prefix_sum": (
        "the rows of the lower-triangular matrix were not normalised, so you computed running"
        " sums instead of running means."
    ),
    "dropout_not_rescaled": (
        "the surviving elements were not rescaled: inverted dropout divides them by (1 - p)."
    ),
    "dropout_scaled_by_p": (
        "the survivors were scaled with p, or multiplied instead of divided: divide them by"
        " (1 - p)."
    ),
    "dropout_keep_probability": (
        "elements were kept with probability p, but p is the probability of zeroing an element."
    ),
    "dropout_in_eval": (
        "dropout was active outside training: when training is off the input must pass through"
        " unchanged (nn.Dropout does this after .eval())."
    ),
    "dropout_missing": (
        "no attention weight was dropped in training mode: apply dropout to the attention"
        " weights, after the softmax, while the module is training."
    ),
    "dropout_on_output": (
        "dropout was applied to the context vectors, not to the attention weights: drop"
        " attention weights, then multiply by the values."
    ),
    "view_without_transpose": (
        "the heads were split or merged with view alone: view(b, T, h, head_dim) then"
        " transpose(1, 2) to split, and transpose(1, 2).contiguous().view(b, T, d_out) to merge;"
        " viewing straight to the other layout mixes tokens and heads."
    ),
    "missing_out_proj": "the output projection out_proj was not applied to the merged heads.",
    "heads_concat_wrong_dim": (
        "the heads' outputs were concatenated along the wrong dimension: concatenate along the"
        " last (feature) dimension, dim=-1."
    ),
}
