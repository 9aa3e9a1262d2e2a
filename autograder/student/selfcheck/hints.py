"""Each stage's hints, in three tiers: ``hint(stage)`` the idea, ``hint(stage, 2)`` the functions
that do it, ``hint(stage, 3)`` code to start from, shown only when asked for.

The first two tiers are words (translated in ``locales/<language>/hints.json``, keys
``idea.<stage>`` and ``functions.<stage>``); the third is code, the same in every language, as
the notebooks' code is. Which tier a student opened is recorded in the notebook (``records``);
the grader reports it, for no points.
"""

from __future__ import annotations

IDEAS: dict[str, str] = {
    "attention_scores_for_query": (
        "A score is a dot product: multiply the query and a token feature by feature, and add up. One"
        " product of the whole matrix of tokens with the query does it for every token at once."
    ),
    "attention_scores": (
        "Entry [i, j] is the dot product of token i with token j. Every token meets every token: think of"
        " which matrix product pairs each row of inputs with each row of inputs."
    ),
    "softmax_naive": (
        "Exponentiate every entry, then divide each one by the sum of the exponentials along `dim`. The"
        " sum must keep a dimension of size 1, so that the division lines up with x whatever `dim` is."
    ),
    "softmax_stable": (
        "Shift every slice along `dim` by a constant before the exponential: the result does not change,"
        " and with the right constant the largest exponent is 0, so nothing overflows."
    ),
    "context_vector": (
        "Scale every token embedding by its weight and add the scaled embeddings up: a weighted sum over"
        " the tokens, with one value per feature."
    ),
    "simple_self_attention": (
        "Every token is a query: the scores of all pairs, a softmax over each row (each query's weights"
        " sum to 1), then for every row the weighted sum of the inputs. Your earlier functions do each step."
    ),
    "scaled_dot_product_scores": (
        "The scores are queries times keys, feature by feature, for every pair of tokens, divided by the"
        " square root of the key size. The leading dimensions (batch, heads) must stay as they are."
    ),
    "SelfAttention_v1": (
        "Follow the walk-through above for every query at once: project the input three times, score every"
        " query against every key (scaled), softmax each row, and mix the values with those weights."
    ),
    "SelfAttention_v2": (
        "The same computation as SelfAttention_v1; only the projections change: each is a layer that you"
        " call on x."
    ),
    "copy_v2_weights_into_v1": (
        "Both modules compute x times a matrix. v2's layer keeps its matrix the other way round: what must"
        " v1's matrix be so that both products agree?"
    ),
    "causal_average_loop": (
        "For every sequence and every position t, average the rows 0 to t of that sequence, and write the"
        " mean into a new tensor with x's shape, dtype and device."
    ),
    "causal_average_matmul": (
        "The prefix mean is a weighted sum, so it is a matrix product: row t of a (T, T) matrix holds the"
        " weights of tokens 0 to t, equal and summing to 1, and zeros after them."
    ),
    "causal_average_softmax": (
        "Equal scores give equal weights after a softmax; a score of minus infinity gives weight 0. Start"
        " from equal scores, make the future minus infinity, and the softmax builds the averaging matrix."
    ),
    "causal_mask": (
        "Entry [i, j] is hidden when key j comes after query i, that is j > i: strictly above the diagonal."
        " The diagonal itself stays visible."
    ),
    "mask_and_renormalize": (
        "Set every weight above the diagonal to zero in a new tensor, then divide each row by its new sum"
        " so that it adds up to 1 again."
    ),
    "masked_softmax": (
        "Hide the future before the softmax: a score of minus infinity above the diagonal becomes exactly"
        " 0 after it. Scale by the square root of d_k, and normalise over the keys (the last dimension)."
    ),
    "inverted_dropout": (
        "Handle the special cases first (p outside [0, 1], not training or p == 0, p == 1). Then keep each"
        " element with probability 1 - p, and divide the kept ones by 1 - p so the expected value stays."
    ),
    "CausalAttention": (
        "It is SelfAttention_v2 on a batch, with the future hidden before the softmax and dropout on the"
        " weights. The mask belongs to the module (a buffer), made once for context_length and cut to T."
    ),
    "MultiHeadAttentionWrapper": (
        "Run every head on the same input and put their outputs side by side along the features. The heads"
        " must be registered with the module, so that their parameters are found and moved."
    ),
    "wrapper_with_2d_output": (
        "The wrapper's d_out is the size of each head, and two heads are concatenated: which head size"
        " gives 2 features in all?"
    ),
    "split_heads": (
        "First cut the last dimension into num_heads groups of head_dim features (no data moves), then"
        " bring the head dimension in front of the tokens, so each head is a batch of (T, head_dim)."
    ),
    "merge_heads": (
        "Undo split_heads in reverse order: heads back behind the tokens, then the groups joined into one"
        " feature dimension. The join needs the memory in reading order first."
    ),
    "MultiHeadAttention": (
        "Project once for all heads, cut the projections into heads, and do what CausalAttention does for"
        " every head at once (scaled by the head size). Join the heads again and mix them with out_proj."
    ),
    "gpt2_small_attention": (
        "Build your MultiHeadAttention with GPT-2 small's sizes: 768 features in and out, 12 heads, a"
        " context of 1024 tokens, and no dropout; leave everything else at its default."
    ),
}

