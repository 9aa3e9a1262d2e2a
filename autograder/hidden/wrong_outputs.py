"""What each known mistake outputs, so that a failure can name it.

Each ``*_mistakes`` function takes the reference (its functions, or a reference module that
holds the weights the student's module was given) and the very inputs the test used, and
returns the wrong outputs by mistake id (the ids of ``autograder.student.mistakes.MISTAKES``,
which says what to tell the student). ``autograder.hidden.compare`` computes them only after an
answer has failed, and names the mistake whose output the answer reproduces.

These functions compute wrong answers, never the right one: the reference lives in
``solutions/`` only.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import math
from collections.abc import Callable

import torch

from autograder.hidden import diagnosis

WrongOutputs = dict[str, list[torch.Tensor]]


def two_parts_wrong(compute: Callable[..., torch.Tensor], right: tuple, variants: tuple[dict[str, list], ...]
                    ) -> WrongOutputs:
    """The outputs of ``compute(*parts)`` with two of its independent parts wrong at once: part i is
    ``right[i]``, or one of the options of a mistake of ``variants[i]`` (mistake id -> options).
    Each pair is keyed by both ids joined with ``compare.COMBINED``, the earlier part's first (the
    order to fix them), so that an answer with two faults has both named. A pair whose parts do not
    fit together (their shapes do not multiply) gives nothing."""
    wrong: WrongOutputs = {}
    for first, second in itertools.combinations(range(len(right)), 2):
        for first_id, first_options in variants[first].items():
            for second_id, second_options in variants[second].items():
                outputs = []
                for first_option, second_option in itertools.product(first_options, second_options):
                    parts = list(right)
                    parts[first], parts[second] = first_option, second_option
                    with contextlib.suppress(RuntimeError):
                        outputs.append(compute(*parts))
                if outputs:
                    wrong[f"{first_id}+{second_id}"] = outputs
    return wrong


def _same(tensor: torch.Tensor) -> torch.Tensor:
    return tensor


def _last_two_swapped(tensor: torch.Tensor) -> torch.Tensor:
    return tensor.transpose(-2, -1)


def _triangle(size: int, device, *, upper: bool, diagonal: int) -> torch.Tensor:
    """A boolean triangle: True where the (possibly wrong) mask hides a position."""
    ones = torch.ones(size, size, dtype=torch.bool, device=device)
    return torch.triu(ones, diagonal) if upper else torch.tril(ones, diagonal)


def _future(size: int, device) -> torch.Tensor:
    return _triangle(size, device, upper=True, diagonal=1)


def _wrong_masks(size: int, device) -> WrongOutputs:
    """Masks that hide the wrong positions, by mistake id."""
    return {
        "mask_hides_diagonal": [_triangle(size, device, upper=True, diagonal=0)],
        "mask_shows_next": [_triangle(size, device, upper=True, diagonal=2)],
        "mask_swapped": [_triangle(size, device, upper=False, diagonal=-1),
                         _triangle(size, device, upper=False, diagonal=1)],
    }


# -- 01: attention without weights ---------------------------------------------------------
def dot_product_mistakes(inputs: torch.Tensor, query: torch.Tensor) -> WrongOutputs:
    """Wrong results of attention_scores_for_query(inputs, query)."""
    return {"elementwise_product": [inputs * query],
            "scores_summed": [(inputs @ query).sum()],
            "dot_product_wrong_dim": [(inputs * query).sum(dim=0)],
            "query_ignored": [inputs @ inputs[index] for index in range(inputs.shape[0])],
            "cosine_similarity": [torch.nn.functional.cosine_similarity(inputs, query[None, :], dim=-1)],
            "scores_as_distances": _distances(inputs - query),
            **_when_square(inputs, {"operands_swapped": lambda: [query @ inputs]})}


def _distances(differences: torch.Tensor) -> list[torch.Tensor]:
    """How far apart the vectors whose ``differences`` these are, along the features: squared and not,
    and negated (a "closer is higher" score); never a dot product."""
    squared = differences.pow(2).sum(dim=-1)
    return [squared, squared.sqrt(), -squared, -squared.sqrt()]


def _when_square(inputs: torch.Tensor, wrong: dict[str, Callable[[], list]]) -> WrongOutputs:
    """Mistakes whose product only has the right shape for a square (T, T) input: there, each
    output; for any other input, none."""
    return {mistake: outputs() for mistake, outputs in wrong.items()} if inputs.shape[0] == inputs.shape[1] else {}


def attention_scores_mistakes(reference, inputs: torch.Tensor) -> WrongOutputs:
    """Wrong results of attention_scores(inputs), from the reference's own function."""
    return {"transposed_product": [reference.attention_scores(inputs.T)],
            "elementwise_product": [inputs * inputs],
            "scaled_too_early": [reference.attention_scores(inputs) / math.sqrt(inputs.shape[-1])],
            "diagonal_changed": [reference.attention_scores(inputs).fill_diagonal_(0.0)],
            "cosine_similarity": [reference.attention_scores(_unit_rows(inputs))],
            "scores_as_distances": _distances(inputs[:, None, :] - inputs[None, :, :]),
            "scores_of_centred_inputs": [reference.attention_scores(inputs - inputs.mean(dim=0))],
            # The (T, T, d) products summed over a token axis, not the features: (T, d).
            "products_summed_over_tokens": [(inputs[:, None, :] * inputs[None, :, :]).sum(dim=0)],
            # The scale and the normalisation of a later notebook, both: softmax(scores / sqrt(d)).
            **two_parts_wrong(lambda divisor, normalise: normalise(reference.attention_scores(inputs) / divisor),
                              (1.0, _same), ({"scaled_too_early": [math.sqrt(inputs.shape[-1])]},
                                             {"returned_weights_not_scores": [_softmax_of_last]}))}


def _unit_rows(vectors: torch.Tensor) -> torch.Tensor:
    """Each row (each token, or the query) scaled to length 1: what a cosine similarity compares."""
    return vectors / vectors.norm(dim=-1, keepdim=True)


