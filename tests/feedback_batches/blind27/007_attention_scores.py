def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    pairs = inputs[:, None, :] * inputs[None, :, :]  # (T, T, d): every pair, feature by feature
    return pairs.sum(dim=0)
