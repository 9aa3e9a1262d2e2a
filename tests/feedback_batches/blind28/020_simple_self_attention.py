def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    weights = softmax_naive(attention_scores(inputs), dim=0)
    return weights
