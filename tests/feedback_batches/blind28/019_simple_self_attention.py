def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    d = inputs.shape[1]
    scores = inputs @ inputs.T / d
    positive = scores
    weights = positive / positive.sum(dim=0, keepdim=True)
    return weights @ inputs
