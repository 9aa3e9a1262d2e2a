import torch


def scaled_dot_product_scores(queries, keys):
    scores = torch.matmul(queries, keys.transpose(-2, -1))
    scores = scores / keys.shape[-1] ** 0.5
    return scores.squeeze()  # drop leftover size-1 dims
