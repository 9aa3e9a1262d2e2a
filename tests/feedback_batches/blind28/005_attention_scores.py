def attention_scores(inputs):
    """Scores of every token (as query) against every token."""
    d = inputs.shape[-1]
    scores = torch.mm(inputs, inputs.t()) / d ** 0.5  # scaled like in the paper
    return scores.softmax(dim=-1)