def _softmax_of_last(scores: torch.Tensor) -> torch.Tensor:
    return torch.softmax(scores, dim=-1)


def softmax_mistakes(reference, x: torch.Tensor, dim: int) -> WrongOutputs:
    """Wrong softmaxes of ``x`` along ``dim``, from the reference's own softmax functions."""
    # Along the last dim whatever ``dim`` says: the argument ignored, a mistake of its own.
    ignored = dim % x.ndim != x.ndim - 1
    other_dims = [d for d in range(x.ndim) if d != dim % x.ndim]
    wrong = {
        **({"softmax_dim_ignored": [reference.softmax_stable(x, dim=-1)]} if ignored else {}),
        "softmax_wrong_dim": [reference.softmax_stable(x, dim=d) for d in other_dims
                              if not (ignored and d == x.ndim - 1)],
        "softmax_whole_tensor": [reference.softmax_stable(x.flatten(), dim=0).view_as(x)],
        "softmax_overflow": [reference.softmax_naive(x, dim=dim)],
        "softmax_global_max": [reference.softmax_naive(x - x.max(), dim=dim)],
        "softmax_shift_not_max": [reference.softmax_naive(x - x.mean(dim=dim, keepdim=True), dim=dim),
                                  reference.softmax_naive(x - x.min(dim=dim, keepdim=True).values, dim=dim)],
        "softmax_max_wrong_dim": [reference.softmax_naive(x - x.max(dim=d, keepdim=True).values, dim=dim)
                                  for d in other_dims],
        "normalised_without_exp": [x / x.sum(dim=dim, keepdim=True)],
        # exp(x) over the sum of x (review of notebook 1: read as "not normalised" and as a factor)
        "denominator_without_exp": [torch.exp(x) / x.sum(dim=dim, keepdim=True)],
        "normalised_by_length": [torch.exp(x) / torch.exp(x).norm(dim=dim, keepdim=True)],
        "returned_log_softmax": [torch.log_softmax(x, dim=dim)],
        # exp(x - max) over the sum of exp(x): each slice sums to exp(-max) (and the sum overflows).
        "softmax_shift_numerator_only": [torch.exp(x - x.max(dim=dim, keepdim=True).values)
                                         / torch.exp(x).sum(dim=dim, keepdim=True)],
    }
    exps = torch.exp(x)
    shifted = torch.exp(x - x.max(dim=dim, keepdim=True).values)
    keepdim_lost = []
    # The sum lost its dim (the shift by the maximum right or left out), or the maximum did: on a
    # square input these broadcast along the other axis instead of raising.
    for lost in (lambda: exps / exps.sum(dim=dim), lambda: shifted / shifted.sum(dim=dim),
                 lambda: reference.softmax_naive(x - x.max(dim=dim).values, dim=dim)):
        with contextlib.suppress(RuntimeError):  # shapes that do not broadcast make it raise instead
            keepdim_lost.append(lost())
    if keepdim_lost:
        wrong["softmax_missing_keepdim"] = keepdim_lost
    return wrong


def context_vector_mistakes(attn_weights: torch.Tensor, inputs: torch.Tensor) -> WrongOutputs:
    """Wrong results of context_vector(attn_weights, inputs)."""
    return {"context_ignores_weights": [inputs.mean(dim=0), inputs.sum(dim=0)],
            "softmax_applied_twice": [torch.softmax(attn_weights, dim=0) @ inputs],
            "weighted_sum_wrong_dim": [(attn_weights[:, None] * inputs).sum(dim=1)],
            "weighted_sum_missing": [attn_weights[:, None] * inputs],
            **_when_square(inputs, {"operands_swapped": lambda: [inputs @ attn_weights]}),
            # both at once: the weights through another softmax, summed over the features (blind27/018)
            **two_parts_wrong(lambda weights, dim: (weights[:, None] * inputs).sum(dim=dim), (attn_weights, 0),
                              ({"softmax_applied_twice": [torch.softmax(attn_weights, dim=0)]},
                               {"weighted_sum_wrong_dim": [1]}))}


def simple_self_attention_mistakes(reference, inputs: torch.Tensor) -> WrongOutputs:
    """Wrong results of simple_self_attention(inputs), from the reference's scores and softmax."""
    scores = reference.attention_scores(inputs)
    weights = reference.softmax_stable(scores, dim=-1)
    wrong_weights = {
        "softmax_wrong_dim": [reference.softmax_stable(scores, dim=0)],
        "missing_softmax": [scores],
        "normalised_without_exp": [scores / scores.sum(dim=-1, keepdim=True)],
        "scaled_too_early": [reference.softmax_stable(scores / math.sqrt(inputs.shape[-1]), dim=-1)],
        # Rows divided by their sums, then transposed (or the columns by theirs): the two faults at once.
        "normalised_without_exp+softmax_wrong_dim": [scores / scores.sum(dim=0, keepdim=True)],
    }
    wrong_operands = {"weights_applied_to_scores": [scores]}  # what the weights multiply
    return {
        **{mistake: [option @ inputs for option in options] for mistake, options in wrong_weights.items()},
        "returned_weights": [weights],
        # Wrong weights, returned as they are (a scale of a later notebook taken too early, a softmax
        # along the columns: blind28/020): the output's two parts.
        **{f"{mistake}+returned_weights": options for mistake, options in wrong_weights.items() if "+" not in mistake},
        "weights_applied_to_scores": [weights @ scores],
        # inputs @ weights: it raises unless the inputs are square (it is repaired there), and is
        # this same slip where it runs.
        **({"operands_swapped": [inputs @ weights]} if inputs.shape[-1] == weights.shape[-2] else {}),
        # The operand first: its fault shows in the output's shape.
        **two_parts_wrong(lambda operand, weights: weights @ operand, (inputs, weights),
                          (wrong_operands, wrong_weights)),
        # The scale of a later notebook beside a softmax along the columns. (Without exp, a scale
        # cancels in the normalisation: that pair is normalised_without_exp alone.)
        **two_parts_wrong(lambda divisor, normalise: normalise(scores / divisor) @ inputs,
                          (1.0, _softmax_of_last),
                          ({"scaled_too_early": [math.sqrt(inputs.shape[-1])]},
                           {"softmax_wrong_dim": [_softmax_of_first]})),
    }


