"""Wrong answers as people write them: whole answer cells, in the styles of the correct-idiom
corpus (tests/alternative_answers/), each with one mistake a student or a public study repository
makes (reshapes written for one batch layout, the book's loops, lecture-style heads, SDPA,
einsum...).

Unlike the substitutions of ``tests/mutations.py`` they do not depend on the solution's wording.
Each names the mistake it makes (an id of ``autograder.student.mistakes.MISTAKES``): the feedback
should name exactly that one.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from autograder.notebooks.variants import load_solution, with_answer
from autograder.student.curriculum import all_stages, assignment_of


@dataclass(frozen=True)
class WrongAnswer:
    name: str
    mistake: str
    source: str  # the whole answer cell
    also_named: tuple[str, ...] = ()  # other mistakes its code also makes, which the feedback may name

    @property
    def stage(self) -> str:
        defined = [node.name for node in ast.parse(self.source).body
                   if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in all_stages()]
        assert len(defined) == 1, (self.name, defined)
        return defined[0]

    @property
    def assignment(self) -> str:
        return assignment_of(self.stage)

    def notebook(self) -> dict:
        """The solution notebook with this answer in its stage's answer cell."""
        return with_answer(load_solution(self.assignment), self.stage, self.source)


WRONG_ANSWERS = [
    # -- 01_attention_scores -----------------------------------------------------------------
    WrongAnswer("dot_of_matrix_and_vector", "dot_needs_vectors", '''
def attention_scores_for_query(inputs, query):
    return torch.dot(inputs, query)
'''),
    WrongAnswer("query_times_inputs", "operands_swapped", '''
def attention_scores_for_query(inputs, query):
    return query @ inputs
'''),
    WrongAnswer("book_loop_scores_of_token_one", "query_ignored", '''
def attention_scores_for_query(inputs, query):
    attn_scores = torch.empty(inputs.shape[0])
    for i, x_i in enumerate(inputs):
        attn_scores[i] = torch.dot(x_i, inputs[1])
    return attn_scores
'''),
    WrongAnswer("scores_without_transpose", "missing_transpose", '''
def attention_scores(inputs):
    return torch.matmul(inputs, inputs)
'''),
    WrongAnswer("naive_sum_over_first_dim", "softmax_wrong_dim", '''
def softmax_naive(x, dim=-1):
    return torch.exp(x) / torch.exp(x).sum(dim=0, keepdim=True)
'''),
    WrongAnswer("naive_log_of_sum", "normalised_without_exp", '''
def softmax_naive(x, dim=-1):
    return x / x.sum(dim=dim, keepdim=True)
'''),
    WrongAnswer("stable_max_without_values", "max_returns_tuple", '''
def softmax_stable(x, dim=-1):
    exps = torch.exp(x - x.max(dim=dim, keepdim=True))
    return exps / exps.sum(dim=dim, keepdim=True)
'''),
    WrongAnswer("stable_max_without_keepdim", "softmax_missing_keepdim", '''
def softmax_stable(x, dim=-1):
    exps = torch.exp(x - torch.amax(x, dim=dim))
    return exps / exps.sum(dim=dim, keepdim=True)
'''),
    WrongAnswer("stable_clamped_instead_of_shifted", "softmax_overflow", '''
def softmax_stable(x, dim=-1):
    exps = torch.exp(x.clamp(max=700))
    return exps / exps.sum(dim=dim, keepdim=True)
''', also_named=("softmax_clamped",)),  # a cap, and one too high to stop float32's overflow
    WrongAnswer("context_weights_not_summed", "weighted_sum_missing", '''
def context_vector(attn_weights, inputs):
    return attn_weights[:, None] * inputs
'''),
    WrongAnswer("context_inputs_times_weights", "operands_swapped", '''
def context_vector(attn_weights, inputs):
    return inputs @ attn_weights
'''),
    WrongAnswer("simple_attention_weights_times_transpose", "returned_weights", '''
import torch.nn.functional as F


def simple_self_attention(inputs):
    return F.softmax(inputs @ inputs.T, dim=-1)
'''),
    WrongAnswer("simple_attention_loop_unnormalised", "missing_softmax", '''
def simple_self_attention(inputs):
    out = torch.zeros_like(inputs)
    for i in range(inputs.shape[0]):
        scores = inputs @ inputs[i]
        out[i] = scores @ inputs
    return out
'''),
    # -- 02_self_attention -------------------------------------------------------------------
    WrongAnswer("scores_einsum_for_three_dims", "fixed_rank", '''
import math


def scaled_dot_product_scores(queries, keys):
    return torch.einsum("bqd,bkd->bqk", queries, keys) / math.sqrt(keys.shape[-1])
'''),
    WrongAnswer("scores_bmm", "fixed_rank", '''
def scaled_dot_product_scores(queries, keys):
    return torch.bmm(queries, keys.transpose(1, 2)) / keys.shape[-1] ** 0.5
'''),
    WrongAnswer("scores_transpose_one_two", "transpose_fixed_dims", '''
def scaled_dot_product_scores(queries, keys):
    return queries @ keys.transpose(1, 2) / keys.shape[-1] ** 0.5
'''),
    WrongAnswer("scores_scaled_by_sequence_length", "scaled_by_wrong_size", '''
import math


def scaled_dot_product_scores(queries, keys):
    return torch.matmul(queries, keys.mT) / math.sqrt(keys.shape[-2])
'''),
    WrongAnswer("v1_projections_transposed", "projection_transposed", '''
class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        queries = x @ self.W_query.T
        keys = x @ self.W_key.T
        values = x @ self.W_value.T
        attn_weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)
        return attn_weights @ values
'''),
    WrongAnswer("v1_lecture_scaled_by_embedding", "scaled_by_wrong_size", '''
import torch.nn.functional as F


class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        T, C = x.shape
        k = x @ self.W_key
        q = x @ self.W_query
        wei = q @ k.T * C**-0.5
        wei = F.softmax(wei, dim=-1)
        return wei @ (x @ self.W_value)
'''),
    WrongAnswer("v2_keys_from_queries", "wrong_projection", '''
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        q = self.W_query(x)
        k = self.W_query(x)
        v = self.W_value(x)
        return torch.softmax(q @ k.T / k.shape[-1] ** 0.5, dim=-1) @ v
'''),
    WrongAnswer("v2_fused_without_bias", "qkv_bias_ignored", '''
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.d_out = d_out
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=False)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return torch.softmax(q @ k.T / self.d_out**0.5, dim=-1) @ v
'''),
    WrongAnswer("v2_weights_mixed_over_queries", "softmax_wrong_dim", '''
import torch.nn.functional as F


class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        keys = self.W_key(x)
        scores = self.W_query(x) @ keys.T
        return F.softmax(scores / keys.shape[-1] ** 0.5, dim=0) @ self.W_value(x)
'''),
    WrongAnswer("copy_assigns_plain_tensors", "copy_replaced_parameter", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query = sa_v2.W_query.weight.T
    sa_v1.W_key = sa_v2.W_key.weight.T
    sa_v1.W_value = sa_v2.W_value.weight.T
'''),
    WrongAnswer("copy_without_transpose", "copy_without_transpose", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query = nn.Parameter(sa_v2.W_query.weight.detach().clone())
    sa_v1.W_key = nn.Parameter(sa_v2.W_key.weight.detach().clone())
    sa_v1.W_value = nn.Parameter(sa_v2.W_value.weight.detach().clone())
'''),
    # Layers paired with parameters by sorted name: W_key's weights go to W_query (blind12/047).
    WrongAnswer("copy_pairs_sorted_layers", "copied_wrong_matrix", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    layers = [layer for _, layer in sorted(sa_v2.named_children())]
    with torch.no_grad():
        for param, layer in zip(sa_v1.parameters(), layers):
            param.copy_(layer.weight.T)
'''),
    WrongAnswer("copy_in_place_with_grad", "copy_needs_no_grad", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query.copy_(sa_v2.W_query.weight.T)
    sa_v1.W_key.copy_(sa_v2.W_key.weight.T)
    sa_v1.W_value.copy_(sa_v2.W_value.weight.T)
'''),
    # no_grad used without calling it: the class itself in the with statement (reviews7).
    WrongAnswer("copy_under_no_grad_not_called", "no_grad_not_called", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad:
        sa_v1.W_query.copy_(sa_v2.W_query.weight.T)
        sa_v1.W_key.copy_(sa_v2.W_key.weight.T)
        sa_v1.W_value.copy_(sa_v2.W_value.weight.T)
'''),
    # The copy made into a deep copy of sa_v1, returned, sa_v1 left as it was (blind14/061).
    WrongAnswer("copy_into_a_deep_copy", "copied_into_another_module", '''
import copy


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    result = copy.deepcopy(sa_v1)
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            getattr(result, name).copy_(getattr(sa_v2, name).weight.T)
    return result
'''),
    # The copy the wrong way round: sa_v1's matrices into sa_v2 (blind14/064).
    WrongAnswer("copy_the_wrong_way", "matrices_not_copied", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            getattr(sa_v2, name).weight.copy_(getattr(sa_v1, name).T)
''', also_named=("copy_modifies_source",)),
    # -- 03_causal_attention -----------------------------------------------------------------
    WrongAnswer("loop_divides_by_t", "count_off_by_one", '''
def causal_average_loop(x):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        total = torch.zeros_like(x[b, 0])
        for t in range(x.shape[1]):
            total = total + x[b, t]
            out[b, t] = total / max(t, 1)
    return out
'''),
    WrongAnswer("lecture_loop_on_the_cpu", "device_not_followed", '''
def causal_average_loop(x):
    B, T, C = x.shape
    xbow = torch.zeros((B, T, C), dtype=x.dtype)
    for b in range(B):
        for t in range(T):
            xprev = x[b, : t + 1]
            xbow[b, t] = torch.mean(xprev, 0)
    return xbow
'''),
    WrongAnswer("matmul_x_times_weights", "operands_swapped", '''
def causal_average_matmul(x):
    T = x.shape[1]
    wei = torch.tril(torch.ones(T, T, device=x.device, dtype=x.dtype))
    wei = wei / wei.sum(1, keepdim=True)
    return x @ wei
'''),
    # The weights' size read from the batch axis, the product in the right order (a reviewer's: it was
    # told its factors were in the wrong order).
    WrongAnswer("matmul_weights_sized_by_the_batch", "average_weights_shape", '''
def causal_average_matmul(x):
    T = x.shape[0]
    wei = torch.tril(torch.ones(T, T, device=x.device, dtype=x.dtype))
    wei = wei / wei.sum(1, keepdim=True)
    return wei @ x
'''),
    WrongAnswer("matmul_weights_in_default_dtype", "dtype_not_followed", '''
def causal_average_matmul(x):
    T = x.shape[1]
    wei = torch.tril(torch.ones(T, T, device=x.device))
    wei = wei / wei.sum(1, keepdim=True)
    return wei @ x
'''),
    # the right values, through the matmul stage: no softmax makes the weights the stage is for
    WrongAnswer("softmax_average_by_the_matmul_stage", "running_mean_without_softmax", '''
def causal_average_softmax(x):
    return causal_average_matmul(x)
'''),
    WrongAnswer("softmax_average_fills_zero", "mask_missing", '''
import torch.nn.functional as F


def causal_average_softmax(x):
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T, device=x.device))
    wei = torch.zeros(T, T, device=x.device, dtype=x.dtype)
    wei = wei.masked_fill(tril == 0, 0.0)
    return F.softmax(wei, dim=-1) @ x
'''),
    WrongAnswer("softmax_average_float_mask", "mask_needs_bool", '''
def causal_average_softmax(x):
    T = x.shape[1]
    upper = torch.triu(torch.ones(T, T, device=x.device), diagonal=1)
    scores = torch.zeros(T, T, device=x.device, dtype=x.dtype).masked_fill(upper, float("-inf"))
    return torch.softmax(scores, dim=-1) @ x
'''),
    WrongAnswer("mask_true_means_visible", "mask_inverted", '''
def causal_mask(num_tokens, device=None):
    return torch.tril(torch.ones(num_tokens, num_tokens, device=device)).bool()
'''),
    WrongAnswer("mask_of_ones_and_zeros", "mask_not_bool", '''
def causal_mask(num_tokens, device=None):
    return torch.triu(torch.ones(num_tokens, num_tokens, device=device), diagonal=1)
'''),
    WrongAnswer("renormalize_zeroes_in_place", "input_modified_in_place", '''
def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_weights.device), 1)
    attn_weights.masked_fill_(future, 0.0)
    return attn_weights / attn_weights.sum(dim=-1, keepdim=True)
'''),
    WrongAnswer("renormalize_tokens_from_first_dim", "batch_dims_not_handled", '''
def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[0]
    mask = torch.tril(torch.ones(T, T, device=attn_weights.device))
    masked = attn_weights * mask
    return masked / masked.sum(dim=-1, keepdim=True)
'''),
    WrongAnswer("renormalize_forgets_the_mask", "mask_missing", '''
def mask_and_renormalize(attn_weights):
    T = attn_weights.shape[-1]
    mask = torch.tril(torch.ones(T, T, device=attn_weights.device))
    masked = attn_weights.clone()
    masked[..., mask == 0].zero_()
    return masked / masked.sum(dim=-1, keepdim=True)
'''),
    WrongAnswer("masked_softmax_dim_one", "softmax_wrong_dim", '''
def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    return torch.softmax(attn_scores.masked_fill(future, float("-inf")) / d_k**0.5, dim=1)
'''),
    WrongAnswer("masked_softmax_tokens_from_first_dim", "batch_dims_not_handled", '''
def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[0]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    return torch.softmax(attn_scores.masked_fill(future, float("-inf")) / d_k**0.5, dim=-1)
'''),
    WrongAnswer("masked_softmax_scaled_by_root_of_root", "scaled_by_wrong_size", '''
import math


def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    return torch.softmax(attn_scores.masked_fill(future, -math.inf) / math.sqrt(T), dim=-1)
'''),
    WrongAnswer("masked_softmax_fills_in_place", "input_modified_in_place", '''
def masked_softmax(attn_scores, d_k):
    T = attn_scores.shape[-1]
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)
    attn_scores.masked_fill_(future, float("-inf"))
    return torch.softmax(attn_scores / d_k**0.5, dim=-1)
'''),
    WrongAnswer("dropout_bernoulli_of_p", "dropout_keep_probability", '''
def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p must be in [0, 1], not {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = torch.bernoulli(torch.full_like(x, p), generator=generator)
    return x * mask / (1 - p)
'''),
    WrongAnswer("dropout_zeroes_the_input", "input_modified_in_place", '''
def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], not {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return x.zero_()
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep / (1 - p)
'''),
    WrongAnswer("dropout_asserts_p", "invalid_p_not_rejected", '''
def inverted_dropout(x, p, training=True, generator=None):
    assert 0 <= p <= 1, "p must be a probability"
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep / (1 - p)
'''),
    WrongAnswer("dropout_from_the_global_generator", "dropout_ignores_generator", '''
def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], not {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = (torch.rand_like(x) >= p).to(x.dtype)
    return x * keep / (1 - p)
'''),
    WrongAnswer("attention_lecture_head_keys_T", "keys_T_on_batch", '''
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("tril", torch.tril(torch.ones(context_length, context_length)))

    def forward(self, x):
        B, T, C = x.shape
        k, q, v = self.W_key(x), self.W_query(x), self.W_value(x)
        wei = q @ k.T * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        return self.dropout(F.softmax(wei, dim=-1)) @ v
'''),
    WrongAnswer("attention_tests_the_wrong_value", "mask_inverted", '''
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        B, T, C = x.shape
        k, q, v = self.W_key(x), self.W_query(x), self.W_value(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.mask[:T, :T] == 0, float("-inf"))
        return self.dropout(F.softmax(wei, dim=-1)) @ v
'''),
    WrongAnswer("attention_drops_the_scores", "dropout_before_softmax", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))

    def forward(self, x):
        T = x.shape[1]
        keys, queries, values = self.W_key(x), self.W_query(x), self.W_value(x)
        scores = self.dropout(queries @ keys.transpose(1, 2))  # regularise the scores
        scores = scores.masked_fill(self.mask[:T, :T], -torch.inf)
        return torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1) @ values
