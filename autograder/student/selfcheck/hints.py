"""Each stage's hints, in three tiers, shown only when asked for: ``hint(stage)`` the idea, in
words; ``hint(stage, 2)`` the tools that do it, and why those; ``hint(stage, 3)`` a skeleton of
the code whose key lines are left blank (``____`` for a value, ``...`` for lines) for the student.

A hint teaches; it never hands the answer over: tiers 1 and 2 hold no piece of the stage's
solution, and tier 3 holds no working line of it (tests/test_hint_tiers.py reads the master
notebooks' answer cells to check). The answers themselves come after the due date, not in hints.

All three tiers are translated in ``locales/<language>/hints.json``, keys ``idea.<stage>``,
``functions.<stage>`` and ``code.<stage>``; a translated skeleton keeps the English code and
translates its comments. Which tier a student opened is recorded in the notebook (``records``);
the grader reports it, for no points.
"""

from __future__ import annotations

# The stages a student designs from a contract alone ("No recipe this time" in the notebook): no
# hint on them gives the fix of a mistake the check named before tier 3, where it is labelled as
# what the check found (a fix there is a recipe: "separate the features, then swap the axes").
DESIGNED: frozenset[str] = frozenset({
    "softmax_stable", "context_vector", "simple_self_attention",
    "SelfAttention_v1", "SelfAttention_v2", "copy_v2_weights_into_v1",
    "causal_average_softmax", "causal_mask", "masked_softmax", "inverted_dropout", "CausalAttention",
    "split_heads", "merge_heads", "MultiHeadAttention",
})