def _softmax_of_first(scores: torch.Tensor) -> torch.Tensor:
    return torch.softmax(scores, dim=0)



# -- 02 to 04: scaled, masked attention ----------------------------------------------------
def scaled_scores_mistakes(scaled_scores: Callable, queries: torch.Tensor,
                           keys: torch.Tensor) -> WrongOutputs:
    """Wrong scaled scores, from the reference ``scaled_dot_product_scores``."""
    d_k = keys.shape[-1]
    right = scaled_scores(queries, keys)
    other_sizes = (set(keys.shape[:-1]) | set(queries.shape[:-1])) - {d_k}
    # Another size than d_k; one of 1 (one query) gives the unscaled scores too, which neither
    # mistake alone can then be told by: that output is a wrong scale, named no more precisely (its
    # share is the scale's either way, as the other inputs' names are).
    unscaled = "scores_scaled_wrongly" if 1 in other_sizes else "no_sqrt_scaling"
    wrong = {
        unscaled: [right * math.sqrt(d_k)],
        "scaled_by_d_k": [right / math.sqrt(d_k)],
        "scale_multiplied": [right * d_k] if d_k > 1 else [],
        "half_power_precedence": [right * math.sqrt(d_k) / divisor for divisor in (2 * d_k, d_k / 2)
                                  if diagnosis.half_power_divisor(divisor, d_k)],
        "scaled_by_wrong_size": [right * math.sqrt(d_k / size) for size in other_sizes - {1}],
        "scores_transposed": [right.transpose(-2, -1)],
        "returned_weights_not_scores": [torch.softmax(right, dim=-1)],
    }
    # The product's operands and its scale, each wrong: keys @ queries^T times sqrt(d_k), say.
    products = {"scores_transposed": [keys @ queries.transpose(-2, -1)]}
    if keys.ndim > 2:
        reversed_keys = keys.permute(*reversed(range(keys.ndim)))  # what keys.T does to a batch
        with contextlib.suppress(RuntimeError):  # most shapes make keys.T raise instead
            products["keys_T_on_batch"] = [queries @ reversed_keys]
            wrong["keys_T_on_batch"] = [queries @ reversed_keys / math.sqrt(d_k)]
    wrong.update(two_parts_wrong(lambda product, factor: product * factor,
                                 (queries @ keys.transpose(-2, -1), 1 / math.sqrt(d_k)),
                                 (products, {"no_sqrt_scaling": [1.0], "scaled_by_d_k": [1 / d_k],
                                             "scale_multiplied": [math.sqrt(d_k)]})))
    if keys.ndim > 2:
        # Two dims named from the front (transpose(0, 1), the 3-D habit on 4-D): where the shapes let
        # the product run (a cube), the same slip that raises, and is repaired, elsewhere. Not the
        # first and last of three, which is keys.T itself.
        fixed = []
        for first, second in itertools.combinations(range(keys.ndim), 2):
            if (first, second) in ((keys.ndim - 2, keys.ndim - 1), (0, 2) if keys.ndim == 3 else (-1, -1)):
                continue
            with contextlib.suppress(RuntimeError):
                product = queries @ keys.transpose(first, second) / math.sqrt(d_k)
                if product.shape == right.shape:
                    fixed.append(product)
        if fixed:
            wrong["transpose_fixed_dims"] = fixed
    return wrong


def _weights(scores: torch.Tensor, *, scale_dim: float, mask: torch.Tensor | None,
             softmax_dim: int = -1, mask_after_softmax: bool = False, fill: float = float("-inf"),
             empty_rows: float | None = None, divided_after: float = 1.0,
             mask_from_zeros: bool = False, softmax_twice: bool = False) -> torch.Tensor:
    """Attention weights computed the way a mistake computes them (the options say how):
    ``fill`` is what hidden scores become, ``empty_rows`` what a row with nothing visible gives
    (NaN from a softmax of -inf only; F.scaled_dot_product_attention gives 0), ``divided_after``
    what the weights are divided by after the softmax, ``mask_from_zeros`` a mask applied as
    ``mask * scores`` and then read back from the zeros (every score equal to 0 hidden),
    ``softmax_twice`` a second softmax over the weights."""
    if mask is not None and mask_from_zeros:
        scores = scores * ~mask
        mask = scores == 0
    if mask is not None and not mask_after_softmax:
        scores = scores.masked_fill(mask, fill)
    weights = torch.softmax(scores / math.sqrt(scale_dim), dim=softmax_dim) / divided_after
    if softmax_twice:
        weights = torch.softmax(weights, dim=softmax_dim)
    if empty_rows is not None:
        weights = weights.nan_to_num(empty_rows)
    if mask is not None and mask_after_softmax:
        weights = weights.masked_fill(mask, 0.0)
    return weights


