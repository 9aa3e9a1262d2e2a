import torch


def scaled_dot_product_scores(queries, keys):
    queries, keys = queries.float(), keys.float()
    d_k = keys.shape[-1]
    scores = torch.matmul(queries, keys.transpose(-1, -2))
    return scores / d_k ** 1/2
