import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[-1]
    return torch.matmul(queries, keys.transpose(0, 1)) / d_k ** 0.5
