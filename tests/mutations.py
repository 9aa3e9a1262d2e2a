"""Plausible mistakes, each one small substitution in one answer cell of a solution notebook.

A mutant must lose points on its stage and nowhere else (except on stages that build on it,
see ``tests/test_hidden_tests.py``). Where the hidden tests can recognise the mistake, its id
in ``autograder.hidden.wrong_outputs.MESSAGES`` is given, and the feedback must name it.
"""

from __future__ import annotations

from dataclasses import dataclass

from autograder.notebooks.variants import load_solution, with_replacement
from autograder.student.curriculum import assignment_of


@dataclass(frozen=True)
class Mutation:
    name: str
    stage: str
    old: str
    new: str
    mistake: str | None = None  # the mistake id the feedback must name

    @property
    def assignment(self) -> str:
        return assignment_of(self.stage)

    def notebook(self) -> dict:
        """The solution notebook with this one mistake in the stage's answer cell."""
        return with_replacement(load_solution(self.assignment), self.stage, self.old, self.new)


MUTATIONS = [
    # 01_attention_scores
    Mutation("query_scores_not_summed", "attention_scores_for_query", "return inputs @ query",
             "return inputs * query", "elementwise_product"),
    Mutation("scores_of_features", "attention_scores", "return inputs @ inputs.T",
             "return inputs.T @ inputs", "transposed_product"),
    Mutation("naive_sum_without_keepdim", "softmax_naive", "exp_x.sum(dim=dim, keepdim=True)",
             "exp_x.sum(dim=dim)", "softmax_missing_keepdim"),
    Mutation("naive_sum_of_everything", "softmax_naive", "exp_x.sum(dim=dim, keepdim=True)",
             "exp_x.sum()", "softmax_whole_tensor"),
    Mutation("stable_global_max", "softmax_stable", "x.max(dim=dim, keepdim=True).values",
             "x.max()", "softmax_global_max"),
    Mutation("stable_without_shift", "softmax_stable",
             "shifted = x - x.max(dim=dim, keepdim=True).values", "shifted = x",
             "softmax_overflow"),
    Mutation("context_ignores_weights", "context_vector", "return attn_weights @ inputs",
             "return inputs.mean(dim=0)"),
    Mutation("simple_attention_softmax_dim0", "simple_self_attention",
             "torch.softmax(attn_scores, dim=-1)", "torch.softmax(attn_scores, dim=0)",
             "softmax_wrong_dim"),
    Mutation("simple_attention_returns_weights", "simple_self_attention",
             "return attn_weights @ inputs", "return attn_weights", "returned_weights"),
    # 02_self_attention
    Mutation("scores_unscaled", "scaled_dot_product_scores", "return scores / d_k**0.5",
             "return scores", "no_sqrt_scaling"),
    Mutation("scores_scaled_by_d_k", "scaled_dot_product_scores", "return scores / d_k**0.5",
             "return scores / d_k", "scaled_by_d_k"),
    Mutation("scores_keys_T", "scaled_dot_product_scores", "keys.transpose(-2, -1)", "keys.T",
             "keys_T_on_batch"),
    Mutation("scores_scaled_by_tokens", "scaled_dot_product_scores", "d_k = keys.shape[-1]",
             "d_k = keys.shape[1]", "scaled_by_wrong_size"),
    Mutation("v1_softmax_dim0", "SelfAttention_v1", "** 0.5, dim=-1)", "** 0.5, dim=0)",
             "softmax_wrong_dim"),
    Mutation("v1_key_matrix_transposed", "SelfAttention_v1",
             "self.W_key = nn.Parameter(torch.rand(d_in, d_out))",
             "self.W_key = nn.Parameter(torch.rand(d_out, d_in))"),
    Mutation("v2_unscaled", "SelfAttention_v2", "attn_scores / keys.shape[-1] ** 0.5",
             "attn_scores", "no_sqrt_scaling"),
    Mutation("v2_values_from_keys", "SelfAttention_v2", "values = self.W_value(x)",
             "values = self.W_key(x)"),
    Mutation("copy_query_into_key", "copy_v2_weights_into_v1",
             "sa_v1.W_key.copy_(sa_v2.W_key.weight.T)", "sa_v1.W_key.copy_(sa_v2.W_query.weight.T)"),
    # 03_causal_attention
    Mutation("loop_excludes_current_token", "causal_average_loop", "x[b, : t + 1]", "x[b, :t]",
             "mask_hides_diagonal"),
    Mutation("matmul_not_normalised", "causal_average_matmul",
             "weights = weights / weights.sum(dim=1, keepdim=True)", "weights = weights",
             "prefix_sum"),
    Mutation("matmul_upper_triangle", "causal_average_matmul", "torch.tril(", "torch.triu(",
             "mask_swapped"),
    Mutation("average_softmax_dim0", "causal_average_softmax", "torch.softmax(scores, dim=-1)",
             "torch.softmax(scores, dim=0)", "softmax_wrong_dim"),
    Mutation("mask_hides_diagonal", "causal_mask", "diagonal=1", "diagonal=0",
             "mask_hides_diagonal"),
    Mutation("mask_lower_triangle", "causal_mask", "torch.triu(ones, diagonal=1)",
             "torch.tril(ones, diagonal=-1)", "mask_swapped"),
    Mutation("mask_ignores_device", "causal_mask", ", device=device)", ")"),
    Mutation("renormalize_forgotten", "mask_and_renormalize",
             "return masked / masked.sum(dim=-1, keepdim=True)", "return masked",
             "mask_after_softmax"),
    Mutation("masked_softmax_unscaled", "masked_softmax", "masked / d_k**0.5", "masked",
             "no_sqrt_scaling"),
    Mutation("masked_softmax_hides_diagonal", "masked_softmax", "diagonal=1", "diagonal=0",
             "mask_hides_diagonal"),
    Mutation("masked_softmax_fills_zero", "masked_softmax",
             "attn_scores.masked_fill(future, -torch.inf)", "attn_scores.masked_fill(future, 0.0)"),
    Mutation("dropout_not_rescaled", "inverted_dropout", "return x * keep / (1.0 - p)",
             "return x * keep", "dropout_not_rescaled"),
    Mutation("dropout_rescaled_by_p", "inverted_dropout", "return x * keep / (1.0 - p)",
             "return x * keep / p", "dropout_scaled_by_p"),
    Mutation("dropout_keeps_with_p", "inverted_dropout", "keep = draws >= p", "keep = draws < p",
             "dropout_keep_probability"),
    Mutation("dropout_in_eval", "inverted_dropout", "if not training or p == 0.0:",
             "if p == 0.0:", "dropout_in_eval"),
    Mutation("dropout_ignores_generator", "inverted_dropout", "generator=generator, ", ""),
    Mutation("dropout_accepts_negative_p", "inverted_dropout", "if not 0.0 <= p <= 1.0:",
             "if p > 1.0:"),
    Mutation("attention_dropout_on_output", "CausalAttention",
             "attn_weights = self.dropout(attn_weights)\n        return attn_weights @ values",
             "return self.dropout(attn_weights @ values)", "dropout_on_output"),
    Mutation("attention_scaled_by_d_in", "CausalAttention", "keys.shape[-1] ** 0.5",
             "x.shape[-1] ** 0.5", "scaled_by_wrong_size"),
    Mutation("attention_keys_T", "CausalAttention", "keys.transpose(1, 2)", "keys.T",
             "keys_T_on_batch"),
    Mutation("attention_mask_plain_attribute", "CausalAttention",
             'self.register_buffer(\n            "mask", ', "self.mask = ("),
    Mutation("attention_mask_not_cropped", "CausalAttention",
             "self.mask.bool()[:num_tokens, :num_tokens]", "self.mask.bool()"),
    # 04_multi_head_attention
    Mutation("wrapper_concat_tokens", "MultiHeadAttentionWrapper", "dim=-1)", "dim=1)",
             "heads_concat_wrong_dim"),
    Mutation("wrapper_plain_list", "MultiHeadAttentionWrapper", "nn.ModuleList(", "list("),
    Mutation("wrapper_2d_four_features", "wrapper_with_2d_output",
             "MultiHeadAttentionWrapper(d_in, 1,", "MultiHeadAttentionWrapper(d_in, 2,"),
    Mutation("split_without_transpose", "split_heads", "return x.transpose(1, 2)", "return x",
             "view_without_transpose"),
    Mutation("split_copies", "split_heads", "return x.transpose(1, 2)",
             "return x.transpose(1, 2).contiguous()"),
    Mutation("split_without_check", "split_heads", "if d_out % num_heads != 0:", "if False:"),
    Mutation("merge_without_transpose", "merge_heads", "x = x.transpose(1, 2).contiguous()",
             "x = x.contiguous()", "view_without_transpose"),
    Mutation("multi_head_without_out_proj", "MultiHeadAttention", "return self.out_proj(context)",
             "return context", "missing_out_proj"),
    Mutation("multi_head_scaled_by_d_out", "MultiHeadAttention", "keys.shape[-1] ** 0.5",
             "self.d_out ** 0.5", "scaled_by_wrong_size"),
    Mutation("multi_head_dropout_always_on", "MultiHeadAttention",
             "attn_weights = self.dropout(attn_weights)",
             "attn_weights = nn.functional.dropout(attn_weights, self.dropout.p)"),
    Mutation("multi_head_softmax_dim2", "MultiHeadAttention", "** 0.5, dim=-1)", "** 0.5, dim=2)",
             "softmax_wrong_dim"),
    Mutation("gpt2_with_dropout", "gpt2_small_attention", "dropout=0.0", "dropout=0.1"),
    Mutation("gpt2_short_context", "gpt2_small_attention", "context_length=1024",
             "context_length=768"),
]