# Tier 1: the idea, in words only (no code: `catalog.holds_code` says no).
IDEAS: dict[str, str] = {
    "attention_scores_for_query": (
        "A score says how well one token matches the query: multiply the two feature by feature and add up, a"
        " dot product. Done for every token, that is one number per row of inputs."
    ),
    "attention_scores": (
        "Entry [i, j] is the score of token i against token j, the dot product of rows i and j of inputs."
        " Every row must meet every row: one operation compares all pairs of rows at once, once its second"
        " factor is laid out the right way round."
    ),
    "softmax_naive": (
        "Softmax turns scores into weights: make every entry positive with the exponential, then divide each"
        " one by the total of its slice along `dim`, so that every slice sums to 1. The total must keep its"
        " dimension, of size 1, so that the division lines up with x whatever `dim` is."
    ),
    "softmax_stable": (
        "Subtracting the same number from every entry of a slice leaves its softmax unchanged: the factor it"
        " puts on every exponential cancels in the division. So you may shift every slice first, by the number"
        " that the two questions above the stage led you to, and then apply softmax_naive's formula to the"
        " shifted entries."
    ),
    "context_vector": (
        "The context vector mixes the tokens as the weights say: a weight of 1 on one token (0 on the others)"
        " gives that token's embedding back, equal weights give the average embedding, and the mix follows"
        " each weight in proportion. The result has one value per feature."
    ),
    "simple_self_attention": (
        "Every token is a query in turn: score it against all tokens, turn each query's scores into weights"
        " that sum to 1, and mix the tokens with those weights. The three steps are functions you wrote above,"
        " done for all queries at once."
    ),
    "scaled_dot_product_scores": (
        "The scores are the dot products of every query with every key, divided by the square root of the key"
        " size so that they do not grow with it. Leading dimensions (batch, heads) are left alone: only the"
        " last two take part."
    ),
    "SelfAttention_v1": (
        "For all tokens at once: project the input three ways (queries, keys, values), score every query"
        " against every key, scale and normalise each row, and mix the values with those weights. Each"
        " projection is a learned (d_in, d_out) matrix."
    ),
    "SelfAttention_v2": (
        "The same computation as SelfAttention_v1; only the projections change: each is a linear layer, which"
        " holds its own weights (and a bias when asked for) and is called on x."
    ),
    "copy_v2_weights_into_v1": (
        "After the call, sa_v1 must compute what sa_v2 computes, for every input. Write what one projection of"
        " each module computes, as the notebook does above the stage, and ask which matrix v1 must hold for the"
        " two to agree on every x: that is what the copy writes. If autograd refuses a change, read why: its"
        " message names the change it will not record."
    ),
    "causal_average_loop": (
        "Position t of a sequence may look only at itself and the positions before it: its output is the mean"
        " of rows 0 to t of that sequence. Do it the slow, obvious way, one sequence and one position at a"
        " time, writing into a new tensor."
    ),
    "causal_average_matmul": (
        "A prefix mean is a weighted sum, so it is a matrix product: row t of a (T, T) weight matrix holds"
        " equal weights on tokens 0 to t, summing to 1, and zeros after them. Build that matrix once; the"
        " product applies it to every sequence of the batch."
    ),
    "causal_average_softmax": (
        "A softmax turns each row of scores into weights that sum to 1: equal scores share the weight equally,"
        " and the lower a score, the less weight it gets. Give every position a token may see the same score,"
        " and every later position the score whose weight comes out as exactly 0: the softmax of each row is"
        " then the averaging matrix."
    ),
    "causal_mask": (
        "A score is hidden when its key comes after its query: entry [i, j] is True exactly when j is greater"
        " than i, the part strictly above the diagonal. The diagonal, a token looking at itself, stays"
        " visible."
    ),
    "mask_and_renormalize": (
        "After the softmax, zero every weight whose key comes after its query, in a new tensor. Each row then"
        " sums to less than 1: divide it by its new total to make it a distribution again."
    ),
    "masked_softmax": (
        "Hide the future before the softmax, not after: choose the score a hidden key must have so that the"
        " softmax gives it exactly 0, and the weights left in each row still sum to 1 with no second division."
        " Scale the scores by the square root of d_k, and normalise over the keys, the last dimension."
    ),
    "inverted_dropout": (
        "Dropout zeroes each element at random, with probability p, and scales up the survivors so that every"
        " element keeps its expected value. Deal first with the cases that need no randomness: a p that is"
        " not a probability, no training, nothing to drop, everything dropped."
    ),
    "CausalAttention": (
        "SelfAttention_v2 on a batch, with two additions: the future is hidden before the softmax, and"
        " dropout acts on the attention weights. The mask belongs to the module: made once, for the longest"
        " context, and cut to the T tokens of each input."
    ),
    "MultiHeadAttentionWrapper": (
        "Several independent heads, each a CausalAttention, run on the same input, and their outputs are put"
        " side by side along the features. The heads must be registered with the module, so that their"
        " parameters are found, trained and moved with it."
    ),
    "wrapper_with_2d_output": (
        "In the wrapper, d_out is the size of each head, and the heads' outputs are put side by side: the"
        " output has num_heads times d_out features. Which head size gives 2 features in all with two heads?"
    ),
    "split_heads": (
        "Each head gets its own share of the features: every token's d_out features become num_heads groups"
        " of head_dim, and the heads come before the tokens, so that each head is a batch of its own. A d_out"
        " that does not divide evenly is an error to report."
    ),
    "merge_heads": (
        "Undo split_heads, in reverse order: the heads go back behind the tokens, then each token's groups"
        " join into one feature dimension. Joining needs the data laid out in memory in that order, which a"
        " swap of dimensions alone does not give."
    ),
    "MultiHeadAttention": (
        "One projection for all heads, cut into heads: each head attends as CausalAttention does, all heads"
        " at once as a batch, scaled by the square root of the head size. Then join the heads again and let a"
        " last linear layer mix them."
    ),
    "gpt2_small_attention": (
        "GPT-2 small's attention is your MultiHeadAttention at one particular size: take the sizes from the"
        " docstring above (the model's configuration), and turn off what only training needs."
    ),
}

