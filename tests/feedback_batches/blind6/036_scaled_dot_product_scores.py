import torch


def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[2]
    return torch.bmm(queries, keys.transpose(1, 2)) / d_k
