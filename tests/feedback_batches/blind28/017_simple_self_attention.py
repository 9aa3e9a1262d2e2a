def simple_self_attention(inputs):
    """The context vector of every token of the sequence, each token a query."""
    weights = softmax_stable(attention_scores(inputs), dim=-1)  # (T, T)
    return torch.stack([context_vector(row, inputs) for row in weights])  # (T, d)