# Tier 2: the tools that do it, and why those; never the line they make together.
FUNCTIONS: dict[str, str] = {
    "attention_scores_for_query": (
        "A matrix-vector product does all T dot products at once: a (T, d) matrix times a (d,) vector gives a"
        " (T,) vector, each entry one row's dot product with the vector. Python has an operator for the"
        " matrix product (a loop over the rows gives the same numbers, slowly); look at the `.shape` of both"
        " factors first."
    ),
    "attention_scores": (
        "The matrix product again. Its inner sizes must match, so the second factor must be (d, T), not (T,"
        " d): a transpose swaps the rows and columns of a 2-D tensor (PyTorch has an attribute for it and a"
        " `transpose` method)."
    ),
    "softmax_naive": (
        "`torch.exp` for the exponential; `.sum` along `dim` for the totals, with `keepdim` so that the"
        " result keeps a dimension of size 1 and broadcasts against x in the division."
    ),
    "softmax_stable": (
        "A reduction along `dim` that gives, for each slice, the number the two questions above picked,"
        " keeping the dimension so that it broadcasts against x (some reductions return values and indices"
        " together: take the values); then softmax_naive's tools, `torch.exp` and `.sum`."
    ),
    "context_vector": (
        "A vector-matrix product does the whole weighted sum in one go: one side of it holds the T weights,"
        " the other the (T, d) embeddings. Which order makes the sizes line up, and gives (d,)? The `.shape`"
        " of each factor tells you."
    ),
    "simple_self_attention": (
        "Your own `attention_scores` for all pairs, your softmax along the dimension that holds one query's"
        " scores, and the product you used in `context_vector`, each now done for every query at once, with a"
        " (T, T) matrix of weights."
    ),
    "scaled_dot_product_scores": (
        "The matrix product multiplies the last two dimensions and broadcasts the others. The keys must be"
        " turned round in their last two dimensions only: `.transpose` does it when you count the dimensions"
        " from the end, with negative numbers. `.shape` gives the key size."
    ),
    "SelfAttention_v1": (
        "In __init__, `nn.Parameter` registers a tensor as something to train and `torch.rand` fills it;"
        " create W_query, W_key and W_value in that order, since the order decides which random numbers each"
        " gets. In forward, `@` does every product: before each one, write the shapes of its two operands side"
        " by side (`.shape` prints them), since the sizes that meet in the middle must agree and the result"
        " must have the shape the next step needs. `torch.softmax` normalises along the `dim` you give it: ask"
        " along which dimension one query's scores lie. The scaling is the one of scaled_dot_product_scores."
    ),
    "SelfAttention_v2": (
        "`nn.Linear` for each projection, with its `bias` argument taken from qkv_bias; calling a layer on x"
        " projects it. The rest of forward is v1's: matrix products, a transpose, the scaling and"
        " `torch.softmax`."
    ),
    "copy_v2_weights_into_v1": (
        "A linear layer keeps its matrix in `.weight`: print `sa_v2.W_query.weight.shape` beside"
        " `sa_v1.W_query.shape`, and compare each with the shape that `x @ W` needs of W for an x of shape"
        " (T, d_in). The shapes, and the formula of each projection, tell you what the copy must do with the"
        " layer's matrix. Two designs work: `copy_` writes into one of sa_v1's existing parameters in place, so"
        " an optimizer built before still holds it, once autograd is told not to record the write"
        " (`torch.no_grad`); a new `nn.Parameter` replaces one, and an optimizer built before then holds the"
        " old one."
    ),
    "causal_average_loop": (
        "`torch.zeros_like` makes the output with x's shape, dtype and device; two `range` loops walk the"
        " sequences and the positions; a slice that stops just after t takes the prefix, and `.mean` over the"
        " token dimension averages it."
    ),
    "causal_average_matmul": (
        "`torch.ones` and `torch.tril` give a lower triangle of ones, made with x's dtype and device so that"
        " the product works on any input; `.sum` over each row, keeping the dimension, normalises it; the"
        " matrix product broadcasts a (T, T) matrix over the batch."
    ),
    "causal_average_softmax": (
        "`torch.zeros` for the equal scores; `torch.tril` or `torch.triu` to tell the past from the future;"
        " `.masked_fill` to put on the future the score you decided on; `torch.softmax` over each row; then the matrix"
        " product of causal_average_matmul."
    ),
    "causal_mask": (
        "`torch.ones` with a boolean dtype, made on `device` so that it sits beside the scores it will hide;"
        " `torch.triu` keeps an upper triangle, and its `diagonal` argument says from which diagonal on."
    ),
    "mask_and_renormalize": (
        "`torch.tril` keeps the lower triangle of the last two dimensions, whatever the leading ones, and"
        " returns a new tensor; `.sum` over the last dimension, keeping it, gives each row's total to divide"
        " by."
    ),
    "masked_softmax": (
        "A boolean mask of the future as in causal_mask (`torch.ones`, `torch.triu`), on the scores' device;"
        " `.masked_fill` to put the score you decided on there (it returns a new tensor, where `masked_fill_` would"
        " change the caller's scores); `torch.softmax` over the last dimension."
    ),
    "inverted_dropout": (
        "`ValueError` for a p outside [0, 1]; `torch.zeros_like` when everything is dropped; `torch.rand`"
        " with its `generator` argument (a seeded generator makes the draws reproducible) and a comparison"
        " with p, for a boolean mask that keeps an element with probability 1 - p."
    ),
    "CausalAttention": (
        "`nn.Linear` for the projections and `nn.Dropout` for the weights; `register_buffer` keeps the mask"
        " with the module (it is saved and follows the module to a device, but is not trained), `torch.triu`"
        " builds it and a slice cuts it to T; `.transpose` turns the keys of a batch; `.masked_fill` and"
        " `torch.softmax` as in masked_softmax."
    ),
    "MultiHeadAttentionWrapper": (
        "`nn.ModuleList` holds modules so that the parent registers them (a plain Python list would hide them"
        " from its parameters and its device); `torch.cat` along the last dimension joins the heads' outputs."
    ),
    "wrapper_with_2d_output": (
        "Your `MultiHeadAttentionWrapper`, built with two heads and the head size you worked out; d_in,"
        " context_length and dropout are passed through as they come."
    ),
    "split_heads": (
        "`.view` gives a tensor a new shape without moving its data, so it can cut the last dimension into"
        " groups; `.transpose` swaps two dimensions, to bring the heads in front of the tokens. Check the"
        " sizes first, and raise a `ValueError` that names them when the features do not divide evenly among"
        " the heads."
    ),
    "merge_heads": (
        "`.transpose` and `.view` again, the tools that split the heads, now to undo that split; `.view` reads"
        " memory in its current layout, so think about what the transpose did to it (the notebook's section on"
        " the merge's copy shows it), or use `.reshape`, which copies when it must."
    ),
    "MultiHeadAttention": (
        "Four `nn.Linear`, for queries, keys, values and then out_proj, in that order; `nn.Dropout` and a"
        " mask buffer as in CausalAttention; your `split_heads` and `merge_heads` to go from (b, T, d_out) to"
        " (b, h, T, hd) and back; `.transpose`, `.masked_fill` and `torch.softmax` as before."
    ),
    "gpt2_small_attention": (
        "Your `MultiHeadAttention`, with its keyword arguments named, so that each size visibly goes where it"
        " belongs; qkv_bias keeps its default."
    ),
}

