def simple_self_attention(inputs):
    scores = attention_scores(inputs)
    weights = scores / scores.sum(dim=-1, keepdim=True)  # normalise each row
    context = weights @ inputs + inputs  # keep the token itself too
    return context.unsqueeze(0)  # (1, T, d)