FUNCTIONS: dict[str, str] = {
    "attention_scores_for_query": 'The matrix-vector product `@`, between the matrix of tokens and the query.',
    "attention_scores": '`@` and a transpose, `.T` (for a 2-D tensor).',
    "softmax_naive": '`torch.exp` and `.sum`, with its `dim` and `keepdim` arguments.',
    "softmax_stable": (
        '`.max` (it returns `values` and `indices`) or `torch.amax`, along `dim` and keeping it;'
        ' then `torch.exp` and `.sum` as in softmax_naive.'
    ),
    "context_vector": '`@`, between the weights and the matrix of tokens.',
    "simple_self_attention": (
        'Your `attention_scores`, `torch.softmax` (or your softmax) over the last dimension, and'
        ' `@`.'
    ),
    "scaled_dot_product_scores": (
        '`@`, `.transpose` with dimensions counted from the end, and `.shape` for the key'
        ' size.'
    ),
    "SelfAttention_v1": (
        '`nn.Parameter` and `torch.rand` in `__init__`; in forward `@`, `.T`, `torch.softmax` and'
        ' `.shape`.'
    ),
    "SelfAttention_v2": (
        '`nn.Linear` with its `bias` argument; in forward, call each layer on x, and the rest as'
        ' in v1.'
    ),
    "copy_v2_weights_into_v1": (
        "The layers' `weight` and its `.T`; `torch.no_grad` and `copy_`, or a new"
        ' `nn.Parameter`.'
    ),
    "causal_average_loop": '`torch.zeros_like`, two `range` loops, and `.mean`.',
    "causal_average_matmul": (
        "`torch.tril` and `torch.ones` (with x's dtype and device), `.sum` keeping the dimension,"
        ' and `@`.'
    ),
    "causal_average_softmax": (
        '`torch.zeros`, `torch.tril`, a comparison, `.masked_fill` with minus infinity, and'
        ' `torch.softmax`.'
    ),
    "causal_mask": '`torch.ones` (boolean, on `device`) and `torch.triu` with its `diagonal` argument.',
    "mask_and_renormalize": '`torch.tril` (it works on the last two dimensions) and `.sum` keeping the dimension.',
    "masked_softmax": (
        '`torch.triu` and `torch.ones` for a boolean mask, `.masked_fill` (not the in-place'
        ' `masked_fill_`), and `torch.softmax`.'
    ),
    "inverted_dropout": (
        '`ValueError`, `torch.zeros_like`, `torch.rand` with its `generator` argument, and a'
        ' comparison with p.'
    ),
    "CausalAttention": (
        '`nn.Linear`, `nn.Dropout`, `register_buffer`, `torch.triu`, `.transpose`, `.masked_fill`,'
        ' `torch.softmax`, and a slice of the mask.'
    ),
    "MultiHeadAttentionWrapper": '`nn.ModuleList` and `torch.cat` along the last dimension.',
    "wrapper_with_2d_output": 'Your `MultiHeadAttentionWrapper`, with two heads.',
    "split_heads": '`.view` and `.transpose`, and `ValueError`.',
    "merge_heads": '`.transpose`, `.contiguous` and `.view` (or `.reshape`).',
    "MultiHeadAttention": (
        'Four `nn.Linear`, `nn.Dropout`, `register_buffer`, your `split_heads` and `merge_heads`,'
        ' `.transpose`, `.masked_fill`, `torch.softmax` and `out_proj`.'
    ),
    "gpt2_small_attention": 'Your `MultiHeadAttention`, with its keyword arguments named.',
}

