def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    return softmax_stable(attention_scores(inputs))