def _weight_variants(d_k: int, num_tokens: int, other_sizes: set[int], causal: bool, device,
                     ndim: int) -> dict[str, list[dict]]:
    """The options of ``_weights`` that reproduce each mistake in computing the weights of scores
    with ``ndim`` dimensions (``other_sizes``: sizes a wrong scale may take instead of d_k)."""
    variants = {
        "no_sqrt_scaling": [{"scale_dim": 1}],
        "scaled_after_softmax": [{"scale_dim": 1, "divided_after": math.sqrt(d_k)}],
        "softmax_applied_twice": [{"softmax_twice": True}],
        "scaled_by_d_k": [{"scale_dim": d_k**2}],
        "scale_multiplied": [{"scale_dim": 1 / d_k}] if d_k > 1 else [],  # times sqrt(d_k): 1/sqrt(d_k) divides
        # d_k ** 1/2 read as (d_k ** 1) / 2: divided by 2·d_k, or by d_k/2 in brackets, where
        # nothing else divides by that number (``diagnosis.half_power_divisor``).
        "half_power_precedence": [{"scale_dim": divisor**2} for divisor in (2 * d_k, d_k / 2)
                                  if diagnosis.half_power_divisor(divisor, d_k)],
        "scaled_by_wrong_size": [{"scale_dim": size} for size in (other_sizes | {num_tokens}) - {d_k, 1}],
        "softmax_wrong_dim": [{"softmax_dim": dim} for dim in range(ndim - 1)],
    }
    if causal:
        future = _future(num_tokens, device)
        variants["mask_after_softmax"] = [{"mask_after_softmax": True}]
        variants["mask_missing"] = [{"mask": None}]
        variants["mask_filled_with_zero"] = [{"fill": 0.0}]
        variants["mask_from_values"] = [{"mask_from_zeros": True}]
        variants["mask_inverted"] = [{"mask": ~future}, {"mask": ~future, "empty_rows": 0.0}]
        for mistake_id, masks in _wrong_masks(num_tokens, device).items():
            variants[mistake_id] = [{"mask": mask} for mask in masks]
    return variants


# Which part of the computation each mistake of ``_weight_variants`` changes, in the order to fix
# them (a mask hides the wrong positions before a scale sharpens what is left): two mistakes of
# different parts can be made together, and their options merge (``paired_faults``).
_SOFTMAX_PART = ("softmax_wrong_dim", "softmax_applied_twice")
_SCALE_PART = ("no_sqrt_scaling", "scaled_after_softmax", "scaled_by_d_k", "scaled_by_wrong_size",
               "half_power_precedence", "scale_multiplied")
# The mistakes of the operands (which projection plays which role, a transpose): before the mask.
_OPERAND_PART = ("wrong_projection", "scores_transposed", "weights_transposed", "values_not_projected",
                 "linear_weight_untransposed", "keys_T_on_batch")
# How a multi-head module splits and merges its heads: fixed with the operands, before the mask.
_HEADS_PART = ("view_without_transpose", "wrong_transpose", "heads_interleaved")
# How the hidden positions are hidden (a finite fill, zeros after the softmax), apart from which
# positions the mask hides: a wrong mask filled with 0 is two faults (notebook 4's review).
_FILL_PART = ("mask_filled_with_zero", "mask_after_softmax")
# What the module does with the weighted values at the end (no output projection, the weights
# returned instead): fixed last, once the weights themselves are right.
_OUTPUT_PART = ("missing_out_proj", "returned_weights")
# Two faults are reproduced together only on outputs this small: enough for every stage's test
# inputs, and the product of the parts stays a few hundred small computations.
MAX_PAIRED_NUMEL = 4096

# The options of two mistakes made together, by the pair (first the one to fix first).
PairedOptions = dict[tuple[str, str], list[dict]]


def _parts(variants: dict[str, list[dict]]) -> list[dict[str, list[dict]]]:
    """The variants grouped by the part of the computation they change, in the order to fix them:
    operands, heads, mask, how it hides, softmax, scale, output."""
    order = [_OPERAND_PART, _HEADS_PART, None, _FILL_PART, _SOFTMAX_PART, _SCALE_PART, _OUTPUT_PART]
    mask_part = [mistake for mistake in variants if not any(mistake in part for part in order if part)]
    return [{mistake: variants[mistake] for mistake in (part or mask_part) if mistake in variants} for part in order]


def paired_faults(variants: dict[str, list[dict]]) -> PairedOptions:
    """Every pair of mistakes from two different parts of the computation (``_parts``), each with
    the options of both merged: what an answer with two independent faults computes. Options that
    set the same field (two masks, say) cannot be made together and are left out."""
    parts = [part for part in _parts(variants) if part]
    paired: PairedOptions = {}
    for index, first_part in enumerate(parts):
        for second_part in parts[index + 1:]:
            for first, first_options in first_part.items():
                for second, second_options in second_part.items():
                    merged = [one | other for one in first_options for other in second_options
                              if not set(one) & set(other)]
                    if merged:
                        paired[(first, second)] = merged
    return paired


def masked_softmax_with_divisor(scores: torch.Tensor) -> Callable[[float], torch.Tensor]:
    """masked_softmax of ``scores`` with the scores divided by a given number (the right one is
    sqrt(d_k)): what ``diagnosis.scores_divisor`` fits a wrong output with."""
    future = _future(scores.shape[-1], scores.device)
    return lambda divisor: _weights(scores, scale_dim=divisor**2, mask=future)


def masked_softmax_mistakes(scores: torch.Tensor, d_k: int) -> WrongOutputs:
    """Wrong results of masked_softmax(scores, d_k)."""
    num_tokens = scores.shape[-1]
    right = {"scale_dim": d_k, "mask": _future(num_tokens, scores.device)}
    variants = _weight_variants(d_k, num_tokens, set(scores.shape[:-2]), True, scores.device, scores.ndim)
    wrong = {mistake_id: [_weights(scores, **(right | options)) for options in option_list]
             for mistake_id, option_list in variants.items()}
    wrong["scores_all_nan"] = [torch.full_like(scores, math.nan)]  # finite scores, NaN weights everywhere
    # A softmax over every score, then the future zeroed and each row renormalised: the right weights
    # where the hidden scores are moderate, swamped (NaN, or 0 / tiny) where they are huge.
    every = torch.softmax(scores / d_k**0.5, dim=-1).masked_fill(right["mask"], 0.0)
    wrong["mask_after_softmax_renormalised"] = [every / every.sum(dim=-1, keepdim=True)]
    return wrong


def masked_softmax_faults(scores: torch.Tensor, d_k: int) -> dict[tuple[str, str], list[torch.Tensor]]:
    """Results of masked_softmax(scores, d_k) with two faults at once (a wrong mask and no scale,
    say), by the pair of mistakes (``paired_faults``)."""
    if scores.numel() > MAX_PAIRED_NUMEL:
        return {}
    num_tokens = scores.shape[-1]
    right = {"scale_dim": d_k, "mask": _future(num_tokens, scores.device)}
    variants = _weight_variants(d_k, num_tokens, set(scores.shape[:-2]), True, scores.device, scores.ndim)
    return {pair: [_weights(scores, **(right | options)) for options in option_list]
            for pair, option_list in paired_faults(variants).items()}


