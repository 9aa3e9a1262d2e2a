def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    return torch.linalg.multi_dot([inputs, inputs.transpose(0, 1)])  # (T, d) @ (d, T)
