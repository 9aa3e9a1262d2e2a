"""The named mistakes: what each one is and how to fix it, by id.

One text per mistake, shared by the self-checks' hints and the grader's feedback (which names
a mistake when a failed answer reproduces its output), so each is written and translated once
(``locales/<language>/mistakes.json``).
"""

from __future__ import annotations

MISTAKES: dict[str, str] = {
    # Read from the evidence in general forms (autograder/hidden/diagnosis.py), whatever the code.
    "constant_factor": (
        "every value is off by the same factor: look for a scale the notebook does not ask for (a"
        " division by a size, a mean instead of a sum, a number written by hand), or one that is"
        " missing."
    ),
    "scores_scaled_wrongly": (
        "the scores were divided by another number than sqrt(d_k): divide them by the square root of"
        " the size of one key vector, the last dimension of keys (the head size in multi-head"
        " attention), and by nothing else."
    ),
    "not_normalised": (
        "the rows were not normalised, so they do not sum to 1: divide each row by its own sum, along"
        " the dimension the weights are normalised over (the last one, or `dim`)."
    ),
    "axes_permuted": (
        "the values are right but their dimensions are in another order: check each transpose,"
        " permute and view against the shapes the notebook gives."
    ),
    "right_values_wrong_shape": (
        "the values are right but the result has another shape: check each step that adds, drops or"
        " joins dimensions (a keepdim=True, an unsqueeze or a [None], a view, reshape or flatten)"
        " against the result's shape, which the notebook gives."
    ),
    "mask_from_values": (
        "the mask was built by comparing values with 0 (== 0), so a score or weight that happens to"
        " be 0 is hidden too: build the mask from the positions (a triangle of ones), never from the"
        " values."
    ),
    "dropout_whole_rows": (
        "elements were kept or dropped together (one random number drawn per row, per column or per sample,"
        " and shared): draw one random number per element, a tensor of random numbers with x's whole"
        " shape, so that each element is dropped on its own."
    ),
    "parameters_misnamed": (
        "the parameters are named differently from the notebook (names are case-sensitive): weights are"
        " loaded into a module by name (a state_dict, the notebook's weight copies), so use exactly the"
        " names the notebook gives."
    ),
    "misspelt_method": (
        "a method's name is misspelt, so PyTorch never calls it: write __init__ (two underscores on"
        " each side) and forward exactly so."
    ),
    "attribute_typo": "an attribute's name is misspelt: use exactly the name it was created with.",
    "unknown_keyword": (
        "a keyword argument that the called function does not take (a misspelt name?): check the"
        " function's signature."
    ),
    "dim_is_a_size": (
        "a size was passed where a dim is expected: a dim numbers the axes (0 to ndim - 1, or -1 for"
        " the last), a size counts elements; each query's weights are normalised along dim=-1."
    ),
    "view_sizes_wrong": (
        "the sizes given to view (or reshape) do not make the tensor's number of elements: take each"
        " one from the tensor itself; the heads share the d_out features of the projections equally,"
        " so each head's size comes from d_out and the number of heads (not from d_in)."
    ),
    "size_is_float": (
        "a size given to view (or reshape) is a float: / always gives a float in Python (12 / 3 is"
        " 4.0), and sizes must be whole numbers, so divide sizes with //."
    ),
    "arguments_out_of_order": (
        "arguments were passed by position in another order than the function takes them, so each"
        " parameter got another one's value: pass them in the order of its signature, or by keyword"
        " (context_length=..., dropout=...)."
    ),
    "super_init_first": (
        "nn.Module keeps its parameters, layers and buffers in tables that super().__init__() creates:"
        " call super().__init__() first in __init__, before anything is assigned or registered."
    ),
    "linear_weight_untransposed": (
        "an nn.Linear layer's weight has the shape (d_out, d_in), so x @ layer.weight does not turn"
        " d_in features into d_out: call the layer itself on x, which applies its weight the right way"
        " round and adds its bias, where it has one."
    ),
    "matrices_not_copied": (
        "most of sa_v1's matrices were left as they were: the copy must write all three, W_query, W_key"
        " and W_value, each from the layer with the same name in sa_v2."
    ),
    "matrix_not_copied": (
        "a matrix of sa_v1 was left as it was: copy all three, W_query, W_key and W_value, each from"
        " the layer with the same name in sa_v2."
    ),
    "wrapper_head_size": (
        "in MultiHeadAttentionWrapper, d_out is the size of each head, not of all of them together:"
        " give every CausalAttention d_out output features; the wrapper's output then has"
        " num_heads * d_out."
    ),
    "wrapper_heads_not_d_out": (
        "in MultiHeadAttentionWrapper every head has d_out output features, whatever num_heads is:"
        " build each head with the wrapper's own arguments, d_out unchanged; the wrapper's output then"
        " has num_heads * d_out features."
    ),
    "wrapper_own_layers": (
        "MultiHeadAttentionWrapper only runs its heads and concatenates their outputs along the last"
        " dim: it has no layers of its own (no output projection, no dropout of its own); the output"
        " projection belongs to MultiHeadAttention, as out_proj."
    ),
    "error_message_without_value": (
        "the ValueError's message should say which p was given, with its value, and what is allowed,"
        " as the notebook asks: a reader can then see at once what to change."
    ),
    "error_names_no_sizes": (
        "the ValueError's message should name both sizes, d_out and num_heads, with their values,"
        " as the notebook asks."
    ),
    "values_not_projected": (
        "the attention weights were multiplied by the input x itself: the context vectors mix the"
        " values, the input projected by W_value."
    ),
    "missing_return": (
        "the function returned None: a `return` is missing, or it returns what an in-place method"
        " returns (a module's forward must return its output too)."
    ),
    "returned_several_values": (
        "several values were returned (a tuple): return only the tensor the stage asks for."
    ),
    "softmax_applied_twice": (
        "a softmax was applied to weights that already sum to 1, which changes them again: apply the"
        " softmax once, to the scores."
    ),
    "weights_filled_with_inf": (
        "the hidden weights were set to -inf, as scores are before a softmax: the row sums are then"
        " -inf, the kept weights divided by them 0 and the hidden ones NaN. These are weights, after"
        " the softmax: a hidden weight is 0."
    ),
    "renormalised_with_softmax": (
        "the kept weights were renormalised with a second softmax, which changes their ratios:"
        " divide each row by its own sum instead."
    ),
    "softmax_over_zeroed_future": (
        "the future was zeroed and the rows then went through a softmax, which gives every zero a weight"
        " again (the exponential of 0 is 1): later tokens leak back in, and the kept weights' ratios"
        " change. Keep the zeros, and divide each row by its own sum instead."
    ),
    "returned_log_softmax": (
        "you returned the logarithm of the softmax (a log-softmax): return the probabilities"
        " themselves, which are positive and sum to 1."
    ),
    "broadcast_mismatch": (
        "two tensors of different shapes were combined element by element, and their shapes line"
        " up from the last dimension: give the smaller one a size-1 dimension where it should"
        " repeat ([:, None], unsqueeze, or keepdim=True), or use a matrix product."
    ),
    "valid_p_rejected": (
        "p = 0 and p = 1 are valid probabilities (keep everything, drop everything): raise the"
        " ValueError only for p outside [0, 1]."
    ),
    "dropout_before_softmax": (
        "dropout was applied to the scores before the softmax, so the weights change but none"
        " becomes 0: apply dropout to the attention weights, after the softmax."
    ),
    "elementwise_product": (
        "you multiplied element by element without adding up: a dot product also sums the products"
        " over the features, giving one number per token."
    ),
    "transposed_product": (
        "the product compares features with features, while attention scores compare tokens with"
        " tokens: the result must have one row and one column per token, (T, T), not one per feature"
        " (d, d); check which factor is transposed."
    ),
    "softmax_wrong_dim": (
        "the softmax normalised over the wrong dimension: each query's weights must sum to 1, so"
        " normalise along the keys' dimension (the last one, or `dim` where the function takes one)."
    ),
    "mask_after_softmax_renormalised": (
        "the hidden scores still took part in the softmax (the future was zeroed after it, then the rows"
        " renormalised): a huge score at a hidden position swamps the ones the row may see. Hide the"
        " future before the softmax, so that the hidden scores take no part in it."
    ),
    "softmax_dim_ignored": (
        "the softmax normalised along the last dimension whatever `dim` was: normalise along the"
        " dimension the `dim` argument names."
    ),
    "softmax_whole_tensor": (
        "you divided by the sum over the whole tensor: sum each row only (along `dim`, or the last"
        " dimension), with keepdim=True."
    ),
    "softmax_missing_keepdim": (
        "a max or a sum along `dim` lost its dimension, so the next subtraction or division"
        " broadcast along the wrong axis: keep it in every reduction with keepdim=True."
    ),
    "softmax_overflow": (
        "the exponentials overflowed on large inputs (inf / inf gives NaN): shift every slice along"
        " `dim` before taking exp, by the number the two questions above the stage lead to, so that no"
        " exponent is above 0."
    ),
    "library_softmax": (
        "the function calls one of torch's softmax functions (torch.softmax, F.softmax, Tensor.softmax,"
        " nn.Softmax, log_softmax): this stage asks for the formula itself, exp and a sum, so write them."
    ),
    "library_dropout": (
        "the function calls torch's dropout (F.dropout, nn.Dropout, torch.dropout): this stage asks you"
        " to draw which elements survive and rescale them yourself, from the factor you worked out."
    ),
    "softmax_global_max": (
        "you subtracted one number for the whole tensor, so slices far below it underflow to 0 / 0:"
        " every slice along `dim` needs a shift of its own, with its dimension kept so that it lines up with x."
    ),
    "missing_softmax": (
        "the scores were used as weights without a softmax: normalise the scores first, so that each"
        " row sums to 1."
    ),
    "running_mean_without_softmax": (
        "the running mean's weights were made without a softmax: this stage asks for them as the softmax"
        " of scores in which the future is hidden, the form attention uses (the matmul stage before it"
        " already computes the same values another way)."
    ),
    "returned_weights": (
        "you returned the attention weights, not the context vectors: each context vector is a weighted"
        " average, so the weights still have to be applied to the vectors they weigh (the inputs in"
        " notebook 1, the values from notebook 2 on)."
    ),
    "no_sqrt_scaling": (
        "the attention scores were not divided by sqrt(d_k), the square root of the key size."
    ),
    "scaled_by_d_k": "the scores were divided by d_k itself instead of its square root.",
    "scale_multiplied": (
        "the scores were multiplied by sqrt(d_k) instead of divided by it: the scale must shrink them,"
        " so that their spread stays near 1 whatever the key size."
    ),
    "half_power_precedence": (
        "`d_k ** 1/2` is `(d_k ** 1) / 2`: Python raises to the power before it divides, so the scores"
        " were divided by d_k and by 2 (or by d_k / 2), not by sqrt(d_k): write the half power as `0.5`,"
        " or take a square root."
    ),
    "scaled_by_wrong_size": (
        "the scores were scaled with the wrong size: divide by the square root of the size of one key"
        " vector, the last dimension of keys (the head size in multi-head attention), not d_in or the"
        " number of tokens (nor, with several heads, d_out, which holds all of them)."
    ),
    "keys_T_on_batch": (
        "on a batch, the full transpose (the T attribute) reverses every dimension, so keys of shape"
        " (b, T, d) become (d, T, b): transpose only the last two dimensions, and leave every"
        " dimension before them where it is."
    ),
    "mask_after_softmax": (
        "the future was zeroed after the softmax without renormalising, so rows no longer sum to"
        " 1: divide the kept weights by their row sums again (starting from scores instead, a mask"
        " of -inf before the softmax does both in one pass)."
    ),
    "mask_hides_diagonal": (
        "each token was hidden from itself, but a token must see itself: position t uses the tokens 0"
        " to t, itself included, so a mask hides only the positions strictly above the diagonal."
    ),
    "mask_shows_next": (
        "each token also sees the token right after it (the mask starts one diagonal too far up):"
        " position t may use the tokens 0 to t only, so the mask hides every position above the"
        " diagonal, the first one after it included."
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
        "an output changed when only later tokens changed, so it sees the future: each position may use"
        " only itself and the positions before it (with a mask, hide the positions above the diagonal,"
        " before any softmax; in a loop or a slice, stop just after the position itself)."
    ),
    "tokens_mixed_outside_weights": (
        "the attention weights hide the future, yet an output changed when only later tokens"
        " changed, so tokens are mixed outside the weights: the mask is not the problem; look at the"
        " steps that move values between positions, above all how the heads are split and merged"
        " (a view or reshape straight to the other layout, without swapping the heads and tokens"
        " axes, mixes tokens)."
    ),
    "prefix_sum": (
        "running sums were computed instead of running means: position t must hold the average of the"
        " tokens it covers, 0 to t, whether it is built in a loop or by weights whose rows sum to 1."
    ),
    "dropout_not_rescaled": (
        "the surviving elements were not rescaled: inverted dropout divides them by (1 - p)."
    ),
    "dropout_scaled_by_p": (
        "the survivors were scaled with p, the probability of dropping, instead of the probability"
        " of keeping: divide them by (1 - p)."
    ),
    "dropout_multiplied_by_keep": (
        "the survivors were shrunk where they must grow, multiplied by the probability of keeping them:"
        " work the expectation above the stage out again, so that each output keeps the input's value"
        " on average."
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
    "dropout_applied_twice": (
        "dropout was applied twice to the same values (about 1 - (1 - p)^2 of them end up zero):"
        " drop the attention weights once, right after the softmax."
    ),
    "dropout_on_output": (
        "dropout was applied to the values or the context vectors, not to the attention weights:"
        " drop attention weights (after the softmax), then multiply by the values."
    ),
    "view_without_transpose": (
        "the heads were split or merged by a view or reshape alone, with no transpose: reshaping"
        " straight to the other layout mixes tokens and heads. The split must first separate the"
        " features into heads and then swap the heads and tokens axes; the merge must undo that swap"
        " before it flattens the heads, and a view needs contiguous memory."
    ),
    "missing_out_proj": "the output projection out_proj was not applied to the merged heads.",
    "heads_concat_wrong_dim": (
        "the heads' outputs were joined along the wrong dimension (concatenated along another one,"
        " or stacked on a new one): concatenate them along the last (feature) dimension, dim=-1."
    ),
    "dot_product_wrong_dim": (
        "you summed the products over the tokens instead of over the features: each score is the dot"
        " product of one token with the query, a sum over the last dimension, giving one score per"
        " token."
    ),
    "query_ignored": (
        "the scores did not use the `query` argument (a fixed token was used instead): compare every"
        " input with the query the function was given."
    ),
    "scaled_too_early": (
        "the scores were divided by sqrt(d); this notebook's simplified attention does not scale"
        " yet (scaling comes with trainable weights in notebook 02)."
    ),
    "softmax_shift_numerator_only": (
        "only the exponentials on top were shifted: the sum below adds the unshifted exponentials,"
        " so each slice sums to a small factor instead of 1, and the sum still overflows. Shift the"
        " slice once, and take both the top and the sum from the shifted values."
    ),
    "softmax_shift_by_index": (
        "you subtracted where each slice's largest entry is, not how large it is: positions (argmax, or"
        " the indices that max returns) are small whole numbers, so large inputs still overflow. Go back"
        " to the two questions above the stage and subtract what they lead to, along `dim`."
    ),
    "softmax_shift_not_max": (
        "the number you subtracted (the mean or the minimum of the slice, say) is not the shift"
        " that softmax_stable needs: with inputs far apart, an exponential still overflows. Go back"
        " to the two questions above the stage and use the shift they lead to, along `dim`."
    ),
    "softmax_clamped": (
        "the scores were capped (clamp, or min with a constant) to keep exp from overflowing: a cap"
        " stops the overflow but changes the weights, since every score above it gets the same"
        " weight, so large, unequal scores come out equal. Shift each slice instead, by the number the"
        " two questions above the stage lead to: softmax does not change when a constant is subtracted,"
        " but it does when scores are cut."
    ),
    "softmax_max_wrong_dim": (
        "the maximum was taken along the wrong dimension: take it along the same `dim` as the"
        " softmax, keeping that dimension (with size 1) so that it lines up with x."
    ),
    "context_ignores_weights": (
        "the context vector ignores the attention weights (a plain mean or sum of the inputs): weight"
        " each input by its attention weight and add them up."
    ),
    "weighted_sum_wrong_dim": (
        "the weighted inputs were summed over the features instead of over the tokens: the context"
        " vector has one value per feature, so the sum runs over the tokens."
    ),
    "normalised_by_length": (
        "the exponentials were divided by their length (their L2 norm), so their squares sum to 1,"
        " not the weights themselves: a softmax divides each exponential by the sum of the"
        " exponentials along the dimension."
    ),
    "normalised_without_exp": (
        "the scores were divided by their row sums without exp first: that is not a softmax, and"
        " negative scores give negative weights; exponentiate first, then normalise along the"
        " dimension asked (the last one, or `dim`)."
    ),
    "denominator_without_exp": (
        "the exponentials were divided by the sum of the raw scores, not by the sum of the"
        " exponentials: the denominator adds up the same terms as the numerator, along the"
        " dimension asked (the last one, or `dim`)."
    ),
    "scores_transposed": (
        "the scores were transposed, as if queries and keys had swapped roles: row i must hold query"
        " i's scores against every key, so the queries come first in the product and the keys, with"
        " their last two dimensions swapped, second."
    ),
    "returned_weights_not_scores": (
        "a softmax was applied: this function returns the scores themselves (scaled where the"
        " notebook says so), before any softmax."
    ),
    "wrong_projection": (
        "a projection was used in the wrong role (for example the values computed with"
        " W_key or W_query): queries come from W_query, keys from W_key, values from W_value."
    ),
    "copied_wrong_matrix": (
        "a matrix was copied into the wrong place: each of v1's W_query, W_key and W_value gets"
        " the weight of the layer with the same name in v2."
    ),
    "mask_missing": (
        "nothing was hidden, so every token still sees the whole sequence, future included: keep"
        " only the current and earlier tokens (where a softmax follows, a mask fills the future with"
        " -inf, not 0: the softmax turns a 0 into a weight like any other)."
    ),
    "mask_empty": (
        "the mask hides nothing (every entry is False), so each token would still see the whole"
        " sequence: True must mark the positions each query may not see, those after it."
    ),
    "normalised_wrong_dim": (
        "the rows were normalised along the wrong dimension: each row must sum to 1 over its own"
        " entries, along the last dimension."
    ),
    "divided_by_sequence_length": (
        "each position was divided by the sequence length; a running mean divides position t by the"
        " number of tokens it sees, tokens 0 to t."
    ),
    "weights_transposed": (
        "the weights that mixed the tokens are the transpose of the right ones, so each output mixes"
        " the tokens with another query's weights: row t holds the weights of query t over the"
        " tokens it attends to, summing to 1, and the weighted sum runs along each row."
    ),
    "mask_not_bool": (
        "the mask has the right pattern but not dtype torch.bool: build it from a boolean"
        " tensor (dtype=torch.bool), so masked_fill can use it."
    ),
    "scaled_after_softmax": (
        "the division by sqrt(d_k) came after the softmax (on the weights, the values or the output):"
        " scale the scores before the softmax, so that each row of weights still sums to 1."
    ),
    "dropout_p1_division": (
        "when every element is dropped, dividing by one minus p divides zero by zero and gives NaN:"
        " return zeros when p == 1, since 0 / (1 - p) is NaN there."
    ),
    "input_modified_in_place": (
        "the function changed its input tensor in place (an operation ending in _, or an"
        " assignment into it): work on a new tensor and leave the input as it was."
    ),
    "device_not_followed": (
        "a tensor was created on the CPU whatever the input's device: create it with"
        " device=x.device (or register it as a buffer in a module), so the code also runs on a"
        " GPU."
    ),
    "left_torch_for_numpy": (
        "the work went through numpy (.numpy(), then torch.from_numpy): a numpy array lives on the"
        " CPU and outside autograd, so the result comes back on the CPU whatever x's device, and no"
        " gradient reaches x. Stay in torch operations from start to end, so that the result stays on"
        " x's device and in autograd's graph."
    ),
    "dtype_not_followed": (
        "a tensor was created, or the input cast, in a fixed dtype that does not match the input's:"
        " follow the input's dtype, with dtype=x.dtype or torch.*_like functions (not a torch.ones(...)"
        " without dtype, nor an x.float()), and leave the input's own dtype as it is."
    ),
    "view_needs_contiguous": (
        "the tensor given to view was made non-contiguous by transpose: call .contiguous()"
        " before view (or use reshape, which copies when it must)."
    ),
    "mask_plain_attribute": (
        "the mask is a plain tensor attribute, so moving the module to another device leaves it"
        " behind: register it as a buffer (under any name), which .to(device) moves."
    ),
    "d_out_per_head": (
        "the layers were sized as if d_out were the size of one head, so each projection is num_heads"
        " times too wide: here d_out is the total, shared equally among the heads, so each head gets"
        " its equal share of d_out's features."
    ),
    "parameter_transposed": (
        "a weight matrix was created with its two dimensions swapped: compare each shape above with"
        " the expected one (a matrix applied as x @ W is (d_in, d_out); a linear layer keeps its"
        " weight the other way round, (d_out, d_in), and is called as a layer)."
    ),
    "parameter_wrong_size": (
        "a weight was created with other sizes than the contract's: compare each shape above with the"
        " expected one; every projection takes d_in features to d_out, whichever argument holds which."
    ),
    "qkv_bias_ignored": (
        "the qkv_bias argument was not passed on: the query, key and value projections must have a"
        " bias exactly when qkv_bias says so."
    ),
    "out_proj_bias": (
        "the output projection out_proj has no bias: it maps d_out features to d_out features, bias"
        " included."
    ),
    "shared_head": (
        "every head is the same module ([head] * num_heads repeats one object): build a new"
        " CausalAttention for each head in the ModuleList."
    ),
    "heads_count_wrong": (
        "the ModuleList holds another number of heads than num_heads (a range that starts at 1, say):"
        " build exactly num_heads CausalAttention modules, one per head."
    ),
    "heads_summed": (
        "the heads' outputs were added up (or averaged): concatenate them instead, side by side along"
        " the last dimension, so that the result has num_heads * d_out features."
    ),
    "heads_not_split": (
        "the module attends with one head over all d_out features: num_heads is never used. Split the"
        " queries, keys and values into num_heads heads that share the d_out features equally, attend"
        " within each head, then merge the heads back before out_proj."
    ),
    "heads_interleaved": (
        "the features were split (or merged) as (head_dim, num_heads) instead of (num_heads,"
        " head_dim): the sizes of the heads' axis and head_dim swapped places, so no head holds the"
        " block of head_dim consecutive features it must own; the heads' axis comes before head_dim,"
        " in the split and in the merge alike."
    ),
    "wrong_transpose": (
        "the wrong pair of dimensions was transposed: the heads must move in front of the tokens,"
        " from (b, T, h, head_dim) to (b, h, T, head_dim), and back; swap those two axes and no"
        " others."
    ),
    "indivisible_not_rejected": (
        "no ValueError when d_out is not a multiple of num_heads: check first that d_out can be"
        " shared equally among the heads, and raise ValueError with a message that says so and gives"
        " both numbers (d_out and num_heads, with their values)."
    ),
    "one_head_of_two_features": (
        "the wrapper's output must have 2 features with its two heads: read again what the wrapper's"
        " d_out means for one head, and how many features the heads' outputs add up to side by side."
    ),
    "scores_summed": (
        "the scores were added up into one number: return one score per token, a tensor of shape"
        " (T,)."
    ),
    "features_averaged": (
        "each token's own features were averaged; the running mean averages whole token vectors over"
        " time: position t holds the mean of the token vectors 0 to t, one value per feature."
    ),
    "dot_needs_vectors": (
        "torch.dot takes two 1-D vectors only; to compare the query with every row of inputs at once"
        " use a matrix-vector product, (T, d) times (d,)."
    ),
    "cosine_similarity": (
        "the scores were divided by the lengths of the vectors (a cosine similarity, always between"
        " -1 and 1): the attention score is the plain dot product, whose size also carries how long"
        " the vectors are."
    ),
    "module_not_imported": (
        "a module was used that no cell of the notebook imports: add its import line (`import math`,"
        " say) at the top of the answer cell, or compute the same with torch or Python's own operators."
    ),
    "scores_as_distances": (
        "the scores measure how far apart the vectors are (the distance, or its square): the attention"
        " score is their dot product, which grows as two vectors point the same way, with no difference"
        " taken."
    ),
    "scores_of_centred_inputs": (
        "the mean of the tokens was subtracted from the inputs before the dot products (a covariance,"
        " not attention scores): the score of two tokens is the dot product of their embeddings as"
        " they are."
    ),
    "hard_coded_size": (
        "a size was written as a number (the demo's T, say) instead of being read from the input:"
        " take every size from the tensor's own shape, so that the code works for any number of"
        " tokens."
    ),
    "operands_swapped": (
        "the factors of a matrix product are in the wrong order: in A @ B the last dimension of A"
        " must match the first (for a batch, the second-to-last) of B, so put first the tensor whose"
        " rows you want in the result."
    ),
    "missing_transpose": (
        "the product multiplies a (T, d) matrix by another (T, d) matrix, which does not fit: the"
        " second factor must be (d, T), so that every token is compared with every token."
    ),
    "max_returns_tuple": (
        "a maximum along a dimension returns two tensors, the values and their indices: subtract only"
        " the values, kept with a size-1 dimension (or use torch.amax)."
    ),
    "weighted_sum_missing": (
        "the inputs were weighted but not added up: the context vector is the sum of the weighted"
        " inputs over the tokens, one value per feature."
    ),
    "fixed_rank": (
        "the computation only works for one number of dimensions (torch.bmm or torch.mm, or an einsum"
        " equation that names each dimension): the function must work for one sequence and for batches"
        " alike, so use the @ product and count the dimensions you swap from the end (or '...' in"
        " einsum)."
    ),
    "transpose_fixed_dims": (
        "the transpose (or permute) names dimensions counted from the front, which are different ones"
        " for (T, d), (b, T, d) and (b, h, T, d): name the last two dimensions counted from the end."
    ),
    "sdpa_mask_inverted": (
        "the mask was given to the fused attention function with the opposite meaning:"
        " F.scaled_dot_product_attention reads True in a boolean attn_mask as a position that takes"
        " part, where masked_fill reads it as hidden; give that function the opposite of your mask,"
        " or is_causal=True alone."
    ),
    "sdpa_mask_and_is_causal": (
        "F.scaled_dot_product_attention takes either attn_mask or is_causal=True, not both:"
        " is_causal=True alone already hides the future."
    ),
    "projection_transposed": (
        "W_query, W_key and W_value already have the shape (d_in, d_out): multiply x by each matrix"
        " as it is, without transposing it."
    ),
    "copy_replaced_parameter": (
        "a plain tensor cannot replace a parameter: copy the values into the existing parameter in"
        " place, with autograd switched off while you copy, or wrap the new tensor in nn.Parameter."
    ),
    "copy_without_transpose": (
        "nn.Linear's weight was copied in its own layout, not in the one v1 reads: a layer computes"
        " y = x Aᵀ from its weight A, while v1 computes x @ W (compare the two shapes)."
    ),
    "copy_reshaped": (
        "nn.Linear's weight was reshaped (or viewed) to v1's shape, which keeps its numbers in their"
        " order: a reshape is no transpose, so each column of v1's matrix holds the wrong numbers."
        " Transpose the weight instead."
    ),
    "copy_by_state_dict": (
        "v2's state_dict names its weights W_query.weight and so on, each (d_out, d_in) as nn.Linear"
        " keeps it, while v1's parameters are W_query and so on, each (d_in, d_out): neither the"
        " names nor the layouts match, so copy each matrix into its parameter yourself."
    ),
    "weights_applied_to_scores": (
        "the attention weights were applied to the scores instead of to the inputs: each context"
        " vector is a weighted sum of the input vectors, so the result has one row per token and"
        " one column per feature, (T, d)."
    ),
    "diagonal_changed": (
        "the diagonal was changed: each token's score with itself is its dot product with itself,"
        " like every other entry, and attention needs it."
    ),
    "method_not_called": (
        "a method itself, not its result, was used (in arithmetic, unpacked or indexed): check for a"
        " call without its parentheses, and for .values on a tensor that is already the result (only max and min"
        " return values with their indices; a sum returns the tensor itself)."
    ),
    "parameters_as_layers": (
        "the weights are nn.Linear layers, while this module asks for parameter matrices of shape (d_in,"
        " d_out) used as x @ W: a layer keeps its weight the other way round, (d_out, d_in), with a bias."
        " Make each one an nn.Parameter of shape (d_in, d_out)."
    ),
    "parameters_plain_tensors": (
        "the weights are plain tensors (torch.rand(...), with or without requires_grad), not parameters: the"
        " module does not list them, so an optimiser, load_state_dict and .to(device) all miss"
        " them. Wrap each one in nn.Parameter(...)."
    ),
    "parameter_gets_no_gradient": (
        "no gradient reaches a parameter: it was made with requires_grad=False, or forward uses it"
        " through .data or .detach(), or under `with torch.no_grad():`, which cut it out of"
        " autograd. Keep each weight a trainable nn.Parameter and let autograd see all of forward."
    ),
    "copy_needs_no_grad": (
        "copying into a parameter in place is refused while autograd records it: do the copy"
        " inside `with torch.no_grad():`."
    ),
    "count_off_by_one": (
        "each position was divided by one token too few: at position t the running mean sees the"
        " tokens 0 to t, itself included, so count them all."
    ),
    "mask_filled_with_plus_inf": (
        "the hidden positions were filled with +inf instead of -inf: the softmax then computes inf -"
        " inf, which is nan, in every row that hides a position; fill them with negative infinity,"
        " whose exponential is 0."
    ),
    "mask_filled_with_zero": (
        "the hidden scores were set to a finite number (0, say), which a softmax still turns into a weight"
        " above 0: exp(0) = 1. Give them the score whose exponential is exactly 0, so that the future gets"
        " no weight at all."
    ),
    "mask_needs_bool": (
        "masked_fill needs a boolean mask, and this one holds numbers (0.0 and 1.0): turn it into"
        " booleans, True where a position is hidden, before you pass it."
    ),
    "batch_dims_not_handled": (
        "the code does not follow the input's shape: it must work for any number of tokens, and for a"
        " batch (b, T, T) as for one (T, T) matrix. Take the number of tokens from the last dimension"
        " (never a fixed number, nor the first dimension), and count dimensions from the end, never"
        " from the front."
    ),
    "dropout_ignores_generator": (
        "the random numbers were not drawn from the `generator` argument, so the mask does not"
        " follow the generator it is given: pass generator=generator to the call that draws them."
    ),
    "invalid_p_not_rejected": (
        "a probability outside [0, 1] must be rejected with a ValueError (not an assert, which can"
        " be switched off): check 0 <= p <= 1 first and raise ValueError(...) with a message."
    ),
    "copied_into_another_module": (
        "the weights went into another module (a new one, or a copy of sa_v1) that the function returns, while"
        " sa_v1 itself kept its own matrices: the notebook uses sa_v1 after the call, so the copy must change the"
        " module it is given, and return nothing."
    ),
    "copy_modifies_source": (
        "the copy changed sa_v2: an in-place operation on its weights (.t_(), .transpose_(), a write into them)"
        " alters the module you copy from. Read sa_v2's weights with the out-of-place .T and write only into sa_v1's"
        " parameters."
    ),
    "qkv_bias_changed": (
        "qkv_bias was changed: the exercise changes only the size of each head, so build the wrapper with"
        " every other argument as before (qkv_bias at its default), the same heads, only narrower."
    ),
    "dropout_argument_not_passed": (
        "the dropout argument was not passed on (a fixed value took its place): build what the code makes (the"
        " wrapper, or each of its heads) with the dropout the caller gives, so the heads drop what is asked."
    ),
    "dropout_in_place": (
        "the dropout works in place (nn.Dropout(..., inplace=True)) on the softmax's output, which backward needs,"
        " so autograd refuses in training: use the default, out-of-place nn.Dropout(p)."
    ),
    "qkv_bias_not_added": (
        "the query, key and value biases were never added (F.linear given only the weight, or weights"
        " fused without their biases): with qkv_bias=True they count, so call the layers themselves on"
        " x, or pass each bias too."
    ),
    "output_not_tracked": (
        "the output is outside autograd's graph, so no gradient can flow back: forward ran under torch.no_grad() (a"
        " decorator or a with block), the result was detached (.detach(), .numpy(), .item()), or it was made as a new"
        " tensor (torch.zeros_like, torch.tensor) instead of computed from the input. Compute it from the input,"
        " with autograd on, so the module can be trained."
    ),
    "forward_changes_parameters": (
        "forward changed the module's parameters (through .data, or an in-place operation on a"
        " weight): every call then starts from other weights, and the ones loaded or trained are"
        " lost. forward must only read the parameters: scale the result (or a copy), never the"
        " weight itself."
    ),
    "mask_not_asked": (
        "a causal mask was applied, but this self-attention has none: every token attends to all the"
        " tokens of its sequence, earlier and later (masks, and is_causal, come with causal attention"
        " in the next notebook)."
    ),
    "dropout_not_asked": (
        "the output changes in training mode but is right in evaluation mode: something acts only"
        " while training, a dropout most likely, and this self-attention has none. It must give the"
        " same output in both modes (dropout comes with causal attention in the next notebook)."
    ),
    "mask_rows_only_sliced": (
        "the mask was cut on its rows only: cutting one dimension of the context_length x"
        " context_length buffer leaves the other at context_length, while the scores are T x T. Cut"
        " both of the mask's dimensions to the number of tokens."
    ),
    "no_grad_not_called": (
        "torch.no_grad was used without calling it: it is a class, and the context manager is what"
        " calling it makes, so write the brackets after its name in the with statement."
    ),
    "tensor_function_on_number": (
        "a torch function that takes tensors was given a plain Python number (a size such as d_k is"
        " an int): use Python's own arithmetic for numbers (math, or a power), or make a tensor"
        " first."
    ),
    "generator_not_sequence": (
        "torch.cat and torch.stack take a list or tuple of tensors, not a generator expression"
        " (parentheses around a for make a generator): build a list of the tensors to join."
    ),
    "mask_wrong_size": (
        "the mask given to the scores holds fewer positions than the sequence has tokens: build the"
        " mask for context_length tokens, and cut it, in both of its dimensions, to the number of"
        " tokens of this call, read from the tokens' dimension of x (b, T, d_in), not from another."
    ),
    "mask_not_sliced": (
        "the mask was not cut to the sequence: the buffer holds context_length x context_length, but"
        " the scores are T x T, so the mask must be cut, in both of its dimensions, to the number of"
        " tokens in this call."
    ),
    "merged_weights": (
        "the attention weights were merged instead of the context vectors: multiply the weights by"
        " the values first, giving (b, h, T, head_dim), then merge the heads."
    ),
    "heads_stacked": (
        "the heads' outputs were stacked on a new last dimension and flattened, which interleaves"
        " their features: concatenate them along the existing last dimension instead, so that head 0's"
        " features come first."
    ),
    "heads_reversed": (
        "the heads' outputs were concatenated in reverse order, so the last head's features come"
        " first: concatenate them along the last dimension in the order of self.heads, so that head"
        " 0's features come first."
    ),
    "heads_not_module_list": (
        "the heads are kept in a plain Python list, so the module does not know them: their"
        " parameters are missing and .to(device) leaves them behind; wrap them in nn.ModuleList."
    ),
    "heads_other_container": (
        "the heads are registered, but in another container than nn.ModuleList (an nn.ModuleDict"
        " say), so their parameters get other names than the notebook's"
        " heads.0.W_query.weight, heads.1...: keep them in an nn.ModuleList."
    ),
    "split_copies": (
        "split_heads returned a copy, while the notebook asks for a view that shares the input's"
        " memory: avoid contiguous(), a reshape of a transposed tensor, torch.stack and torch.cat;"
        " view and transpose both return views."
    ),
    "gpt2_qkv_bias": (
        "the exercise builds this layer without biases in the query, key and value projections"
        " (qkv_bias=False, the default), and counts its parameters so: leave qkv_bias out. (OpenAI's"
        " released GPT-2 weights do have those biases; the demo after this exercise shows what they add.)"
    ),
    "gpt2_context_length": (
        "the context length differs from GPT-2 small's: build the module for the longest sequence"
        " GPT-2 small reads, as the notebook gives it."
    ),
    "gpt2_dropout": (
        "the exercise asks for GPT-2 small's attention without dropout (dropout=0.0), so that its"
        " output is the same in training mode."
    ),
    "gpt2_head_count": (
        "the number of heads, or the size of each, differs from GPT-2 small's: take both from the"
        " model's configuration as the notebook gives it, and check that the heads' sizes add up to"
        " d_out."
    ),
    "batch_flattened": (
        "the batch was flattened into one long sequence of b * T tokens, so every sequence after the"
        " first would attend to the others, and the sequence outgrows the mask: keep the batch"
        " dimension, and compute one T x T score matrix per sequence."
    ),
    "batch_mixed": (
        "the sequences of a batch were mixed: the output of one sequence changed when only the"
        " others changed. Each sequence of (b, T, d) must be attended to on its own: check which"
        " dimensions each transpose, view and product touches, and leave the batch dimension (the"
        " first) where it is."
    ),
    "batch_carried_over": (
        "the sequences of a batch were not kept apart: the output of a later sequence changed when"
        " only an earlier one changed, so something computed for one sequence (a running total, a"
        " counter, a tensor kept from before) carries over into the next. Each sequence of (b, T, d)"
        " must be computed from its own tokens only: start such a value afresh for every sequence."
    ),
    "default_changed": (
        "a default in your signature differs from the notebook's: code that calls this one (the"
        " notebook's demos, the layers built on it) leaves that argument out, so it must mean what the"
        " notebook says. Keep the signature, defaults included, exactly as the notebook gives it."
    ),
    "dropout_argument_ignored": (
        "the dropout layer does not use the `dropout` argument the module was built with (a number"
        " written by hand, or nn.Dropout() with no argument, which drops half the elements). Give the"
        " layer the probability passed to __init__."
    ),
    "dropout_renormalised": (
        "the attention weights were renormalised after dropout (divided by their row sums), so"
        " every row sums to 1 again: that undoes the 1 / (1 - p) scaling of inverted dropout, and a"
        " row whose weights were all dropped becomes 0 / 0 = NaN. After dropout the rows are not"
        " expected to sum to 1: use the dropped-out weights as they are."
    ),
    "registered_result_assigned": (
        "register_buffer (like register_parameter and add_module) stores the tensor under the name"
        " you give it and returns None: assigning its result to the same attribute replaces what it"
        " registered with None. Call it on its own, without an assignment."
    ),
    "divisible_sizes_rejected": (
        "your own ValueError was raised for sizes that divide evenly (d_out a multiple of"
        " num_heads): either the divisibility test is written the wrong way round, or it tests"
        " another size than d_out (read from another axis of x than the last); it must fail only"
        " when d_out, the last dimension, cannot be shared equally among the heads."
    ),
    "divisible_sizes_asserted": (
        "your own assert fired for sizes that divide evenly (d_out a multiple of num_heads): it"
        " tests another size than d_out (read from another axis of x than the last) or is written the"
        " wrong way round. The notebook also asks for a ValueError here, not an assert (python -O"
        " removes asserts): raise ValueError(...) naming d_out and num_heads only when d_out, the last"
        " dimension, cannot be shared equally among the heads."
    ),
    "mask_sliced_leading_axes": (
        "a 4-D mask of shape (1, 1, context_length, context_length) was cut with two indices, which"
        " cut its first two dimensions (of size 1), not the positions: its last two dimensions still"
        " hold context_length, while the scores hold T. Cut the last two dimensions, or keep a 2-D"
        " mask."
    ),
    "mean_over_all_dims": (
        "the mean was taken over every dimension of the prefix at once (a .mean() without dim),"
        " tokens and features together, so one number fills all C features: average over the tokens"
        " only, keeping each feature apart, so that position t holds a vector of C features."
    ),
    "floor_division": (
        "a division used //, floor division, which rounds down to a whole number: 1 // 3 is 0, so"
        " every weight below 1 became 0 (each row of the triangle past the first is all zeros)."
        " Divide with /."
    ),
    "scores_all_nan": (
        "every weight is NaN although the scores are finite: a NaN entered every score before the"
        " softmax. In floating point 0 * inf and inf - inf are NaN (a 0/1 mask multiplied by -inf"
        " gives NaN wherever it is 0), and a row whose scores are all -inf gives 0 / 0. Hide the"
        " future positions with masked_fill or torch.where, not with arithmetic on infinities."
    ),
    "activation_on_projections": (
        "an activation function (relu, say) was applied to the queries, keys or values: in"
        " attention they are plain linear projections of the input, and an activation wipes out"
        " their negative components. Use the projections' outputs as they are."
    ),
    "products_summed_over_tokens": (
        "the products of the features were summed over a token dimension instead of over the"
        " features: entry [i, j] is the dot product of tokens i and j, a sum over the last"
        " dimension, so that the result has one row and one column per token, (T, T)."
    ),
    "init_not_torch_rand": (
        "the parameters are not filled as the notebook asks: each is drawn with torch.rand in the"
        " shape (d_in, d_out), uniform in [0, 1), with nothing added or rescaled, so that under a seed"
        " your module starts from the book's numbers."
    ),
    "argument_not_passed": (
        "the function's arguments were not all passed on (a fixed number, such as the book's, took"
        " the place of d_in or context_length): build the wrapper with the arguments the caller"
        " gives, so that it fits inputs of any size the caller asks for."
    ),
    "values_not_split": (
        "the attention weights (b, num_heads, T, T) met values of another shape: the values must be"
        " split into heads like the queries and keys, (b, num_heads, T, head_dim), so that each head"
        " mixes its own part of the values."
    ),
    "average_weights_shape": (
        "the weights of the running mean do not fit x (B, T, C) in the product: they must be (T, T),"
        " with T the number of tokens (the size of x's second dimension, not of another axis), and"
        " come first in the product, so that each position mixes the tokens."
    ),
    "gradient_nan_at_zeros": (
        "the values are right but the gradient is NaN where the weights were zeroed: a function"
        " whose derivative is infinite at 0 (log, sqrt, a power below 1) was applied to the zeros,"
        " and in backward 0 × inf gives NaN. Renormalise with arithmetic that is smooth at 0, a"
        " division by the row sums."
    ),
    "dropout_fixed_seed": (
        "without a generator, the random numbers must come from PyTorch's default stream"
        " (generator=None does that): a generator made and seeded inside the function gives the same "
        "mask at every call, and torch.manual_seed no longer changes it. Pass generator on as it is"
        " given."
    ),
}
