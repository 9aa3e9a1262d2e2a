import torch


def causal_average_softmax(x):
    num_tokens = x.shape[1]
    visible = torch.ones(num_tokens, num_tokens, dtype=x.dtype, device=x.device).tril()
    scores = visible.log()  # log 1 = 0 where a token may look, log 0 = -inf where it may not
    return torch.softmax(scores, dim=-1) @ x