'''),
    WrongAnswer("attention_drops_the_values", "dropout_on_output", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        T = x.shape[1]
        keys = self.W_key(x)
        scores = (self.W_query(x) @ keys.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        return torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1) @ self.dropout(self.W_value(x))
'''),
    WrongAnswer("attention_drops_the_weights_twice", "dropout_applied_twice", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.attn_dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        T = x.shape[1]
        keys = self.W_key(x)
        scores = (self.W_query(x) @ keys.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.attn_dropout(self.dropout(torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1)))
        return weights @ self.W_value(x)
'''),
    WrongAnswer("attention_mask_never_sliced", "mask_not_sliced", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        scores = (q @ k.transpose(1, 2)).masked_fill(self.mask, float("-inf"))
        return self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1)) @ v
'''),
    WrongAnswer("attention_sdpa_given_the_hidden_mask", "sdpa_mask_inverted", '''
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.p = dropout
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        T = x.shape[1]
        return F.scaled_dot_product_attention(self.W_query(x), self.W_key(x), self.W_value(x),
                                              attn_mask=self.mask[:T, :T],
                                              dropout_p=self.p if self.training else 0.0)
'''),
    WrongAnswer("attention_sdpa_without_is_causal", "mask_missing", '''
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.p = dropout

    def forward(self, x):
        return F.scaled_dot_product_attention(self.W_query(x), self.W_key(x), self.W_value(x),
                                              dropout_p=self.p if self.training else 0.0)
'''),
    WrongAnswer("attention_scaled_by_tokens", "scaled_by_wrong_size", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        T = x.shape[1]
        keys = self.W_key(x)
        scores = self.W_query(x) @ keys.transpose(1, 2)
        scores = scores.masked_fill(self.mask.bool()[:T, :T], -torch.inf)
        weights = torch.softmax(scores / keys.shape[1] ** 0.5, dim=-1)
        return self.dropout(weights) @ self.W_value(x)
'''),
    WrongAnswer("attention_mask_made_on_the_cpu", "device_not_followed", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        T = x.shape[1]
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores = (self.W_query(x) @ self.W_key(x).transpose(1, 2)).masked_fill(future, float("-inf"))
        weights = torch.softmax(scores / self.W_key.out_features ** 0.5, dim=-1)
        return self.dropout(weights) @ self.W_value(x)
'''),
    WrongAnswer("attention_softmax_over_queries", "softmax_wrong_dim", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        T = x.shape[1]
        keys = self.W_key(x)
        scores = (self.W_query(x) @ keys.transpose(1, 2)).masked_fill(self.mask.bool()[:T, :T], -torch.inf)
        return self.dropout(torch.softmax(scores / keys.shape[-1] ** 0.5, dim=1)) @ self.W_value(x)
'''),
    # -- 04_multi_head_attention -------------------------------------------------------------
    WrongAnswer("wrapper_stacks_heads", "heads_stacked", '''
class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)]
        )

    def forward(self, x):
        return torch.stack([head(x) for head in self.heads], dim=-1).flatten(-2)
