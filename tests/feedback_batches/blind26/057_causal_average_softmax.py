def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    num_tokens = x.shape[1]
    visible = torch.tril(torch.ones(num_tokens, num_tokens, device=x.device), diagonal=-1)
    scores = torch.zeros(num_tokens, num_tokens, device=x.device)
    scores = scores.masked_fill(visible == 0, float("-inf"))
    return torch.softmax(scores, dim=-1) @ x
