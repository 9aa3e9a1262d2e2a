def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    num_tokens = x.shape[1]
    # -inf everywhere, then triu(1) keeps -inf only above the diagonal and sets the rest to 0
    scores = torch.full((num_tokens, num_tokens), float("-inf"), dtype=x.dtype, device=x.device).triu(1)
    return torch.softmax(scores, dim=-1) @ x