'''),
    WrongAnswer("wrapper_heads_in_a_list", "heads_not_module_list", '''
class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads)]

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)
'''),
    WrongAnswer("wrapper_2d_two_features_per_head", "one_head_of_two_features", '''
def wrapper_with_2d_output(d_in, context_length, dropout):
    return MultiHeadAttentionWrapper(d_in, d_out=2, context_length=context_length, dropout=dropout, num_heads=2)
'''),
    WrongAnswer("split_heads_reshaped_to_heads_first", "view_without_transpose", '''
def split_heads(x, num_heads):
    b, num_tokens, d_out = x.shape
    if d_out % num_heads:
        raise ValueError(f"d_out={d_out} must be divisible by num_heads={num_heads}")
    return x.view(b, num_heads, num_tokens, d_out // num_heads)
'''),
    WrongAnswer("split_heads_by_chunks", "split_copies", '''
def split_heads(x, num_heads):
    if x.shape[-1] % num_heads:
        raise ValueError(f"{x.shape[-1]} features must split into {num_heads} heads")
    return torch.stack(x.chunk(num_heads, dim=-1), dim=1)
'''),
    WrongAnswer("split_heads_assert", "indivisible_not_rejected", '''
def split_heads(x, num_heads):
    b, t, d = x.shape
    assert d % num_heads == 0, "d_out must be divisible by num_heads"
    return x.view(b, t, num_heads, d // num_heads).transpose(1, 2)
'''),
    WrongAnswer("merge_heads_permuted_wrongly", "heads_interleaved", '''
def merge_heads(x):
    b, h, t, hd = x.shape
    return x.permute(0, 2, 3, 1).reshape(b, t, h * hd)
'''),
    WrongAnswer("merge_heads_reshape_only", "view_without_transpose", '''
def merge_heads(x):
    b, h, t, hd = x.shape
    return x.reshape(b, t, h * hd)
'''),
    WrongAnswer("multi_head_merges_the_weights", "merged_weights", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        T = x.shape[1]
        q = split_heads(self.W_query(x), self.num_heads)
        k = split_heads(self.W_key(x), self.num_heads)
        v = split_heads(self.W_value(x), self.num_heads)
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask.bool()[:T, :T], -torch.inf)
        weights = self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1))
        context = merge_heads(weights) @ merge_heads(v)
        return self.out_proj(context)
'''),
    WrongAnswer("multi_head_sdpa_scaled_by_d_out", "scaled_by_wrong_size", '''
import math

import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.n_head, self.d_out = num_heads, d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = dropout

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (layer(x).view(B, T, self.n_head, -1).transpose(1, 2)
                   for layer in (self.W_query, self.W_key, self.W_value))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1 / math.sqrt(self.d_out),
                                           dropout_p=self.dropout if self.training else 0.0)
        return self.out_proj(y.transpose(1, 2).contiguous().view(B, T, self.d_out))
'''),
    WrongAnswer("multi_head_fused_qkv_split_in_wrong_order", "scores_transposed", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads, self.d_out = num_heads, d_out
        self.c_attn = nn.Linear(d_in, 3 * d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(context_length, context_length))[None, None])

    def forward(self, x):
        B, T, _ = x.shape
        k, q, v = self.c_attn(x).split(self.d_out, dim=2)
        q, k, v = (t.view(B, T, self.num_heads, -1).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / k.shape[-1] ** 0.5
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        y = self.dropout(torch.softmax(att, dim=-1)) @ v
        return self.out_proj(y.transpose(1, 2).reshape(B, T, self.d_out))
'''),
    WrongAnswer("multi_head_heads_interleaved", "heads_interleaved", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.h = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        b, t, d = x.shape[0], x.shape[1], self.out_proj.in_features
        q, k, v = (layer(x).view(b, t, -1, self.h).permute(0, 3, 1, 2)
                   for layer in (self.W_query, self.W_key, self.W_value))
        scores = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).masked_fill(self.mask[:t, :t], float("-inf"))
        context = self.dropout(scores.softmax(dim=-1)) @ v
        return self.out_proj(context.permute(0, 2, 3, 1).reshape(b, t, d))
'''),
    WrongAnswer("multi_head_residual_dropout_only", "dropout_on_output", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.resid_dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask[:t, :t], float("-inf"))
        context = merge_heads(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1) @ v)
        return self.resid_dropout(self.out_proj(context))
