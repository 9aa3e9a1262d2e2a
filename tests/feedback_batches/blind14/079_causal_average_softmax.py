import torch


def causal_average_softmax(x):
    """Prefix mean whose weights come out of a softmax, the form attention uses."""
    T = x.shape[1]
    # triu(1) keeps the -inf strictly above the diagonal and writes 0 everywhere else
    scores = torch.full((T, T), float("-inf"), dtype=x.dtype, device=x.device).triu(1)
    weights = scores.softmax(dim=-1)  # row t: 1/(t+1) on 0..t, exactly 0 after
    return torch.einsum("ts,bsc->btc", weights, x)