# Tiers 1 and 2 keyed as ``hints.json`` translates them: one catalog for both tiers' words.
TIER_WORDS: dict[str, str] = {**{f"idea.{stage}": text for stage, text in IDEAS.items()},
                              **{f"functions.{stage}": text for stage, text in FUNCTIONS.items()}}

CODE: dict[str, str] = {
    "attention_scores_for_query": "return inputs @ query  # (T, d) @ (d,) -> (T,)",
    "attention_scores": "return inputs @ inputs.T  # (T, d) @ (d, T) -> (T, T)",
    "softmax_naive": (
        "exp_x = torch.exp(x)\n"
        "return exp_x / exp_x.sum(dim=dim, keepdim=True)"
    ),
    "softmax_stable": (
        "shifted = x - x.max(dim=dim, keepdim=True).values  # the largest entry becomes 0\n"
        "exp_x = torch.exp(shifted)\n"
        "return exp_x / exp_x.sum(dim=dim, keepdim=True)"
    ),
    "context_vector": "return attn_weights @ inputs  # (T,) @ (T, d) -> (d,)",
    "simple_self_attention": (
        "attn_weights = torch.softmax(attention_scores(inputs), dim=-1)  # (T, T)\n"
        "return attn_weights @ inputs  # (T, T) @ (T, d) -> (T, d)"
    ),
    "scaled_dot_product_scores": (
        "d_k = keys.shape[-1]\n"
        "return queries @ keys.transpose(-2, -1) / d_k**0.5  # (..., T_q, T_k)"
    ),
    "SelfAttention_v1": (
        "# __init__: self.W_query = nn.Parameter(torch.rand(d_in, d_out)), then W_key, W_value\n"
        "queries, keys, values = x @ self.W_query, x @ self.W_key, x @ self.W_value  # (T, d_out)\n"
        "attn_weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)  # (T, T)\n"
        "return attn_weights @ values"
    ),
    "SelfAttention_v2": (
        "# __init__: self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias), then W_key, W_value\n"
        "queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)  # (T, d_out)\n"
        "attn_weights = torch.softmax(queries @ keys.T / keys.shape[-1] ** 0.5, dim=-1)\n"
        "return attn_weights @ values"
    ),
    "copy_v2_weights_into_v1": (
        "with torch.no_grad():\n"
        "    sa_v1.W_query.copy_(sa_v2.W_query.weight.T)  # (d_out, d_in).T -> (d_in, d_out)\n"
        "    # and the same for W_key and W_value"
    ),
    "causal_average_loop": (
        "out = torch.zeros_like(x)\n"
        "for b in range(x.shape[0]):\n"
        "    for t in range(x.shape[1]):\n"
        "        out[b, t] = x[b, : t + 1].mean(dim=0)\n"
        "return out"
    ),
    "causal_average_matmul": (
        "T = x.shape[1]\n"
        "weights = torch.tril(torch.ones(T, T, dtype=x.dtype, device=x.device))\n"
        "weights = weights / weights.sum(dim=1, keepdim=True)\n"
        "return weights @ x  # (T, T) @ (B, T, C) -> (B, T, C)"
    ),
    "causal_average_softmax": (
        "T = x.shape[1]\n"
        "lower = torch.tril(torch.ones(T, T, device=x.device))\n"
        "scores = torch.zeros(T, T, dtype=x.dtype, device=x.device).masked_fill(lower == 0, float('-inf'))\n"
        "return torch.softmax(scores, dim=-1) @ x"
    ),
    "causal_mask": (
        "ones = torch.ones(num_tokens, num_tokens, dtype=torch.bool, device=device)\n"
        "return torch.triu(ones, diagonal=1)  # True strictly above the diagonal"
    ),
    "mask_and_renormalize": (
        "kept = torch.tril(attn_weights)  # zeros above the diagonal, a new tensor\n"
        "return kept / kept.sum(dim=-1, keepdim=True)"
    ),
    "masked_softmax": (
        "T = attn_scores.shape[-1]\n"
        "future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=attn_scores.device), diagonal=1)\n"
        "return torch.softmax(attn_scores.masked_fill(future, -torch.inf) / d_k**0.5, dim=-1)"
    ),
    "inverted_dropout": (
        "if not 0 <= p <= 1:\n"
        "    raise ValueError(f'p must be between 0 and 1, got {p}')\n"
        "if not training or p == 0:\n"
        "    return x\n"
        "if p == 1:\n"
        "    return torch.zeros_like(x)\n"
        "keep = torch.rand(x.shape, generator=generator, device=x.device) >= p\n"
        "return x * keep / (1 - p)"
    ),
    "CausalAttention": (
        "# __init__: the three nn.Linear, self.dropout = nn.Dropout(dropout), and\n"
        "# self.register_buffer('mask', torch.triu(torch.ones(context_length, context_length, dtype=torch.bool), 1))\n"
        "T = x.shape[1]\n"
        "queries, keys, values = self.W_query(x), self.W_key(x), self.W_value(x)  # (b, T, d_out)\n"
        "scores = (queries @ keys.transpose(1, 2)).masked_fill(self.mask[:T, :T], -torch.inf)\n"
        "attn_weights = self.dropout(torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1))\n"
        "return attn_weights @ values  # (b, T, d_out)"
    ),
    "MultiHeadAttentionWrapper": (
        "self.heads = nn.ModuleList([CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)\n"
        "                            for _ in range(num_heads)])\n"
        "# forward:\n"
        "return torch.cat([head(x) for head in self.heads], dim=-1)"
    ),
    "wrapper_with_2d_output": "return MultiHeadAttentionWrapper(d_in, 1, context_length, dropout, num_heads=2)",
    "split_heads": (
        "b, T, d_out = x.shape\n"
        "# (raise ValueError first when d_out % num_heads != 0)\n"
        "return x.view(b, T, num_heads, d_out // num_heads).transpose(1, 2)  # (b, h, T, hd)"
    ),
    "merge_heads": (
        "b, h, T, hd = x.shape\n"
        "return x.transpose(1, 2).contiguous().view(b, T, h * hd)"
    ),
    "MultiHeadAttention": (
        "T = x.shape[1]\n"
        "queries = split_heads(self.W_query(x), self.num_heads)  # (b, h, T, hd), keys and values alike\n"
        "scores = (queries @ keys.transpose(2, 3)).masked_fill(self.mask[:T, :T], -torch.inf)\n"
        "attn_weights = self.dropout(torch.softmax(scores / keys.shape[-1] ** 0.5, dim=-1))\n"
        "return self.out_proj(merge_heads(attn_weights @ values))  # (b, T, d_out)"
    ),
    "gpt2_small_attention": (
        "return MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12)"
    ),
}