'''),
    WrongAnswer("multi_head_is_causal_forgotten", "mask_missing", '''
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads, self.dropout = num_heads, dropout
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)

    def forward(self, x):
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0)
        return self.out_proj(merge_heads(y))
'''),
    WrongAnswer("multi_head_d_out_read_as_head_size", "d_out_per_head", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, d_out
        width = d_out * num_heads
        self.W_query = nn.Linear(d_in, width, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, width, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, width, bias=qkv_bias)
        self.out_proj = nn.Linear(width, width)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        T = x.shape[1]
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask[:T, :T], float("-inf"))
        weights = self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1))
        return self.out_proj(merge_heads(weights @ v))
''', also_named=("indivisible_not_rejected",)),
    WrongAnswer("multi_head_mask_never_sliced", "mask_not_sliced", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask, float("-inf"))
        weights = self.dropout(torch.softmax(scores / k.shape[-1] ** 0.5, dim=-1))
        return self.out_proj(merge_heads(weights @ v))
'''),
    WrongAnswer("multi_head_einsum_for_three_dims", "fixed_rank", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError("d_out must be divisible by num_heads")
        self.num_heads = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (split_heads(layer(x), self.num_heads) for layer in (self.W_query, self.W_key, self.W_value))
        scores = torch.einsum("bqd,bkd->bqk", q, k) / k.shape[-1] ** 0.5
        weights = self.dropout(torch.softmax(scores.masked_fill(self.mask[:t, :t], float("-inf")), dim=-1))
        return self.out_proj(merge_heads(weights @ v))
'''),
    WrongAnswer("gpt2_context_of_768", "gpt2_context_length", '''
def gpt2_small_attention():
    return MultiHeadAttention(d_in=768, d_out=768, context_length=768, dropout=0.0, num_heads=12)
'''),
    WrongAnswer("gpt2_gpt_dropout", "gpt2_dropout", '''
def gpt2_small_attention():
    return MultiHeadAttention(768, 768, 1024, 0.1, 12)
'''),
    WrongAnswer("gpt2_with_openai_biases", "gpt2_qkv_bias", '''
def gpt2_small_attention():
    return MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=True)
'''),
    WrongAnswer("gpt2_heads_of_size_64_as_count", "gpt2_head_count", '''
def gpt2_small_attention():
    return MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=64)
'''),
    # Written after the rules above were tuned, and first measured as they came (see the report of
    # issue 23): the same styles, new mistakes.
    WrongAnswer("scores_summed", "scores_summed", '''
def attention_scores_for_query(inputs, query):
    return (inputs @ query).sum()
'''),
    WrongAnswer("naive_softmax_dim0", "softmax_wrong_dim", '''
def softmax_naive(x, dim=-1):
    exps = torch.exp(x)  # (the entry called torch.softmax(x, dim=0), a library softmax issue 34 names too)
    return exps / exps.sum(dim=0, keepdim=True)
'''),
    WrongAnswer("stable_max_dim0", "softmax_max_wrong_dim", '''
def softmax_stable(x, dim=-1):
    z = x - x.max(dim=0, keepdim=True).values
    return z.exp() / z.exp().sum(dim=dim, keepdim=True)
'''),
    WrongAnswer("context_mv", "operands_swapped", '''
def context_vector(attn_weights, inputs):
    return torch.mv(inputs, attn_weights)
'''),
    WrongAnswer("simple_weights_transposed", "softmax_wrong_dim", '''
def simple_self_attention(inputs):
    return torch.softmax(inputs @ inputs.T, dim=1).T @ inputs
'''),
    WrongAnswer("scores_permute", "transpose_fixed_dims", '''
def scaled_dot_product_scores(queries, keys):
    return queries.matmul(keys.permute(0, 2, 1)) / keys.shape[-1] ** 0.5
'''),
    WrongAnswer("v1_keys_at_queries", "scores_transposed", '''
class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value
        return torch.softmax(k @ q.T / k.shape[-1] ** 0.5, dim=-1) @ v
'''),
    WrongAnswer("v2_no_softmax", "missing_softmax", '''
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        k = self.W_key(x)
        return (self.W_query(x) @ k.T / k.shape[-1] ** 0.5) @ self.W_value(x)
'''),
    WrongAnswer("v2_divided_by_d_k", "scaled_by_d_k", '''
class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        q, k, v = self.W_query(x), self.W_key(x), self.W_value(x)
        return torch.softmax(q @ k.T / k.shape[-1], dim=-1) @ v
'''),
    WrongAnswer("copy_key_into_query", "copied_wrong_matrix", '''
def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query.data.copy_(sa_v2.W_key.weight.T)
    sa_v1.W_key.data.copy_(sa_v2.W_key.weight.T)
    sa_v1.W_value.data.copy_(sa_v2.W_value.weight.T)
'''),
    WrongAnswer("loop_feature_mean", "features_averaged", '''
def causal_average_loop(x):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            out[b, t] = x[b, t].mean()
    return out
'''),
    WrongAnswer("matmul_over_length", "divided_by_sequence_length", '''
def causal_average_matmul(x):
    T = x.shape[1]
    weights = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device)) / T
    return weights @ x
'''),
    WrongAnswer("mask_keeps_diagonal_hidden", "mask_hides_diagonal", '''
def causal_mask(num_tokens, device=None):
    return torch.triu(torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device))
'''),
    WrongAnswer("renormalize_by_total", "softmax_whole_tensor", '''
def mask_and_renormalize(attn_weights):
    masked = torch.tril(attn_weights)
    return masked / masked.sum()
'''),
    WrongAnswer("masked_softmax_by_d_k", "scaled_by_d_k", '''
def masked_softmax(attn_scores, d_k):
    T = attn_scores.size(-1)
    mask = torch.ones(T, T, device=attn_scores.device).triu(1).bool()
    return torch.softmax(attn_scores.masked_fill(mask, float("-inf")) / d_k, dim=-1)
'''),
    WrongAnswer("dropout_times_keep_prob", "dropout_multiplied_by_keep", '''
def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"bad p: {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep * (1 - p)
'''),
    WrongAnswer("dropout_p1_unhandled", "dropout_p1_division", '''
def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"bad p: {p}")
    if not training or p == 0:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep / (1 - p)
'''),
    WrongAnswer("attention_sdpa_mask_and_is_causal", "sdpa_mask_and_is_causal", '''
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.p = dropout
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).tril())

    def forward(self, x):
        T = x.shape[1]
        return F.scaled_dot_product_attention(self.W_query(x), self.W_key(x), self.W_value(x),
                                              attn_mask=self.mask[:T, :T], is_causal=True,
                                              dropout_p=self.p if self.training else 0.0)
'''),
    WrongAnswer("attention_bias_always", "qkv_bias_ignored", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out)
        self.W_key = nn.Linear(d_in, d_out)
        self.W_value = nn.Linear(d_in, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        T = x.shape[1]
        k = self.W_key(x)
        s = (self.W_query(x) @ k.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        return self.dropout(torch.softmax(s / k.shape[-1] ** 0.5, dim=-1)) @ self.W_value(x)
'''),
    WrongAnswer("attention_hides_diagonal", "mask_hides_diagonal", '''
class CausalAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length)).bool())

    def forward(self, x):
        T = x.shape[1]
        k = self.W_key(x)
        s = (self.W_query(x) @ k.transpose(1, 2)).masked_fill(self.mask[:T, :T], float("-inf"))
        return self.dropout(torch.softmax(s / k.shape[-1] ** 0.5, dim=-1)) @ self.W_value(x)
