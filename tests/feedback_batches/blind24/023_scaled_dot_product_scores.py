import torch


def scaled_dot_product_scores(queries, keys):
    d_k = queries.shape[-1]
    scores = torch.matmul(queries, keys.transpose(0, 1)) / d_k ** 0.5
    return scores
