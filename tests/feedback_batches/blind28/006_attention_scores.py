def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    return torch.matmul(inputs.T, inputs)