'''),
    WrongAnswer("wrapper_heads_joined_along_tokens", "heads_concat_wrong_dim", '''
class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList([CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)
                                    for _ in range(num_heads)])

    def forward(self, x):
        return torch.cat([h(x) for h in self.heads], dim=1)
'''),
    WrongAnswer("split_permute_wrong", "wrong_transpose", '''
def split_heads(x, num_heads):
    b, t, d = x.shape
    if d % num_heads:
        raise ValueError(f"{d} not divisible by {num_heads}")
    return x.view(b, t, num_heads, d // num_heads).permute(0, 2, 3, 1)
'''),
    WrongAnswer("merge_view_after_transpose", "view_needs_contiguous", '''
def merge_heads(x):
    b, h, t, hd = x.shape
    return x.transpose(1, 2).view(b, t, h * hd)
'''),
    WrongAnswer("mha_scale_d_out", "scaled_by_wrong_size", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out % num_heads != 0")
        self.h, self.d_out = num_heads, d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (split_heads(f(x), self.h) for f in (self.W_query, self.W_key, self.W_value))
        s = (q @ k.transpose(-2, -1) / self.d_out ** 0.5).masked_fill(self.mask[:t, :t], float("-inf"))
        return self.out_proj(merge_heads(self.dropout(s.softmax(-1)) @ v))
'''),
    WrongAnswer("mha_no_out_proj", "missing_out_proj", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out % num_heads != 0")
        self.h = num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        t = x.shape[1]
        q, k, v = (split_heads(f(x), self.h) for f in (self.W_query, self.W_key, self.W_value))
        s = (q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5).masked_fill(self.mask[:t, :t], float("-inf"))
        return merge_heads(self.dropout(s.softmax(-1)) @ v)
'''),
    WrongAnswer("mha_reshape_without_transpose", "view_without_transpose", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads:
            raise ValueError("d_out % num_heads != 0")
        self.h, self.d_out = num_heads, d_out
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool())

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = (split_heads(f(x), self.h) for f in (self.W_query, self.W_key, self.W_value))
        s = (q @ k.transpose(-2, -1) / k.shape[-1] ** 0.5).masked_fill(self.mask[:t, :t], float("-inf"))
        context = self.dropout(s.softmax(-1)) @ v
        return self.out_proj(context.reshape(b, t, self.d_out))
'''),
    WrongAnswer("gpt2_head_size_as_d_out", "gpt2_head_count", '''
def gpt2_small_attention():
    return MultiHeadAttention(768, 64, 1024, 0.0, 12)
'''),
    WrongAnswer("multi_head_drops_the_scores", "dropout_before_softmax", '''
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        if d_out % num_heads != 0:
            raise ValueError(f"d_out={d_out} is not divisible by num_heads={num_heads}")
        self.num_heads, self.head_dim = num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(1))

    def forward(self, x):
        b, T, d_out = x.shape[0], x.shape[1], self.num_heads * self.head_dim
        q, k, v = (layer(x).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
                   for layer in (self.W_query, self.W_key, self.W_value))
        scores = self.dropout(q @ k.transpose(-2, -1) / self.head_dim**0.5)  # (b, h, T, T)
        weights = scores.masked_fill(self.mask[:T, :T], -torch.inf).softmax(dim=-1)
        return self.out_proj((weights @ v).transpose(1, 2).contiguous().view(b, T, d_out))
'''),
]
