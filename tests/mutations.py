"""Plausible mistakes, each one small substitution in one answer cell of a solution notebook.

A mutant must lose points on its stage and nowhere else, not even on the stages that call it
(each stage is graded on its own: see ``tests/test_hidden_tests.py``). Each names the mistake it makes, an id of
``autograder.student.mistakes.MISTAKES`` (None only where no mistake text describes it): the
feedback should name exactly that one. ``CORPUS`` adds the whole wrong answers of
``tests/wrong_answers.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from wrong_answers import WRONG_ANSWERS

from autograder.notebooks.variants import load_solution, with_replacement
from autograder.student.curriculum import assignment_of


@dataclass(frozen=True)
class Mutation:
    name: str
    stage: str
    old: str
    new: str
    mistake: str | None = None  # the mistake it makes, which the feedback should name
    also_named: tuple[str, ...] = ()  # other mistakes its code also makes, which the feedback may name

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
    Mutation("naive_calls_torch_softmax", "softmax_naive",
             "exp_x / exp_x.sum(dim=dim, keepdim=True)  # the sum keeps a size-1 dim", "torch.softmax(x, dim=dim)",
             "library_softmax"),
    Mutation("stable_calls_torch_softmax", "softmax_stable", "exp_x / exp_x.sum(dim=dim, keepdim=True)",
             "torch.softmax(shifted, dim=dim)", "library_softmax"),
    Mutation("context_ignores_weights", "context_vector", "return attn_weights @ inputs",
             "return inputs.mean(dim=0)", "context_ignores_weights"),
    Mutation("simple_attention_softmax_dim0", "simple_self_attention",
             "torch.softmax(attn_scores, dim=-1)", "torch.softmax(attn_scores, dim=0)",
             "softmax_wrong_dim"),
    Mutation("simple_attention_returns_weights", "simple_self_attention",
             "return attn_weights @ inputs", "return attn_weights", "returned_weights"),
    # 02_self_attention
    # one query (T_q = 1) gives the unscaled scores a wrong size's too: a wrong scale, named so there
    Mutation("scores_unscaled", "scaled_dot_product_scores", "return scores / d_k**0.5",
             "return scores", "no_sqrt_scaling", ("scores_scaled_wrongly",)),
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
             "self.W_key = nn.Parameter(torch.rand(d_out, d_in))", "parameter_transposed"),
    Mutation("v2_unscaled", "SelfAttention_v2", "attn_scores / keys.shape[-1] ** 0.5",
             "attn_scores", "no_sqrt_scaling"),
    Mutation("v2_values_from_keys", "SelfAttention_v2", "values = self.W_value(x)",
             "values = self.W_key(x)", "wrong_projection"),
    Mutation("copy_query_into_key", "copy_v2_weights_into_v1",
             "sa_v1.W_key.copy_(sa_v2.W_key.weight.T)", "sa_v1.W_key.copy_(sa_v2.W_query.weight.T)",
             "copied_wrong_matrix"),
    # 03_causal_attention
    Mutation("loop_excludes_current_token", "causal_average_loop", "x[b, : t + 1]", "x[b, :t]",
             "mask_hides_diagonal"),
    Mutation("matmul_not_normalised", "causal_average_matmul",
             "weights = weights / weights.sum(dim=1, keepdim=True)", "weights = weights",
             "prefix_sum"),
    Mutation("matmul_upper_triangle", "causal_average_matmul", "torch.tril(", "torch.triu(",
             "mask_swapped"),
    Mutation("average_softmax_dim0", "causal_average_softmax", "torch.softmax(scores, dim=-1)",
             "torch.softmax(scores, dim=0)", "normalised_wrong_dim"),
    Mutation("mask_hides_diagonal", "causal_mask", "diagonal=1", "diagonal=0",
             "mask_hides_diagonal"),
    Mutation("mask_lower_triangle", "causal_mask", "torch.triu(ones, diagonal=1)",
             "torch.tril(ones, diagonal=-1)", "mask_swapped"),
    Mutation("mask_ignores_device", "causal_mask", ", device=device)", ")", "device_not_followed"),
    Mutation("renormalize_forgotten", "mask_and_renormalize",
             "return masked / masked.sum(dim=-1, keepdim=True)", "return masked",
             "mask_after_softmax"),
    Mutation("masked_softmax_unscaled", "masked_softmax", "masked / d_k**0.5", "masked",
             "no_sqrt_scaling"),
    Mutation("masked_softmax_hides_diagonal", "masked_softmax", "diagonal=1", "diagonal=0",
             "mask_hides_diagonal"),
    Mutation("masked_softmax_fills_zero", "masked_softmax",
             "attn_scores.masked_fill(future, -torch.inf)", "attn_scores.masked_fill(future, 0.0)",
             "mask_filled_with_zero"),
    Mutation("dropout_not_rescaled", "inverted_dropout", "return x * keep / (1.0 - p)",
             "return x * keep", "dropout_not_rescaled"),
    Mutation("dropout_rescaled_by_p", "inverted_dropout", "return x * keep / (1.0 - p)",
             "return x * keep / p", "dropout_scaled_by_p"),
    Mutation("dropout_keeps_with_p", "inverted_dropout", "keep = draws >= p", "keep = draws < p",
             "dropout_keep_probability"),
    Mutation("dropout_in_eval", "inverted_dropout", "if not training or p == 0.0:",
             "if p == 0.0:", "dropout_in_eval"),
    Mutation("dropout_ignores_generator", "inverted_dropout", "generator=generator, ", "",
             "dropout_ignores_generator"),
    Mutation("dropout_calls_torch_dropout", "inverted_dropout", "return x * keep / (1.0 - p)",
             "return torch.nn.functional.dropout(x, p)", "library_dropout", ("dropout_ignores_generator",)),
    Mutation("dropout_accepts_negative_p", "inverted_dropout", "if not 0.0 <= p <= 1.0:",
             "if p > 1.0:", "invalid_p_not_rejected"),
    Mutation("attention_dropout_on_output", "CausalAttention",
             "attn_weights = self.dropout(attn_weights)\n        return attn_weights @ values",
             "return self.dropout(attn_weights @ values)", "dropout_on_output"),
    Mutation("attention_scaled_by_d_in", "CausalAttention", "keys.shape[-1] ** 0.5",
             "x.shape[-1] ** 0.5", "scaled_by_wrong_size"),
    Mutation("attention_keys_T", "CausalAttention", "keys.transpose(1, 2)", "keys.T",
             "keys_T_on_batch"),
    Mutation("attention_mask_plain_attribute", "CausalAttention",
             'self.register_buffer("mask", future)', "self.mask = future", "mask_plain_attribute"),
    Mutation("attention_mask_not_cropped", "CausalAttention",
             "self.mask[:num_tokens, :num_tokens]", "self.mask", "mask_not_sliced"),
    # 04_multi_head_attention
    Mutation("wrapper_concat_tokens", "MultiHeadAttentionWrapper", "dim=-1)", "dim=1)",
             "heads_concat_wrong_dim"),
    Mutation("wrapper_plain_list", "MultiHeadAttentionWrapper", "nn.ModuleList(", "list(",
             "heads_not_module_list"),
    Mutation("wrapper_2d_four_features", "wrapper_with_2d_output",
             "MultiHeadAttentionWrapper(d_in, 1,", "MultiHeadAttentionWrapper(d_in, 2,",
             "one_head_of_two_features"),
    Mutation("split_without_transpose", "split_heads", "return x.transpose(1, 2)", "return x",
             "view_without_transpose"),
    Mutation("split_copies", "split_heads", "return x.transpose(1, 2)",
             "return x.transpose(1, 2).contiguous()", "split_copies"),
    Mutation("split_without_check", "split_heads", "if d_out % num_heads != 0:", "if False:",
             "indivisible_not_rejected"),
    Mutation("merge_without_transpose", "merge_heads", "x = x.transpose(1, 2).contiguous()",
             "x = x.contiguous()", "view_without_transpose"),
    Mutation("multi_head_without_out_proj", "MultiHeadAttention", "return self.out_proj(context)",
             "return context", "missing_out_proj"),
    Mutation("multi_head_scaled_by_d_out", "MultiHeadAttention", "keys.shape[-1] ** 0.5",
             "self.d_out ** 0.5", "scaled_by_wrong_size"),
    Mutation("multi_head_dropout_always_on", "MultiHeadAttention",
             "attn_weights = self.dropout(attn_weights)",
             "attn_weights = nn.functional.dropout(attn_weights, self.dropout.p)", "dropout_in_eval"),
    Mutation("multi_head_softmax_dim2", "MultiHeadAttention", "** 0.5, dim=-1)", "** 0.5, dim=2)",
             "softmax_wrong_dim"),
    Mutation("gpt2_with_dropout", "gpt2_small_attention", "dropout=0.0", "dropout=0.1", "gpt2_dropout"),
    Mutation("gpt2_short_context", "gpt2_small_attention", "context_length=1024",
             "context_length=768", "gpt2_context_length"),
]

# Mistakes added with the behaviours every notebook promises (unchanged inputs, device-following
# functions, training-mode dropout in modules, every ValueError): at least two per stage.
NEW_MUTATIONS = [
    # 01_attention_scores
    Mutation("query_sum_over_tokens", "attention_scores_for_query", "return inputs @ query",
             "return (inputs * query).sum(dim=0)", "dot_product_wrong_dim"),
    Mutation("query_of_a_fixed_token", "attention_scores_for_query", "return inputs @ query",
             "return inputs @ inputs[1]", "query_ignored"),
    Mutation("scores_scaled_too_early", "attention_scores", "return inputs @ inputs.T",
             "return inputs @ inputs.T / inputs.shape[-1] ** 0.5", "scaled_too_early"),
    Mutation("naive_last_dim_only", "softmax_naive", "exp_x.sum(dim=dim, keepdim=True)",
             "exp_x.sum(dim=-1, keepdim=True)", "softmax_dim_ignored"),
    Mutation("naive_exp_in_place", "softmax_naive", "exp_x = torch.exp(x)", "exp_x = x.exp_()",
             "input_modified_in_place"),
    Mutation("stable_subtracts_mean", "softmax_stable", "x.max(dim=dim, keepdim=True).values",
             "x.mean(dim=dim, keepdim=True)", "softmax_shift_not_max"),
    Mutation("stable_subtracts_min", "softmax_stable", "x.max(dim=dim, keepdim=True).values",
             "x.min(dim=dim, keepdim=True).values", "softmax_shift_not_max"),
    Mutation("stable_max_of_last_dim", "softmax_stable", "x.max(dim=dim, keepdim=True).values",
             "x.max(dim=-1, keepdim=True).values", "softmax_max_wrong_dim"),
    Mutation("stable_shifts_in_place", "softmax_stable", "shifted = x - x.max(dim=dim, keepdim=True).values",
             "shifted = x.sub_(x.max(dim=dim, keepdim=True).values)", "input_modified_in_place"),
    Mutation("context_sums_inputs", "context_vector", "return attn_weights @ inputs",
             "return inputs.sum(dim=0)", "context_ignores_weights"),
    Mutation("context_sums_features", "context_vector", "return attn_weights @ inputs",
             "return (attn_weights[:, None] * inputs).sum(dim=1)", "weighted_sum_wrong_dim"),
    Mutation("simple_attention_without_softmax", "simple_self_attention",
             "attn_weights = torch.softmax(attn_scores, dim=-1)", "attn_weights = attn_scores",
             "missing_softmax"),
    Mutation("simple_attention_without_exp", "simple_self_attention",
             "attn_weights = torch.softmax(attn_scores, dim=-1)",
             "attn_weights = attn_scores / attn_scores.sum(dim=-1, keepdim=True)", "normalised_without_exp"),
    Mutation("simple_attention_scaled", "simple_self_attention", "torch.softmax(attn_scores, dim=-1)",
             "torch.softmax(attn_scores / inputs.shape[-1] ** 0.5, dim=-1)", "scaled_too_early"),
    # 02_self_attention
    Mutation("scores_keys_at_queries", "scaled_dot_product_scores",
             "scores = queries @ keys.transpose(-2, -1)", "scores = keys @ queries.transpose(-2, -1)",
             "scores_transposed"),
    Mutation("scores_softmaxed", "scaled_dot_product_scores", "return scores / d_k**0.5",
             "return torch.softmax(scores / d_k**0.5, dim=-1)", "returned_weights_not_scores"),
    Mutation("scores_scaled_by_query_count", "scaled_dot_product_scores", "d_k = keys.shape[-1]",
             "d_k = queries.shape[-2]", "scaled_by_wrong_size", ("scores_scaled_wrongly",)),
    Mutation("v1_values_from_queries", "SelfAttention_v1", "values = x @ self.W_value",
             "values = x @ self.W_query", "wrong_projection"),
    Mutation("v1_scaled_by_d_in", "SelfAttention_v1", "attn_scores / keys.shape[-1] ** 0.5",
             "attn_scores / x.shape[-1] ** 0.5", "scaled_by_wrong_size"),
    Mutation("v1_returns_weights", "SelfAttention_v1", "return attn_weights @ values",
             "return attn_weights", "returned_weights"),
    Mutation("v2_bias_ignored", "SelfAttention_v2", ", bias=qkv_bias)", ")", "qkv_bias_ignored"),
    Mutation("v2_softmax_dim0", "SelfAttention_v2", "** 0.5, dim=-1)", "** 0.5, dim=0)", "softmax_wrong_dim"),
    Mutation("v2_scores_transposed", "SelfAttention_v2", "attn_scores = queries @ keys.T",
             "attn_scores = keys @ queries.T", "scores_transposed"),
    Mutation("copy_query_into_value", "copy_v2_weights_into_v1", "sa_v1.W_value.copy_(sa_v2.W_value.weight.T)",
             "sa_v1.W_value.copy_(sa_v2.W_query.weight.T)", "copied_wrong_matrix"),
    # 03_causal_attention
    Mutation("loop_divides_by_length", "causal_average_loop", "x[b, : t + 1].mean(dim=0)",
             "x[b, : t + 1].sum(dim=0) / num_tokens", "divided_by_sequence_length"),
    Mutation("loop_averages_the_future", "causal_average_loop", "x[b, : t + 1]", "x[b, t:]", "mask_swapped"),
    Mutation("loop_averages_everything", "causal_average_loop", "x[b, : t + 1]", "x[b]", "mask_missing"),
    Mutation("matmul_weights_transposed", "causal_average_matmul", "return weights @ x", "return weights.T @ x",
             "weights_transposed"),
    Mutation("matmul_normalised_by_columns", "causal_average_matmul", "weights.sum(dim=1, keepdim=True)",
             "weights.sum(dim=0, keepdim=True)", "normalised_wrong_dim"),
    Mutation("matmul_weights_in_float32", "causal_average_matmul", "device=x.device, dtype=x.dtype",
             "device=x.device", "dtype_not_followed"),
    Mutation("loop_output_on_cpu", "causal_average_loop", "out = torch.zeros_like(x)",
             "out = torch.zeros(x.shape, dtype=x.dtype)", "device_not_followed"),
    Mutation("softmax_average_without_mask", "causal_average_softmax",
             'scores = scores.masked_fill(lower == 0, float("-inf"))', "scores = scores", "mask_missing"),
    Mutation("mask_of_floats", "causal_mask", "dtype=torch.bool, ", "", "mask_not_bool"),
    Mutation("renormalize_by_columns", "mask_and_renormalize", "masked.sum(dim=-1, keepdim=True)",
             "masked.sum(dim=-2, keepdim=True)", "normalised_wrong_dim"),
    Mutation("renormalize_keeps_the_future", "mask_and_renormalize", "masked = torch.tril(attn_weights)",
             "masked = torch.triu(attn_weights)", "mask_swapped"),
    Mutation("renormalize_in_place", "mask_and_renormalize", "masked = torch.tril(attn_weights)",
             "masked = attn_weights.tril_()", "input_modified_in_place"),
    Mutation("masked_softmax_scaled_after", "masked_softmax", "return torch.softmax(masked / d_k**0.5, dim=-1)",
             "return torch.softmax(masked, dim=-1) / d_k**0.5", "scaled_after_softmax"),
    Mutation("masked_softmax_in_place", "masked_softmax", "masked = attn_scores.masked_fill(future, -torch.inf)",
             "masked = attn_scores.masked_fill_(future, -torch.inf)", "input_modified_in_place"),
    Mutation("masked_softmax_mask_on_cpu", "masked_softmax", ", device=attn_scores.device", "",
             "device_not_followed"),
    Mutation("dropout_p1_divides_by_zero", "inverted_dropout", "    if p == 1.0:\n        return torch.zeros_like(x)\n",
             "", "dropout_p1_division"),
    Mutation("dropout_in_place", "inverted_dropout", "return x * keep / (1.0 - p)", "return x.mul_(keep).div_(1.0 - p)",
             "input_modified_in_place"),
    Mutation("dropout_draws_on_cpu", "inverted_dropout", "generator=generator, device=x.device,",
             "generator=generator,", "device_not_followed"),
    Mutation("attention_without_dropout", "CausalAttention", "        attn_weights = self.dropout(attn_weights)\n", "",
             "dropout_missing"),
    Mutation("attention_tril_buffer", "CausalAttention",
             "torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), diagonal=1)",
             "torch.tril(torch.ones(context_length, context_length, dtype=torch.bool))", "mask_inverted"),
    Mutation("attention_mask_after_softmax", "CausalAttention",
             "attn_scores = attn_scores.masked_fill(future, -torch.inf)\n"
             "        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)",
             "attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1).masked_fill(future, 0.0)",
             "mask_after_softmax"),
    Mutation("attention_values_from_queries", "CausalAttention", "values = self.W_value(x)",
             "values = self.W_query(x)", "wrong_projection"),
    Mutation("attention_bias_ignored", "CausalAttention", ", bias=qkv_bias)", ")", "qkv_bias_ignored"),
    Mutation("attention_returns_zeros", "CausalAttention", "return attn_weights @ values",
             "return torch.zeros_like(attn_weights @ values)", "output_not_tracked"),
    # 04_multi_head_attention
    Mutation("wrapper_one_shared_head", "MultiHeadAttentionWrapper",
             "[\n                CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)\n"
             "                for _ in range(num_heads)\n            ]",
             "[CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)] * num_heads", "shared_head"),
    Mutation("wrapper_sums_heads", "MultiHeadAttentionWrapper",
             "return torch.cat([head(x) for head in self.heads], dim=-1)",
             "return sum(head(x) for head in self.heads)", "heads_summed"),
    Mutation("wrapper_2d_one_head", "wrapper_with_2d_output",
             "MultiHeadAttentionWrapper(d_in, 1, context_length, dropout, num_heads=2)",
             "MultiHeadAttentionWrapper(d_in, 2, context_length, dropout, num_heads=1)", "one_head_of_two_features"),
    Mutation("split_interleaved", "split_heads",
             "x = x.view(b, num_tokens, num_heads, head_dim)  # (b, T, d_out) -> (b, T, h, hd)\n"
             "    return x.transpose(1, 2)",
             "return x.view(b, num_tokens, head_dim, num_heads).permute(0, 3, 1, 2)", "heads_interleaved"),
    Mutation("split_wrong_transpose", "split_heads", "return x.transpose(1, 2)", "return x.transpose(2, 3)",
             "wrong_transpose"),
    Mutation("split_raises_type_error", "split_heads", "raise ValueError(", "raise TypeError(",
             "indivisible_not_rejected"),
    Mutation("merge_without_contiguous", "merge_heads", "x = x.transpose(1, 2).contiguous()",
             "x = x.transpose(1, 2)", "view_needs_contiguous"),
    Mutation("merge_wrong_transpose", "merge_heads", "x = x.transpose(1, 2).contiguous()",
             "x = x.transpose(2, 3).contiguous()", "wrong_transpose"),
    Mutation("multi_head_accepts_indivisible", "MultiHeadAttention", "if d_out % num_heads != 0:", "if False:",
             "indivisible_not_rejected"),
    Mutation("multi_head_without_dropout", "MultiHeadAttention",
             "        attn_weights = self.dropout(attn_weights)  # (b, h, T, T)\n", "", "dropout_missing"),
    Mutation("multi_head_dropout_on_context", "MultiHeadAttention",
             "attn_weights = self.dropout(attn_weights)  # (b, h, T, T)\n"
             "        context = merge_heads(attn_weights @ values)",
             "context = merge_heads(self.dropout(attn_weights @ values))", "dropout_on_output"),
    Mutation("multi_head_out_proj_follows_qkv_bias", "MultiHeadAttention", "self.out_proj = nn.Linear(d_out, d_out)",
             "self.out_proj = nn.Linear(d_out, d_out, bias=qkv_bias)", "out_proj_bias"),
    Mutation("multi_head_mask_plain_attribute", "MultiHeadAttention",
             'self.register_buffer("mask", future)', "self.mask = future", "mask_plain_attribute"),
    Mutation("multi_head_bias_ignored", "MultiHeadAttention", ", bias=qkv_bias)", ")", "qkv_bias_ignored"),
    Mutation("gpt2_with_qkv_bias", "gpt2_small_attention", "num_heads=12", "num_heads=12, qkv_bias=True",
             "gpt2_qkv_bias"),
    Mutation("gpt2_eight_heads", "gpt2_small_attention", "num_heads=12", "num_heads=8", "gpt2_head_count"),
    # Exercise 3.2 changes only d_out: biases the demo's wrapper lacks are stated by the check too.
    Mutation("wrapper_2d_with_qkv_bias", "wrapper_with_2d_output", "dropout, num_heads=2)",
             "dropout, num_heads=2, qkv_bias=True)", "qkv_bias_changed"),
    # Heads cut straight to (b, h, T, hd) inside the module: masked right, yet tokens mix in the heads.
    Mutation("multi_head_views_heads_inline", "MultiHeadAttention",
             "        queries = split_heads(self.W_query(x), self.num_heads)  # (b, h, T, hd)\n"
             "        keys = split_heads(self.W_key(x), self.num_heads)  # (b, h, T, hd)\n"
             "        values = split_heads(self.W_value(x), self.num_heads)  # (b, h, T, hd)\n",
             "        heads = (x.shape[0], self.num_heads, num_tokens, self.head_dim)\n"
             "        queries = self.W_query(x).view(heads)\n"
             "        keys = self.W_key(x).view(heads)\n"
             "        values = self.W_value(x).view(heads)\n",
             "tokens_mixed_outside_weights", also_named=("view_without_transpose",)),
]
MUTATIONS += NEW_MUTATIONS
# Every mistake of the kit's corpus: one-line substitutions and whole wrong answers.
CORPUS = [*MUTATIONS, *WRONG_ANSWERS]
