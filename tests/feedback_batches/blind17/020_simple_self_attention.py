import torch


def simple_self_attention(inputs):
    scores = inputs @ inputs.T
    # a token already knows itself: let it attend to the others only
    scores = scores - torch.diag(torch.full((scores.shape[0],), float("inf")))
    weights = torch.softmax(scores, dim=-1)
    return inputs + weights @ inputs  # keep the token's own embedding as well