# Tier 3: a skeleton, Python that parses, whose key lines are blanks (____, ...) with comments
# that say what goes there.
CODE: dict[str, str] = {
    "attention_scores_for_query": (
        "# A (T, d) matrix and a (d,) vector give (T,) scores, one per token.\n"
        "scores = ____  # the dot product of every row of inputs with query\n"
        "return scores"
    ),
    "attention_scores": (
        "# (T, d) and (d, T) give (T, T): row i holds query i's scores against every token.\n"
        "tokens_as_columns = ____  # inputs turned round: (d, T)\n"
        "return ____  # (T, T)"
    ),
    "softmax_naive": (
        "exp_x = ____  # every entry made positive\n"
        "totals = ____  # the sum of exp_x along dim, keeping that dimension (size 1)\n"
        "return ____  # each entry divided by the total of its slice"
    ),
    "softmax_stable": (
        "shift = ____  # the number the questions above picked, one per slice along dim, keeping the dimension\n"
        "shifted = ____  # x moved by that shift\n"
        "exp_x = ____\n"
        "return ____  # normalised as in softmax_naive"
    ),
    "context_vector": (
        "# (T,) weights and (T, d) embeddings give (d,): one weighted sum per feature.\n"
        "context = ____\n"
        "return context"
    ),
    "simple_self_attention": (
        "attn_scores = ____  # (T, T): every query against every token\n"
        "attn_weights = ____  # (T, T): each row sums to 1\n"
        "return ____  # (T, d): row i is the context vector of token i"
    ),
    "scaled_dot_product_scores": (
        "d_k = ____  # the size of each key\n"
        "keys_turned = ____  # (..., d_k, T_k): only the last two dimensions swapped\n"
        "scores = ____  # (..., T_q, T_k)\n"
        "return ____  # scaled by the square root of d_k"
    ),
    "SelfAttention_v1": (
        "def __init__(self, d_in, d_out):\n"
        "    super().__init__()\n"
        "    self.W_query = ____  # a trainable (d_in, d_out) matrix of random numbers\n"
        "    self.W_key = ____\n"
        "    self.W_value = ____\n"
        "\n"
        "def forward(self, x):\n"
        "    queries = ____  # (T, d_out)\n"
        "    keys = ____\n"
        "    values = ____\n"
        "    attn_scores = ____  # (T, T)\n"
        "    attn_weights = ____  # scaled by the square root of the key size, then normalised row by row\n"
        "    return ____  # (T, d_out)"
    ),
    "SelfAttention_v2": (
        "def __init__(self, d_in, d_out, qkv_bias=False):\n"
        "    super().__init__()\n"
        "    self.W_query = ____  # a linear layer from d_in to d_out features, with a bias only if qkv_bias\n"
        "    self.W_key = ____\n"
        "    self.W_value = ____\n"
        "\n"
        "def forward(self, x):\n"
        "    queries = ____  # (T, d_out)\n"
        "    ...  # keys and values alike\n"
        "    attn_weights = ____  # (T, T), as in SelfAttention_v1\n"
        "    return ____  # (T, d_out)"
    ),
    "copy_v2_weights_into_v1": (
        "with ____:  # a block in which autograd records nothing\n"
        "    sa_v1.W_query.____  # written in place from sa_v2's query layer: which of its tensors, in which layout?\n"
        "    ...  # W_key and W_value alike"
    ),
    "causal_average_loop": (
        "out = ____  # x's shape, dtype and device, filled with zeros\n"
        "for b in ____:  # every sequence\n"
        "    for t in ____:  # every position\n"
        "        out[b, t] = ____  # the mean of rows 0 to t of sequence b\n"
        "return ____"
    ),
    "causal_average_matmul": (
        "num_tokens = ____\n"
        "ones_below = ____  # (T, T): ones on and below the diagonal, zeros above it\n"
        "weights = ____  # each row divided by its sum\n"
        "return ____  # (B, T, C): every sequence averaged at once"
    ),
    "causal_average_softmax": (
        "num_tokens = ____\n"
        "future = ____  # (T, T): True where the key comes after the query\n"
        "scores = ____  # (T, T): zeros, and the score you decided on where future is True\n"
        "weights = ____  # the softmax of each row\n"
        "return ____  # (B, T, C)"
    ),
    "causal_mask": (
        "ones = ____  # (num_tokens, num_tokens), boolean, on device\n"
        "return ____  # True strictly above the diagonal, False on and below it"
    ),
    "mask_and_renormalize": (
        "kept = ____  # a new tensor: the weights, with zeros above the diagonal\n"
        "row_sums = ____  # (..., T, 1)\n"
        "return ____  # every row sums to 1 again"
    ),
    "masked_softmax": (
        "num_tokens = ____  # the number of keys\n"
        "future = ____  # (T, T): True strictly above the diagonal, on the device of attn_scores\n"
        "hidden = ____  # a new tensor: the scores, with the score you decided on where future is True\n"
        "return ____  # scaled by the square root of d_k, softmax over the keys"
    ),
    "inverted_dropout": (
        "if ____:  # p is not a probability\n"
        "    raise ValueError(____)  # say which p was given, and what is allowed\n"
        "if ____:  # not training, or nothing to drop\n"
        "    return ____\n"
        "if ____:  # everything dropped\n"
        "    return ____\n"
        "keep = ____  # True with probability 1 - p: draws from generator, on the device of x\n"
        "return ____  # the kept elements, scaled so that the expected value stays"
    ),
    "CausalAttention": (
        "def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):\n"
        "    super().__init__()\n"
        "    ...  # W_query, W_key, W_value: linear layers from d_in to d_out, in that order\n"
        "    self.dropout = ____  # applied to the attention weights\n"
        "    future = ____  # (context_length, context_length): True strictly above the diagonal\n"
        "    self.register_buffer(____, future)  # the mask, kept with the module\n"
        "\n"
        "def forward(self, x):\n"
        "    num_tokens = ____\n"
        "    ...  # queries, keys and values: (b, T, d_out)\n"
        "    attn_scores = ____  # (b, T, T)\n"
        "    attn_scores = ____  # the future hidden, with the mask cut to (T, T)\n"
        "    attn_weights = ____  # scaled, softmax over the keys, then dropout\n"
        "    return ____  # (b, T, d_out)"
    ),
    "MultiHeadAttentionWrapper": (
        "def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):\n"
        "    super().__init__()\n"
        "    self.heads = ____  # num_heads CausalAttention heads, registered with the module\n"
        "\n"
        "def forward(self, x):\n"
        "    outputs = ____  # one (b, T, d_out) tensor per head\n"
        "    return ____  # (b, T, num_heads * d_out)"
    ),
    "wrapper_with_2d_output": (
        "head_size = ____  # two heads of this size give 2 features in all\n"
        "return MultiHeadAttentionWrapper(____)  # d_in, the head size, context_length, dropout, two heads"
    ),
    "split_heads": (
        "b, num_tokens, d_out = ____\n"
        "if ____:  # d_out does not divide into num_heads equal heads\n"
        "    raise ValueError(____)  # name both sizes\n"
        "head_dim = ____\n"
        "grouped = ____  # (b, T, num_heads, head_dim): the features cut into groups, no data moved\n"
        "return ____  # (b, num_heads, T, head_dim)"
    ),
    "merge_heads": (
        "b, num_heads, num_tokens, head_dim = ____\n"
        "tokens_first = ____  # (b, T, h, hd), laid out in memory in that order\n"
        "return ____  # (b, T, h * hd)"
    ),
    "MultiHeadAttention": (
        "def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):\n"
        "    super().__init__()\n"
        "    ...  # refuse a d_out that does not divide into num_heads heads; keep the sizes forward needs\n"
        "    ...  # W_query, W_key, W_value, out_proj: linear layers, in that order\n"
        "    self.dropout = ____\n"
        "    self.register_buffer(____, ____)  # the causal mask, for context_length tokens\n"
        "\n"
        "def forward(self, x):\n"
        "    num_tokens = ____\n"
        "    queries = ____  # (b, h, T, hd): projected, then split into heads\n"
        "    ...  # keys and values alike\n"
        "    attn_scores = ____  # (b, h, T, T), the future hidden\n"
        "    attn_weights = ____  # scaled by the square root of the head size, softmax over the keys, then dropout\n"
        "    context = ____  # (b, T, d_out): the heads joined again\n"
        "    return ____  # the heads mixed by out_proj"
    ),
    "gpt2_small_attention": (
        "# GPT-2 small's sizes, from the docstring; nothing random at inference\n"
        "return MultiHeadAttention(\n"
        "    d_in=____, d_out=____, context_length=____, dropout=____, num_heads=____\n"
        ")"
    ),
}

# The three tiers keyed as ``hints.json`` translates them.
TIER_TEXTS: dict[str, str] = {**{f"idea.{stage}": text for stage, text in IDEAS.items()},
                              **{f"functions.{stage}": text for stage, text in FUNCTIONS.items()},
                              **{f"code.{stage}": text for stage, text in CODE.items()}}