def _projections(module: torch.nn.Module, x: torch.Tensor, untransposed: bool = False) -> list[torch.Tensor] | None:
    """Queries, keys and values with the module's weights (nn.Linear, or v1's matrices); with
    ``untransposed``, what x @ layer.weight gives instead of layer(x) (None where the shapes do not
    allow it, or the matrices are v1's)."""
    layers = (module.W_query, module.W_key, module.W_value)
    if not untransposed:
        return [layer(x) if isinstance(layer, torch.nn.Module) else x @ layer for layer in layers]
    if not all(isinstance(layer, torch.nn.Linear) and layer.in_features == layer.out_features for layer in layers):
        return None
    return [x @ layer.weight for layer in layers]


# Projections used in the wrong role: (queries, keys, values) as indices into the right three.
_WRONG_ROLES = [(0, 1, 1), (0, 1, 0), (0, 0, 2), (1, 1, 2)]  # (1, 0, 2) transposes the scores


@torch.no_grad()
def attention_computation(module: torch.nn.Module, x: torch.Tensor, *, causal: bool,
                          heads: tuple[int, Callable, Callable] | None = None) -> Callable[..., torch.Tensor]:
    """The attention of a module on ``x`` with the reference module's weights, computed the way
    its options say (``_weights``' options, and which projection plays which role, how heads are
    split and merged...): ``attend()`` is the right output, ``attend(scale_dim=1)`` an unscaled one.

    ``heads`` is ``(num_heads, split_heads, merge_heads)`` (the reference's functions) for a
    multi-head module with ``out_proj``; single-head modules leave it out.
    """
    queries, keys, values = _projections(module, x)
    untransposed = _projections(module, x, untransposed=True)
    if heads:
        num_heads, split_heads, merge = heads
        out_proj = module.out_proj

        def split(t):
            return split_heads(t, num_heads)
    else:
        num_heads, split, merge, out_proj = 1, _same, _same, _same
    num_tokens, d_out = queries.shape[-2], queries.shape[-1]
    right = {"scale_dim": d_out // num_heads, "mask": _future(num_tokens, x.device) if causal else None}
    # roles 3 to 6: the input itself, never projected, then x @ layer.weight without its transpose.
    projected = (queries, keys, values, x, *(untransposed or ()))
    # Each role's tensor, split into heads, computed once however many variants read it (the pairs
    # of faults compute a few hundred).
    operands: dict[tuple, torch.Tensor] = {}

    def operand(role: int, split: Callable, activation: Callable) -> torch.Tensor:
        if (role, split, activation) not in operands:
            operands[(role, split, activation)] = split(activation(projected[role]))
        return operands[(role, split, activation)]

    @torch.no_grad()
    def attend(split=split, merge=merge, out=out_proj, transpose_keys=_last_two_swapped, roles=(0, 1, 2),
               scores_transposed=False, return_weights=False, weights_transposed=False, activation=_same,
               **options):
        q, k, v = (operand(role, split, activation) for role in roles)
        scores = q @ transpose_keys(k)
        weights = _weights(scores.transpose(-2, -1) if scores_transposed else scores, **(right | options))
        if return_weights:
            return weights
        return out(merge((weights.transpose(-2, -1) if weights_transposed else weights) @ v))

    return attend


def divisor_attention(module: torch.nn.Module, x: torch.Tensor, *, causal: bool,
                      heads: tuple[int, Callable, Callable] | None = None) -> Callable[[float], torch.Tensor]:
    """The module's attention on ``x`` with its scores divided by a given number (the right one
    is sqrt(d_k)): what ``diagnosis.scores_divisor`` fits a wrong output with."""
    attend = attention_computation(module, x, causal=causal, heads=heads)
    return lambda divisor: attend(scale_dim=divisor**2)


def _head_layouts(batch: int, num_heads: int, num_tokens: int, d_out: int) -> dict[str, list[dict]]:
    """``attend``'s options for heads split or merged in another layout than the reference's, by
    the mistake: a view to (b, h, T, hd) or back to (b, T, d_out) without the transpose, a merge
    that swaps the wrong axes, heads taken from interleaved features."""
    d_k = d_out // num_heads

    def split_by_view(t):
        return t.reshape(batch, num_heads, num_tokens, d_k)

    def merge_by_view(t):
        return t.reshape(batch, num_tokens, d_out)

    def merge_wrong_axes(t):
        return t.transpose(2, 3).reshape(batch, num_tokens, d_out)

    def split_interleaved(t):
        return t.reshape(batch, num_tokens, d_k, num_heads).permute(0, 3, 1, 2)

    def merge_interleaved(t):
        return t.permute(0, 2, 3, 1).reshape(batch, num_tokens, d_out)

    def split_sizes_swapped(t):  # view(b, T, head_dim, num_heads).transpose(1, 2): head_dim heads of num_heads
        return t.reshape(batch, num_tokens, d_k, num_heads).transpose(1, 2)

    return {"view_without_transpose": [{"split": split_by_view}, {"merge": merge_by_view},
                                       {"split": split_by_view, "merge": merge_by_view}],
            "wrong_transpose": [{"merge": merge_wrong_axes}],
            "heads_interleaved": [{"split": split_interleaved}, {"merge": merge_interleaved},
                                  {"split": split_interleaved, "merge": merge_interleaved},
                                  # scaled by its heads' own size (keys.shape[-1]), or by head_dim (blind27/119)
                                  {"split": split_sizes_swapped, "scale_dim": num_heads},
                                  {"split": split_sizes_swapped}]}


@torch.no_grad()
def attention_mistakes(module: torch.nn.Module, x: torch.Tensor, *, causal: bool,
                       heads: tuple[int, Callable, Callable] | None = None) -> WrongOutputs:
    """Wrong outputs of an attention module on ``x``, with the reference module's weights
    (``heads`` as in ``attention_computation``)."""
    attend = attention_computation(module, x, causal=causal, heads=heads)
    queries, keys, values = _projections(module, x)
    num_heads = heads[0] if heads else 1
    batch, num_tokens, d_out = queries.shape[0], queries.shape[-2], queries.shape[-1]
    d_k = d_out // num_heads
    sizes = _wrong_scale_sizes(x.shape[-1], d_out, batch, num_heads)
    variants = _weight_variants(d_k, num_tokens, sizes, causal, x.device, queries.ndim + (1 if heads else 0))
    wrong = {mistake_id: [attend(**options) for options in option_list]
             for mistake_id, option_list in variants.items()}
    # The scale after the softmax, and by another size than d_k (the tokens', say: blind27/041).
    wrong["scaled_after_softmax+scaled_by_wrong_size"] = [
        attend(scale_dim=1, divided_after=math.sqrt(size)) for size in (sizes | {num_tokens}) - {d_k, 1}]
    wrong["scores_transposed"] = [attend(scores_transposed=True)]
    wrong["weights_transposed"] = [attend(weights_transposed=True)]
    wrong["wrong_projection"] = [attend(roles=roles) for roles in _WRONG_ROLES]
    # An MLP's habit: an activation after each projection (negative features wiped out).
    wrong["activation_on_projections"] = [attend(activation=activation)
                                          for activation in (torch.relu, torch.nn.functional.gelu)]
    if _projections(module, x, untransposed=True) is not None:  # a square layer: x @ weight runs, and is wrong
        wrong["linear_weight_untransposed"] = [attend(roles=(4, 5, 6))]
    with contextlib.suppress(RuntimeError, ValueError):  # heads cannot split an input of another size
        wrong["values_not_projected"] = [attend(roles=(0, 1, 3))]
    if not causal:  # with a mask, scores used as weights hold -inf: no answer to name
        scores = queries @ keys.transpose(-2, -1)
        wrong["missing_softmax"] = [scores @ values, scores / math.sqrt(d_k) @ values]
        # Each row divided by its sum, no exp (the scale cancels there): rows that sum to 1, not a softmax.
        wrong["normalised_without_exp"] = [scores / scores.sum(dim=-1, keepdim=True) @ values]
        # A causal mask where the stage has none yet (is_causal=True copied from a GPT's code).
        wrong["mask_not_asked"] = [attend(mask=_future(num_tokens, x.device))]
    if not heads:
        wrong["returned_weights"] = [attend(return_weights=True)]
    if heads:
        for mistake_id, option_list in _head_layouts(batch, num_heads, num_tokens, d_out).items():
            wrong[mistake_id] = [attend(**options) for options in option_list]
        wrong["missing_out_proj"] = [attend(out=_same)]
        # num_heads never used: one head over all d_out features, scaled by either size.
        wrong["heads_not_split"] = [attend(split=_same, merge=_same, scale_dim=d_out), attend(split=_same, merge=_same)]
    elif x.ndim == 3:
        with contextlib.suppress(RuntimeError):  # most shapes make keys.T raise instead
            wrong["keys_T_on_batch"] = [attend(transpose_keys=_fully_transposed)]
    without_bias = _without_qkv_bias(module)
    if without_bias is not None:
        wrong["qkv_bias_not_added"] = [attention_computation(without_bias, x, causal=causal, heads=heads)()]
    return wrong


def _wrong_scale_sizes(d_in: int, d_out: int, batch: int, num_heads: int) -> set[int]:
    """The sizes a module's scale may wrongly be the square root of: its input's and output's
    widths, the batch, the number of heads and, with several heads, a head size read from the
    input's width (d_in // num_heads)."""
    return {d_in, d_out, batch, num_heads} | ({d_in // num_heads} if num_heads > 1 else set())


def structural_faults(module: torch.nn.Module, x: torch.Tensor, *,
                      heads: tuple[int, Callable, Callable] | None = None) -> dict[str, list[dict]]:
    """``attend``'s options for the faults of an attention module outside its weights (which
    projection plays which role, a transpose, the heads' layout, the output), by the mistake: what
    a wrong scale or mask may come beside."""
    queries = _projections(module, x)[0]
    faults: dict[str, list[dict]] = {"wrong_projection": [{"roles": roles} for roles in _WRONG_ROLES],
                                     "scores_transposed": [{"scores_transposed": True}],
                                     "weights_transposed": [{"weights_transposed": True}],
                                     "values_not_projected": [{"roles": (0, 1, 3)}]}
    if _projections(module, x, untransposed=True) is not None:
        faults["linear_weight_untransposed"] = [{"roles": (4, 5, 6)}]
    if heads:
        faults |= _head_layouts(queries.shape[0], heads[0], queries.shape[-2], queries.shape[-1])
        faults["missing_out_proj"] = [{"out": _same}]
    else:
        faults["returned_weights"] = [{"return_weights": True}]
        if x.ndim == 3:  # keys.T on a batch runs where the batch is as wide as the keys (it mixes them)
            faults["keys_T_on_batch"] = [{"transpose_keys": _fully_transposed}]
    return faults


def _fully_transposed(t: torch.Tensor) -> torch.Tensor:
    """The T attribute of a 3-D tensor: every dimension reversed."""
    return t.permute(2, 1, 0)


@torch.no_grad()
def attention_faults(module: torch.nn.Module, x: torch.Tensor, *, causal: bool,
                     heads: tuple[int, Callable, Callable] | None = None) -> dict[tuple[str, str], list[torch.Tensor]]:
    """Outputs of an attention module on ``x`` with two faults at once (keys for values and a
    scale by sqrt(d_in), a mask after the softmax and no scale...), by the pair of mistakes in the
    order to fix them (``paired_faults``), with the reference module's weights (``heads`` as in
    ``attention_computation``). Only what an answer's failure needs: called once it failed and
    no single mistake reproduces it."""
    attend = attention_computation(module, x, causal=causal, heads=heads)
    queries = _projections(module, x)[0]
    if queries.numel() > MAX_PAIRED_NUMEL:
        return {}
    num_heads = heads[0] if heads else 1
    batch, num_tokens, d_out = queries.shape[0], queries.shape[-2], queries.shape[-1]
    sizes = _wrong_scale_sizes(x.shape[-1], d_out, batch, num_heads)
    variants = _weight_variants(d_out // num_heads, num_tokens, sizes, causal, x.device,
                                queries.ndim + (1 if heads else 0)) | structural_faults(module, x, heads=heads)
    paired = {}
    for pair, option_list in paired_faults(variants).items():
        outputs = []
        for options in option_list:
            with contextlib.suppress(RuntimeError, ValueError):  # the values of another size cannot be mixed
                outputs.append(attend(**options))
        if outputs:
            paired[pair] = outputs
    return paired | _faults_beside_bias_not_added(module, x, variants, causal=causal, heads=heads)


def _faults_beside_bias_not_added(module: torch.nn.Module, x: torch.Tensor, variants: dict[str, list[dict]], *,
                                  causal: bool, heads: tuple[int, Callable, Callable] | None
                                  ) -> dict[tuple[str, str], list[torch.Tensor]]:
    """Outputs with the query, key and value biases left out (``qkv_bias_not_added``, a fault of the
    operands, fixed first) and one fault of the mask, the softmax or the scale besides, by the pair;
    none when the module has no such biases."""
    without_bias = _without_qkv_bias(module)
    if without_bias is None:
        return {}
    attend = attention_computation(without_bias, x, causal=causal, heads=heads)
    paired = {}
    for part in _parts(variants)[1:]:
        for mistake, option_list in part.items():
            outputs = []
            for options in option_list:
                with contextlib.suppress(RuntimeError, ValueError):
                    outputs.append(attend(**options))
            if outputs:
                paired[("qkv_bias_not_added", mistake)] = outputs
    return paired


def _without_qkv_bias(module: torch.nn.Module) -> torch.nn.Module | None:
    """A copy of the module whose query, key and value layers add no bias (F.linear given only the
    weight); None when those layers have no bias to leave out."""
    layers = ("W_query", "W_key", "W_value")
    if not all(isinstance(getattr(module, name), torch.nn.Linear) and getattr(module, name).bias is not None
               for name in layers):
        return None
    copied = copy.deepcopy(module)
    with torch.no_grad():
        for name in layers:
            getattr(copied, name).bias.zero_()
    return copied


@torch.no_grad()
def wrapper_mistakes(module: torch.nn.Module, x: torch.Tensor) -> WrongOutputs:
    """Wrong outputs of a MultiHeadAttentionWrapper: its reference heads, joined wrongly."""
    outputs = [head(x) for head in module.heads]
    return {"heads_concat_wrong_dim": [*(torch.cat(outputs, dim=dim) for dim in range(x.ndim - 1)),
                                       *(torch.stack(outputs, dim=dim) for dim in range(x.ndim + 1))],
            "heads_summed": [sum(outputs), sum(outputs) / len(outputs)],
            "heads_stacked": [torch.stack(outputs, dim=-1).flatten(-2)],
            "heads_reversed": [torch.cat(outputs[::-1], dim=-1)],
            # Both faults of the join: the heads taken last first, and joined along another dim (where
            # the order shows: heads alike give the same output either way).
            "heads_concat_wrong_dim+heads_reversed": [
                torch.cat(outputs[::-1], dim=dim) for dim in range(x.ndim - 1)
                if not torch.equal(torch.cat(outputs[::-1], dim=dim), torch.cat(outputs, dim=dim))]}


def split_heads_mistakes(x: torch.Tensor, num_heads: int) -> WrongOutputs:
    """Wrong results of split_heads(x, num_heads) for x of shape (b, T, d_out)."""
    batch, num_tokens, d_out = x.shape
    head_dim = d_out // num_heads
    return {"view_without_transpose": [x.reshape(batch, num_heads, num_tokens, -1),
                                       x.reshape(batch, num_tokens, num_heads, -1)],
            "heads_interleaved": [x.reshape(batch, num_tokens, head_dim, num_heads).transpose(1, 2),
                                  x.reshape(batch, num_tokens, head_dim, num_heads).permute(0, 3, 1, 2)],
            "wrong_transpose": [x.reshape(batch, num_tokens, num_heads, head_dim).transpose(2, 3),
                                x.reshape(batch, num_tokens, num_heads, head_dim).permute(0, 2, 3, 1)]}


def merge_heads_mistakes(x: torch.Tensor) -> WrongOutputs:
    """Wrong results of merge_heads(x) for x of shape (b, h, T, head_dim)."""
    batch, _, num_tokens, _ = x.shape
    return {"heads_concat_wrong_dim": [torch.cat(x.unbind(1), dim=dim) for dim in (0, 1)],
            "view_without_transpose": [x.reshape(batch, num_tokens, -1)],
            "wrong_transpose": [x.transpose(2, 3).reshape(batch, num_tokens, -1)],
            "heads_interleaved": [x.permute(0, 2, 3, 1).reshape(batch, num_tokens, -1)],
            "heads_summed": [x.sum(dim=1), x.mean(dim=1)]}


# -- 03: masks, running means and dropout --------------------------------------------------
def causal_mask_mistakes(mask: torch.Tensor) -> WrongOutputs:
    """Wrong versions of the reference mask (True = hidden); last, the right values in another
    dtype (an answer that fails only on its dtype)."""
    wrong = _wrong_masks(mask.shape[-1], mask.device)
    wrong["mask_inverted"] = [~mask]
    wrong["mask_empty"] = [torch.zeros_like(mask)]
    wrong["mask_not_bool"] = [mask]
    return wrong


def mask_and_renormalize_mistakes(weights: torch.Tensor) -> WrongOutputs:
    """Wrong results of mask_and_renormalize(weights)."""
    num_tokens = weights.shape[-1]

    def renormalised(mask):
        kept = weights.masked_fill(mask, 0.0)
        return kept / kept.sum(dim=-1, keepdim=True)

    future = _future(num_tokens, weights.device)
    kept = weights.masked_fill(future, 0.0)
    wrong = {"mask_after_softmax": [kept],
             "renormalised_with_softmax": [torch.softmax(weights.masked_fill(future, float("-inf")), dim=-1)],
             "softmax_over_zeroed_future": [torch.softmax(kept, dim=-1)],  # the zeros' exp(0) = 1 included
             "normalised_wrong_dim": [kept / kept.sum(dim=-2, keepdim=True)],
             "mask_missing": [weights / weights.sum(dim=-1, keepdim=True)],
             "softmax_whole_tensor": [kept / kept.sum(), kept / kept.sum(dim=(-2, -1), keepdim=True)],
             "weights_filled_with_inf": [_renormalised(weights.masked_fill(future, float("-inf")), -1)]}
    if weights.ndim == 2:  # the row sums without keepdim line up with the last dim (a batch makes it raise)
        wrong["broadcast_mismatch"] = [kept / kept.sum(dim=-1)]
    wrong_masks = _wrong_masks(num_tokens, weights.device)
    for mistake_id, masks in wrong_masks.items():
        wrong[mistake_id] = [renormalised(mask) for mask in masks]
    # A wrong mask and a wrong sum at once: each is a fault of its own (the mask first).
    wrong_sums = {"normalised_wrong_dim": [_by_columns],
                  "softmax_over_zeroed_future": [_softmax_of_last]}  # the zeros' exp(0) = 1 included (blind28/061)
    if weights.ndim == 2:
        wrong_sums["broadcast_mismatch"] = [_by_row_sums_lost]
    wrong_masks["mask_missing"] = [torch.zeros_like(future)]
    wrong.update(two_parts_wrong(lambda mask, normalise: normalise(weights.masked_fill(mask, 0.0)), (future, _by_rows),
                                 (wrong_masks, wrong_sums)))
    return wrong


def _renormalised(kept: torch.Tensor, dim: int) -> torch.Tensor:
    return kept / kept.sum(dim=dim, keepdim=True)


def _by_rows(kept: torch.Tensor) -> torch.Tensor:
    return _renormalised(kept, -1)


def _by_columns(kept: torch.Tensor) -> torch.Tensor:
    return _renormalised(kept, -2)


def _by_row_sums_lost(kept: torch.Tensor) -> torch.Tensor:
    """The row sums without keepdim: on one matrix they line up with its columns."""
    return kept / kept.sum(dim=-1)


def causal_average_mistakes(average: Callable, x: torch.Tensor) -> WrongOutputs:
    """Wrong running means of ``x`` (b, T, C), from a reference causal average."""
    num_tokens = x.shape[1]
    counts = torch.arange(1, num_tokens + 1, dtype=x.dtype, device=x.device).view(1, -1, 1)
    right = average(x)
    lower = torch.tril(torch.ones(num_tokens, num_tokens, dtype=x.dtype, device=x.device))
    normalised = lower / lower.sum(dim=1, keepdim=True)
    return {
        "prefix_sum": [right * counts],
        # Without the diagonal, the first token averages nothing: 0 / 0 is NaN, as in the mistake.
        "mask_hides_diagonal": [(right * counts - x) / (counts - 1)],
        "mask_swapped": [average(x.flip(1)).flip(1)],
        "normalised_wrong_dim": [(lower / lower.sum(dim=0, keepdim=True)) @ x],
        "mask_missing": [x.mean(dim=1, keepdim=True).expand_as(x)],
        "divided_by_sequence_length": [right * counts / num_tokens],
        "features_averaged": [x.mean(dim=-1, keepdim=True).expand_as(x)],
        # A mean of the whole prefix, tokens and features together: one number fills every feature.
        "mean_over_all_dims": [right.mean(dim=-1, keepdim=True).expand_as(x)],
        # Floor division of the triangle by its row sums: 1 // (t + 1) is 0 from row 1 on.
        "floor_division": [torch.div(lower, lower.sum(dim=1, keepdim=True), rounding_mode="floor") @ x],
        "count_off_by_one": [right * counts / (counts - 1), right * counts / (counts - 1).clamp(min=1)],
        "weights_transposed": [normalised.T @ x],
        # The row sums without keepdim, (T,): they line up with the last dim, so column j is divided.
        "broadcast_mismatch": [lower / lower.sum(dim=1) @ x],
        # The future filled with +inf before the softmax: inf - inf is NaN in every row that hides one.
        "mask_filled_with_plus_inf": [torch.softmax(torch.zeros_like(lower).masked_fill(lower == 0, math.inf), -1) @ x],
        # The 0/1 triangle itself as the scores: a hidden 0 still weighs exp(0) = 1 after the softmax.
        "mask_filled_with_zero": [torch.softmax(lower, dim=-1) @ x],
        # Each mean written back into x before the next is taken: later means read earlier means
        # (review of notebook 3: one slip, once told as two faults, cost the whole stage).
        "input_modified_in_place": [_means_written_back(x)],
    }


def _means_written_back(x: torch.Tensor) -> torch.Tensor:
    """The running means of a loop that writes each one into x (b, T, C) as it goes."""
    written = x.clone()
    for t in range(x.shape[1]):
        written[:, t] = written[:, : t + 1].mean(dim=1)
    return written


def dropout_edge_mistakes(x: torch.Tensor, p: float) -> WrongOutputs:
    """Wrong results of inverted_dropout(x, p) for p = 0 or p = 1."""
    return {"dropout_p1_division": [x * 0.0 / 0.0]} if p == 1.0 else {}


def dropout_mistakes(x: torch.Tensor, kept: torch.Tensor, p: float) -> WrongOutputs:
    """Wrong dropout results of ``x`` for the elements the student's answer kept."""
    survivors = x * kept
    return {
        "dropout_not_rescaled": [survivors],
        "dropout_scaled_by_p": [survivors / p, survivors * p],
        "dropout_multiplied_by_keep": [survivors * (1 - p)],
    }
